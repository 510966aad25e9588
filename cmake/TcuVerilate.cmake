# Verilating the RTL, shared by rtl/ (the datapath configurations) and
# tests/rtl/ (the unit models). Each model is a static library of plain C++
# (--cc); the Verilator runtime is compiled once for all of them.
#
# Compile flags, chosen by measurement: the per-cycle code
# (Verilator's "fast" files) at -O3, which simulated tcu_f16_dot 1.3x and
# tcu_int4_dot 1.0x as fast as -O2 (and 1.5x, 1.7x as fast as -O1) at the
# same build time; construction and tracing set-up ("slow" files, run once)
# at -O0, which only saves build time; the waveform dump code and the
# unit-test models at -O1 (below).
find_package(verilator REQUIRED HINTS $ENV{VERILATOR_ROOT} /usr/share/verilator)

# Verilator runs from the repository root with the sources named relative
# to it (cmake/verilator_at_root.sh.in), so that a Verilated model's
# messages name repository files; the generated C++ is compiled with the
# build tree's prefix mapped off __FILE__ (its "%Error: No delays" and the
# like). No path of the checkout is compiled into a model (CTest
# verilated_paths).
set(TCU_VERILATOR_REAL_BIN ${VERILATOR_BIN})
configure_file(${CMAKE_CURRENT_LIST_DIR}/verilator_at_root.sh.in
               ${PROJECT_BINARY_DIR}/verilator_at_root.sh @ONLY
               FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ
                                GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
set(TCU_VERILATOR_AT_ROOT ${PROJECT_BINARY_DIR}/verilator_at_root.sh)
set(TCU_VERILATED_PREFIX_MAP -fmacro-prefix-map=${PROJECT_SOURCE_DIR}/=)

set(TCU_VERILATED_OPT_FAST -O3 CACHE STRING "optimization of Verilated per-cycle code")
set(TCU_VERILATED_OPT_SLOW -O0 CACHE STRING "optimization of Verilated set-up code")
# The waveform dump code (per cycle, but only when tracing) at -O1: it was
# an eighth of a fresh build's compile time at -O3.
set(TCU_VERILATED_OPT_TRACE -O1 CACHE STRING "optimization of Verilated waveform dump code")
# The unit-test models' per-cycle code: their runs are short.
set(TCU_TEST_MODEL_OPT_FAST -O1 CACHE STRING "optimization of the unit-test models' per-cycle code")
# The unit-test models whose tests run for under a second (the datapath's
# smoke tests, the router's): -O0 compiles them in about a third of -O1's
# CPU time, and their runs stay short.
set(TCU_SHORT_TEST_MODEL_OPT_FAST -O0 CACHE STRING
    "optimization of the per-cycle code of the unit-test models with short runs")
set(TCU_VERILATOR_ARGS -O3 --x-assign fast --x-initial fast
    CACHE STRING "Verilator options for every model")
# A coverage build (scripts/coverage.sh, its own build directory): every
# model Verilated with line and user (cover property) coverage, and with
# TCU_COVERAGE_TOGGLE toggle coverage too, the runtime with Verilator's
# coverage writer; `tcu run --coverage DIR` then writes the RTL's coverage
# beside the functional bins. Toggle coverage is its own option because it
# is the cost: with it the main job's runs take about 48x their plain time
# (110 s against 2.3 s on two cores), every covered signal compared at every
# evaluation.
option(TCU_COVERAGE "Verilate with line and cover-point coverage" OFF)
option(TCU_COVERAGE_TOGGLE "with TCU_COVERAGE: toggle coverage as well (slow)" OFF)
set(tcu_verilated_coverage 0)
set(tcu_verilator_coverage_args "")
if(TCU_COVERAGE)
  set(tcu_verilated_coverage 1)
  set(tcu_verilator_coverage_args --coverage-line --coverage-user)
  if(TCU_COVERAGE_TOGGLE)
    list(APPEND tcu_verilator_coverage_args --coverage-toggle)
  endif()
endif()

if(NOT TARGET tcu_verilated_runtime)
  find_package(Threads REQUIRED)
  find_package(ZLIB REQUIRED)
  if(TCU_VERILATED_RUNTIME_LIBRARY)
    # Another build's runtime (tcu explore's point builds).
    add_library(tcu_verilated_runtime STATIC IMPORTED)
    set_target_properties(tcu_verilated_runtime PROPERTIES
      IMPORTED_LOCATION ${TCU_VERILATED_RUNTIME_LIBRARY})
    set(usage INTERFACE)
  else()
    set(coverage_runtime "")
    if(TCU_COVERAGE)
      set(coverage_runtime ${VERILATOR_ROOT}/include/verilated_cov.cpp)
    endif()
    add_library(tcu_verilated_runtime STATIC
      ${VERILATOR_ROOT}/include/verilated.cpp
      ${VERILATOR_ROOT}/include/verilated_threads.cpp
      ${VERILATOR_ROOT}/include/verilated_fst_c.cpp ${coverage_runtime})
    target_compile_options(tcu_verilated_runtime PRIVATE -O2 -w)
    set_target_properties(tcu_verilated_runtime PROPERTIES POSITION_INDEPENDENT_CODE ON)
    set(usage PUBLIC)
  endif()
  target_include_directories(tcu_verilated_runtime SYSTEM ${usage}
    ${VERILATOR_ROOT}/include ${VERILATOR_ROOT}/include/vltstd)
  target_compile_definitions(tcu_verilated_runtime ${usage}
    VM_COVERAGE=${tcu_verilated_coverage} VM_SC=0 VM_TRACE=1 VM_TRACE_FST=1 VM_TRACE_VCD=0)
  target_link_libraries(tcu_verilated_runtime ${usage} ZLIB::ZLIB Threads::Threads)
endif()

# Compiles a Verilated library's generated sources in batches, each batch
# one translation unit that #includes its files, by the flags verilate()
# gave them: per-cycle code at OPT_FAST, the waveform dump code at
# TCU_VERILATED_OPT_TRACE, set-up code at OPT_SLOW. Each generated file
# parses Verilator's headers and the model's symbol table (1 to 2 s); the
# default configuration's 165 files spent most of their compile time there.
# (Verilator's own non-parallel builds compile one __ALL.cpp the same way.)
# The batches of a kind are balanced by size (the largest file first, each
# into the smallest batch so far), about TCU_VERILATED_BATCH_BYTES of C++
# each: a batch's compile time goes with its size, and a batch much larger
# than the rest is the build's critical path (the synthesis configuration's
# router gather is 22 files of 1.6 to 6.4 MB next to each other).
set(TCU_VERILATED_BATCH_BYTES 3000000 CACHE STRING
    "C++ bytes of Verilated code per compiled batch (about)")
function(tcu_batch_verilated_sources lib opt_fast)
  get_target_property(sources ${lib} SOURCES)
  set(batch_dir ${CMAKE_CURRENT_BINARY_DIR}/${lib}_batches)
  foreach(kind fast trace slow)
    set(${kind}_files "")
    set(${kind}_bytes 0)
  endforeach()
  foreach(source ${sources})
    if(NOT source MATCHES "\\.cpp$" OR source MATCHES "/include/verilated[a-z_]*\\.cpp$")
      continue()
    endif()
    get_source_file_property(flags ${source} COMPILE_FLAGS)
    if(source MATCHES "__Trace__[0-9]+\\.cpp$")
      set(kind trace)
    elseif(flags MATCHES "${TCU_VERILATED_OPT_SLOW}")
      set(kind slow)
    elseif(flags MATCHES "${opt_fast}")
      set(kind fast)
    else()
      continue()  # no flags of verilate()'s: left as it is
    endif()
    file(SIZE ${source} bytes)
    math(EXPR ${kind}_bytes "${${kind}_bytes} + ${bytes}")
    # Zero-padded sizes sort as numbers.
    string(LENGTH "${bytes}" digits)
    math(EXPR pad "12 - ${digits}")
    string(REPEAT "0" ${pad} zeros)
    list(APPEND ${kind}_files "${zeros}${bytes}|${bytes}|${source}")
    set_source_files_properties(${source} PROPERTIES HEADER_FILE_ONLY TRUE)
  endforeach()
  set(fast_flags ${opt_fast})
  set(trace_flags ${TCU_VERILATED_OPT_TRACE})
  set(slow_flags ${TCU_VERILATED_OPT_SLOW})
  foreach(kind fast trace slow)
    if(NOT ${kind}_files)
      continue()
    endif()
    math(EXPR count "(${${kind}_bytes} + ${TCU_VERILATED_BATCH_BYTES} - 1) / ${TCU_VERILATED_BATCH_BYTES}")
    math(EXPR last "${count} - 1")
    foreach(index RANGE ${last})
      set(text_${index} "")
      set(size_${index} 0)
    endforeach()
    list(SORT ${kind}_files ORDER DESCENDING)
    foreach(entry ${${kind}_files})
      string(REPLACE "|" ";" fields "${entry}")
      list(GET fields 1 bytes)
      list(GET fields 2 source)
      set(smallest 0)
      foreach(index RANGE ${last})
        if(size_${index} LESS size_${smallest})
          set(smallest ${index})
        endif()
      endforeach()
      string(APPEND text_${smallest} "#include \"${source}\"\n")
      math(EXPR size_${smallest} "${size_${smallest}} + ${bytes}")
    endforeach()
    foreach(index RANGE ${last})
      if(text_${index} STREQUAL "")
        continue()
      endif()
      set(batch ${batch_dir}/${kind}_${index}.cpp)
      file(CONFIGURE OUTPUT ${batch} CONTENT "${text_${index}}" @ONLY)
      set_source_files_properties(${batch} PROPERTIES COMPILE_FLAGS "${${kind}_flags}")
      target_sources(${lib} PRIVATE ${batch})
    endforeach()
  endforeach()
endfunction()

# tcu_verilate(<library> TOP <module> PREFIX <class> SOURCES <.sv...>
#              [TRACE] [TEST_MODEL [SHORT_RUN]] [OPT_FAST <flag>]
#              [ARGS <verilator options...>])
# TEST_MODEL: a unit-test model, its per-cycle code at
# TCU_TEST_MODEL_OPT_FAST (SHORT_RUN: TCU_SHORT_TEST_MODEL_OPT_FAST).
# OPT_FAST: the per-cycle code's optimization (default TCU_VERILATED_OPT_FAST).
function(tcu_verilate lib)
  cmake_parse_arguments(ARG "TRACE;TEST_MODEL;SHORT_RUN" "TOP;PREFIX;OPT_FAST" "SOURCES;ARGS"
                        ${ARGN})
  add_library(${lib} STATIC)
  set(opt_fast ${TCU_VERILATED_OPT_FAST})
  if(ARG_TEST_MODEL AND ARG_SHORT_RUN)
    set(opt_fast ${TCU_SHORT_TEST_MODEL_OPT_FAST})
  elseif(ARG_TEST_MODEL)
    set(opt_fast ${TCU_TEST_MODEL_OPT_FAST})
  endif()
  if(ARG_OPT_FAST)
    set(opt_fast ${ARG_OPT_FAST})
  endif()
  set(trace "")
  if(ARG_TRACE)
    set(trace TRACE_FST)
  endif()
  set(VERILATOR_BIN ${TCU_VERILATOR_AT_ROOT})  # verilate() runs it (above)
  # `include files are looked up beside the sources (rtl/tcu_fma_arith.svh).
  set(include_dirs "")
  foreach(source ${ARG_SOURCES})
    get_filename_component(dir ${source} DIRECTORY)
    list(APPEND include_dirs ${dir})
  endforeach()
  list(REMOVE_DUPLICATES include_dirs)
  if(TCU_VERILATED_UNITY)
    # One translation unit at -O1 (tcu explore's point builds): a small
    # model compiles several times faster than as ~50 files that each parse
    # Verilator's headers, and a sweep's workloads are short. (Per-file
    # optimization flags would keep the files out of the unity build.)
    verilate(${lib} ${trace}
      SOURCES ${ARG_SOURCES}
      TOP_MODULE ${ARG_TOP}
      PREFIX ${ARG_PREFIX}
      INCLUDE_DIRS ${include_dirs}
      VERILATOR_ARGS ${TCU_VERILATOR_ARGS} ${tcu_verilator_coverage_args} ${ARG_ARGS})
    target_compile_options(${lib} PRIVATE -O1)
    set_target_properties(${lib} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 0)
  else()
    verilate(${lib} ${trace}
      SOURCES ${ARG_SOURCES}
      TOP_MODULE ${ARG_TOP}
      PREFIX ${ARG_PREFIX}
      INCLUDE_DIRS ${include_dirs}
      VERILATOR_ARGS ${TCU_VERILATOR_ARGS} ${tcu_verilator_coverage_args} ${ARG_ARGS}
      OPT_FAST ${opt_fast}
      OPT_SLOW ${TCU_VERILATED_OPT_SLOW})
    tcu_batch_verilated_sources(${lib} ${opt_fast})
  endif()
  # The runtime sources verilate() added: tcu_verilated_runtime has them.
  get_target_property(sources ${lib} SOURCES)
  list(FILTER sources EXCLUDE REGEX "/include/verilated[a-z_]*\\.cpp$")
  set_property(TARGET ${lib} PROPERTY SOURCES ${sources})
  target_link_libraries(${lib} PUBLIC tcu_verilated_runtime)
  target_compile_options(${lib} PRIVATE ${TCU_VERILATED_PREFIX_MAP})
  set_target_properties(${lib} PROPERTIES POSITION_INDEPENDENT_CODE ON)
endfunction()
