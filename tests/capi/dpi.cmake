# The DPI-C testbench (label dpi): tb/dpi/tcu_core_dpi_tb.sv drives
# rtl/tcu_core.sv from SystemVerilog alone and checks every D against the
# golden model through tb/dpi/tcu_golden_dpi_pkg.sv and libtcu_golden.
# Verilator --binary --timing builds it with its own make, as one translation
# unit (VM_PARALLEL_BUILDS=0) at -O0, Verilator's runtime included, many
# times faster than with a translation unit per generated file at -O1
# (docs/data/costs.toml, figures dpi-build-*; each parses Verilator's headers and the model's symbols); the
# runs are short. A small core (the spec's configuration dpi,
# spec/config.toml) keeps it cheap too, and one build serves the testbench
# and its planted twin (below).
find_program(TCU_VERILATOR_EXECUTABLE verilator REQUIRED)
file(GLOB dpi_rtl_units CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/rtl/tcu_*.sv)
list(REMOVE_ITEM dpi_rtl_units ${PROJECT_SOURCE_DIR}/rtl/tcu_pkg.sv)
set(dpi_tb_sources ${PROJECT_SOURCE_DIR}/tb/dpi/tcu_golden_dpi_pkg.sv
                   ${PROJECT_SOURCE_DIR}/tb/dpi/tcu_core_dpi_tb.sv)
set(TCU_DPI_JOBS 2 CACHE STRING "compile jobs of each DPI testbench build")
set(dpi_objcache "")
if(TCU_CCACHE)
  set(dpi_objcache "OBJCACHE=${TCU_CCACHE}")
endif()

# tcu_dpi_testbench(<name> RTL <units...> [PARAMS <Param=Value...>]): the
# testbench at build/<name>/Vtcu_core_dpi_tb, tcu_core at configuration dpi
# with PARAMS in place of its values.
function(tcu_dpi_testbench name)
  cmake_parse_arguments(ARG "" "" "RTL;PARAMS" ${ARGN})
  set(dir ${PROJECT_BINARY_DIR}/${name})
  set(gparams "")
  foreach(assignment ${TCU_SPEC_CONFIG_dpi})
    string(REGEX REPLACE "=.*" "" param "${assignment}")
    foreach(given ${ARG_PARAMS})
      if(given MATCHES "^${param}=")
        set(assignment ${given})
      endif()
    endforeach()
    list(APPEND gparams -G${assignment})
  endforeach()
  # The RTL's `include files (rtl/*.svh), found by -I and rebuilt on.
  file(GLOB dpi_includes ${PROJECT_SOURCE_DIR}/rtl/*.svh)
  add_custom_command(
    OUTPUT ${dir}/Vtcu_core_dpi_tb
    COMMAND ${CMAKE_COMMAND} -E rm -rf ${dir}
    COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/capi/logged.sh ${dir}.log
            ${CMAKE_COMMAND} -E env CCACHE_BASEDIR=${PROJECT_BINARY_DIR} CCACHE_NOHASHDIR=true
            ${TCU_VERILATOR_EXECUTABLE} --binary --timing -j ${TCU_DPI_JOBS}
            --top-module tcu_core_dpi_tb --Mdir ${dir} -Wno-fatal -fno-inline --assert
            --x-assign fast --x-initial fast ${gparams} -I${PROJECT_SOURCE_DIR}/rtl
            ${PROJECT_SOURCE_DIR}/rtl/lint.vlt ${PROJECT_SOURCE_DIR}/rtl/tcu_pkg.sv ${ARG_RTL}
            ${dpi_tb_sources}
            -LDFLAGS "-L$<TARGET_FILE_DIR:tcu_golden> -ltcu_golden -Wl,-rpath,$<TARGET_FILE_DIR:tcu_golden>"
            -MAKEFLAGS "OPT_FAST=-O0 OPT_SLOW=-O0 OPT_GLOBAL=-O0 VM_PARALLEL_BUILDS=0 ${dpi_objcache}"
    DEPENDS ${PROJECT_SOURCE_DIR}/rtl/tcu_pkg.sv ${ARG_RTL} ${dpi_tb_sources} ${dpi_includes}
    COMMENT "Verilating and building the DPI-C testbench ${name} (log: ${dir}.log)"
    VERBATIM)
  add_custom_target(${name} ALL DEPENDS ${dir}/Vtcu_core_dpi_tb)
  # Linked with libtcu_golden.so (a stable ABI): built after it, not rebuilt
  # when it changes.
  add_dependencies(${name} tcu_golden)
endfunction()

# The planted fault: tcu_sparse_mux.sv flips the low bit of every metadata
# pair index while the simulation has +tcu_plant (a copy of the file with the
# switch, tests/capi/plant_fault.cmake): the testbench must then fail on the
# sparse variants. Without the plusarg the copy computes what the file does,
# so one testbench build serves the run and its planted twin.
set(plant_dir ${PROJECT_BINARY_DIR}/dpi_plant_rtl)
set(dpi_units ${dpi_rtl_units})
list(REMOVE_ITEM dpi_units ${PROJECT_SOURCE_DIR}/rtl/tcu_sparse_mux.sv)
add_custom_command(
  OUTPUT ${plant_dir}/tcu_sparse_mux.sv
  COMMAND ${CMAKE_COMMAND} -DIN=${PROJECT_SOURCE_DIR}/rtl/tcu_sparse_mux.sv
          -DOUT=${plant_dir}/tcu_sparse_mux.sv "-DFROM=meta_i[c*MetaW + 2*slot +: 2];"
          "-DTO=meta_i[c*MetaW + 2*slot +: 2] ^ {1'b0, tcu_plant};" -DPLUSARG=tcu_plant
          -P ${CMAKE_CURRENT_SOURCE_DIR}/capi/plant_fault.cmake
  DEPENDS ${PROJECT_SOURCE_DIR}/rtl/tcu_sparse_mux.sv ${CMAKE_CURRENT_SOURCE_DIR}/capi/plant_fault.cmake
  VERBATIM)

# Every variant at random under 30% write-back back-pressure.
tcu_dpi_testbench(dpi_tb RTL ${dpi_units} ${plant_dir}/tcu_sparse_mux.sv)
add_test(NAME dpi_tcu_core
         COMMAND ${PROJECT_BINARY_DIR}/dpi_tb/Vtcu_core_dpi_tb +count=4 +seed=1 +backpressure=30)
set_tests_properties(dpi_tcu_core PROPERTIES LABELS dpi PASS_REGULAR_EXPRESSION
                     "tcu_core_dpi_tb: [1-9][0-9]* passed, 0 failed, 0 protocol errors")
add_test(NAME dpi_tcu_core_planted_fault
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/capi/expect_failure.sh
                 "ERROR: mismatch: mma\\.sp[^ ]* instruction [0-9]+ lane"
                 ${PROJECT_BINARY_DIR}/dpi_tb/Vtcu_core_dpi_tb +count=1 +seed=1 +tcu_plant)
set_tests_properties(dpi_tcu_core_planted_fault PROPERTIES LABELS dpi)

# Second tier: a longer run under heavier back-pressure.
add_test(NAME dpi_tcu_core_long
         COMMAND ${PROJECT_BINARY_DIR}/dpi_tb/Vtcu_core_dpi_tb +count=50 +seed=2 +backpressure=60)
set_tests_properties(dpi_tcu_core_long PROPERTIES LABELS "dpi;full" PASS_REGULAR_EXPRESSION
                     "tcu_core_dpi_tb: [1-9][0-9]* passed, 0 failed, 0 protocol errors")
