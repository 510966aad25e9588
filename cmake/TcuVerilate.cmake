# Verilating the RTL, shared by rtl/ (the datapath configurations) and
# tests/rtl/ (the unit models). Each model is a static library of plain C++
# (--cc); the Verilator runtime is compiled once for all of them.
#
# Compile flags, chosen by measurement (docs/STATUS.md): the per-cycle code
# (Verilator's "fast" files) at -O3, which simulated tcu_f16_dot 1.3x and
# tcu_int4_dot 1.0x as fast as -O2 (and 1.5x, 1.7x as fast as -O1) at the
# same build time; construction and tracing set-up ("slow" files, run once)
# at -O0, which only saves build time.
find_package(verilator REQUIRED HINTS $ENV{VERILATOR_ROOT} /usr/share/verilator)

set(TCU_VERILATED_OPT_FAST -O3 CACHE STRING "optimization of Verilated per-cycle code")
set(TCU_VERILATED_OPT_SLOW -O0 CACHE STRING "optimization of Verilated set-up code")
# The waveform dump code (per cycle, but only when tracing) and the unit-test
# models (short runs) at -O1: they were 12% and a third of a fresh build's
# compile time at -O3.
set(TCU_VERILATED_OPT_TRACE -O1 CACHE STRING "optimization of Verilated waveform dump code")
set(TCU_TEST_MODEL_OPT_FAST -O1 CACHE STRING "optimization of the unit-test models' per-cycle code")
set(TCU_VERILATOR_ARGS -O3 --x-assign fast --x-initial fast
    CACHE STRING "Verilator options for every model")

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
    add_library(tcu_verilated_runtime STATIC
      ${VERILATOR_ROOT}/include/verilated.cpp
      ${VERILATOR_ROOT}/include/verilated_threads.cpp
      ${VERILATOR_ROOT}/include/verilated_fst_c.cpp)
    target_compile_options(tcu_verilated_runtime PRIVATE -O2 -w)
    set_target_properties(tcu_verilated_runtime PROPERTIES POSITION_INDEPENDENT_CODE ON)
    set(usage PUBLIC)
  endif()
  target_include_directories(tcu_verilated_runtime SYSTEM ${usage}
    ${VERILATOR_ROOT}/include ${VERILATOR_ROOT}/include/vltstd)
  target_compile_definitions(tcu_verilated_runtime ${usage}
    VM_COVERAGE=0 VM_SC=0 VM_TRACE=1 VM_TRACE_FST=1 VM_TRACE_VCD=0)
  target_link_libraries(tcu_verilated_runtime ${usage} ZLIB::ZLIB Threads::Threads)
endif()

# tcu_verilate(<library> TOP <module> PREFIX <class> SOURCES <.sv...>
#              [TRACE] [TEST_MODEL] [ARGS <verilator options...>])
# TEST_MODEL: a unit-test model, its per-cycle code at TCU_TEST_MODEL_OPT_FAST.
function(tcu_verilate lib)
  cmake_parse_arguments(ARG "TRACE;TEST_MODEL" "TOP;PREFIX" "SOURCES;ARGS" ${ARGN})
  set(opt_fast ${TCU_VERILATED_OPT_FAST})
  if(ARG_TEST_MODEL)
    set(opt_fast ${TCU_TEST_MODEL_OPT_FAST})
  endif()
  add_library(${lib} STATIC)
  set(trace "")
  if(ARG_TRACE)
    set(trace TRACE_FST)
  endif()
  if(TCU_VERILATED_UNITY)
    # One translation unit at -O1 (tcu explore's point builds): a small
    # model compiles several times faster than as ~50 files that each parse
    # Verilator's headers, and a sweep's workloads are short. (Per-file
    # optimization flags would keep the files out of the unity build.)
    verilate(${lib} ${trace}
      SOURCES ${ARG_SOURCES}
      TOP_MODULE ${ARG_TOP}
      PREFIX ${ARG_PREFIX}
      VERILATOR_ARGS ${TCU_VERILATOR_ARGS} ${ARG_ARGS})
    target_compile_options(${lib} PRIVATE -O1)
    set_target_properties(${lib} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 0)
  else()
    verilate(${lib} ${trace}
      SOURCES ${ARG_SOURCES}
      TOP_MODULE ${ARG_TOP}
      PREFIX ${ARG_PREFIX}
      VERILATOR_ARGS ${TCU_VERILATOR_ARGS} ${ARG_ARGS}
      OPT_FAST ${opt_fast}
      OPT_SLOW ${TCU_VERILATED_OPT_SLOW})
  endif()
  # The runtime sources verilate() added: tcu_verilated_runtime has them.
  get_target_property(sources ${lib} SOURCES)
  # The per-cycle trace files (the __Slow ones are set-up) after OPT_FAST,
  # so that this -O wins.
  foreach(source ${sources})
    if(source MATCHES "__Trace__[0-9]+\\.cpp$")
      set_property(SOURCE ${source} APPEND_STRING PROPERTY COMPILE_FLAGS
                   " ${TCU_VERILATED_OPT_TRACE}")
    endif()
  endforeach()
  list(FILTER sources EXCLUDE REGEX "/include/verilated[a-z_]*\\.cpp$")
  set_property(TARGET ${lib} PROPERTY SOURCES ${sources})
  target_link_libraries(${lib} PUBLIC tcu_verilated_runtime)
  set_target_properties(${lib} PROPERTIES POSITION_INDEPENDENT_CODE ON)
endfunction()
