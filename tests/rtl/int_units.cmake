# Verilator unit tests of the integer and e2m1 datapath units (C++, Catch2),
# bit-exact against the golden model. Included by tests/CMakeLists.txt.
# Each unit is Verilated at two parameter settings (a static library per
# model, a distinct PREFIX each) and one test executable drives both.
include(${PROJECT_SOURCE_DIR}/cmake/TcuVerilate.cmake)

set(TCU_INT_RTL_DIR ${CMAKE_CURRENT_LIST_DIR}/../../rtl)

# tcu_int_unit_model(<library> <top> <prefix> [SHORT_RUN] SOURCES <.sv...>
#                    [PARAMS -G...]): SHORT_RUN, a model whose test runs
# under a second (tcu_verilate's SHORT_RUN).
function(tcu_int_unit_model lib top prefix)
  cmake_parse_arguments(ARG "SHORT_RUN" "" "SOURCES;PARAMS" ${ARGN})
  set(sources ${TCU_INT_RTL_DIR}/tcu_pkg.sv)
  foreach(source ${ARG_SOURCES})
    list(APPEND sources ${TCU_INT_RTL_DIR}/${source})
  endforeach()
  set(short_run "")
  if(ARG_SHORT_RUN)
    set(short_run SHORT_RUN)
  endif()
  tcu_verilate(${lib} TEST_MODEL ${short_run} TOP ${top} PREFIX ${prefix} SOURCES ${sources}
    ARGS ${TCU_INT_RTL_DIR}/lint.vlt ${ARG_PARAMS})
endfunction()

# tcu_int_unit_test(<test> <source.cpp> <model libraries...>)
function(tcu_int_unit_test name source)
  add_executable(${name} ${CMAKE_CURRENT_LIST_DIR}/${source})
  target_link_libraries(${name} PRIVATE tcu_catch_main ${ARGN} tcu_vectors Catch2::Catch2)
  target_compile_definitions(${name} PRIVATE
    TCU_TEST_DATA_DIR="${CMAKE_CURRENT_LIST_DIR}/../data")
  add_test(NAME ${name} COMMAND ${name})
endfunction()

# ---- tcu_int4_dot at Stages = 2 (the datapath's default; the fast
# implementation, tcu_int4_dot_fast) and 7 (more registers than layers)
# with SynthImpl = 1 (tcu_int4_dot_synth, the adder tree Yosys maps);
# tcu_int4_accumulate (no parameters) ----------------------------------------
tcu_int_unit_model(tcu_rtl_int4_dot_s2 tcu_int4_dot Vtcu_int4_dot_s2
  SOURCES tcu_pipe_reg.sv tcu_int4_dot.sv tcu_int4_dot_synth.sv tcu_int4_dot_fast.sv
  PARAMS -GStages=2)
tcu_int_unit_model(tcu_rtl_int4_dot_s7 tcu_int4_dot Vtcu_int4_dot_s7
  SOURCES tcu_pipe_reg.sv tcu_int4_dot.sv tcu_int4_dot_synth.sv tcu_int4_dot_fast.sv
  PARAMS -GStages=7 -GSynthImpl=1'b1)
tcu_int_unit_model(tcu_rtl_int4_accumulate tcu_int4_accumulate Vtcu_int4_accumulate
  SOURCES tcu_int4_accumulate.sv)
tcu_int_unit_test(test_rtl_int4_dot test_rtl_int4_dot.cpp
  tcu_rtl_int4_dot_s2 tcu_rtl_int4_dot_s7 tcu_rtl_int4_accumulate)

# ---- tcu_sparse_mux (combinational, no parameters) --------------------------
tcu_int_unit_model(tcu_rtl_sparse_mux tcu_sparse_mux Vtcu_sparse_mux
  SOURCES tcu_sparse_mux.sv)
tcu_int_unit_test(test_rtl_sparse_mux test_rtl_sparse_mux.cpp tcu_rtl_sparse_mux)

# ---- tcu_e2m1_dot at Stages = 2 (default), 0 (combinational), 1 (every
# layer in the output register's block), 8 (two registers after each layer;
# with SynthImpl = 1: the products as logic, tcu_e2m1_group_dots_synth, not
# the simulation's table) and 11 (the fine form: a register after each of
# its eleven parts, the deepest setting) --------------------------------------
set(TCU_E2M1_SOURCES tcu_pipe_reg.sv tcu_e2m1_dot.sv tcu_e2m1_group_dots_synth.sv
    tcu_e2m1_group_dots_fast.sv)
tcu_int_unit_model(tcu_rtl_e2m1_dot_s2 tcu_e2m1_dot Vtcu_e2m1_dot_s2
  SOURCES ${TCU_E2M1_SOURCES} PARAMS -GStages=2)
tcu_int_unit_model(tcu_rtl_e2m1_dot_s0 tcu_e2m1_dot Vtcu_e2m1_dot_s0
  SOURCES ${TCU_E2M1_SOURCES} PARAMS -GStages=0)
tcu_int_unit_model(tcu_rtl_e2m1_dot_s1 tcu_e2m1_dot Vtcu_e2m1_dot_s1
  SOURCES ${TCU_E2M1_SOURCES} PARAMS -GStages=1)
tcu_int_unit_model(tcu_rtl_e2m1_dot_s8 tcu_e2m1_dot Vtcu_e2m1_dot_s8
  SOURCES ${TCU_E2M1_SOURCES} PARAMS -GStages=8 -GSynthImpl=1'b1)
tcu_int_unit_model(tcu_rtl_e2m1_dot_s11 tcu_e2m1_dot Vtcu_e2m1_dot_s11
  SOURCES ${TCU_E2M1_SOURCES} PARAMS -GStages=11)
tcu_int_unit_test(test_rtl_e2m1_dot test_rtl_e2m1_dot.cpp
  tcu_rtl_e2m1_dot_s2 tcu_rtl_e2m1_dot_s0 tcu_rtl_e2m1_dot_s1 tcu_rtl_e2m1_dot_s8
  tcu_rtl_e2m1_dot_s11)

# ---- tcu_datapath smoke test at one dot unit per engine (small and quick to
# Verilate; the full datapath is tested through the SystemC build), with
# assertions and randomised X values ----------------------------------------
file(GLOB TCU_INT_DATAPATH_SOURCES RELATIVE ${TCU_INT_RTL_DIR} CONFIGURE_DEPENDS
     ${TCU_INT_RTL_DIR}/tcu_*.sv)
list(REMOVE_ITEM TCU_INT_DATAPATH_SOURCES tcu_pkg.sv)
tcu_int_unit_model(tcu_rtl_datapath_smoke tcu_datapath Vtcu_datapath_smoke SHORT_RUN
  SOURCES ${TCU_INT_DATAPATH_SOURCES}
  PARAMS -GInt4MacsPerCycle=32 -GE2m1MacsPerCycle=64 -GF16FmasPerCycle=4 -GF64FmasPerCycle=4
         -GIntStages=0 -GE2m1Stages=1 -GFmaStages=1
         --assert --x-assign unique --x-initial unique)
tcu_int_unit_test(test_datapath_smoke test_datapath_smoke.cpp tcu_rtl_datapath_smoke
  tcu_datapath_ports)
# ... and at unit counts that are not powers of two (partial last groups; the
# int4 halves in adjacent units of 6), with the f16 engine left out.
tcu_int_unit_model(tcu_rtl_datapath_smoke_uneven tcu_datapath Vtcu_datapath_smoke_uneven
  SHORT_RUN SOURCES ${TCU_INT_DATAPATH_SOURCES}
  PARAMS -GInt4MacsPerCycle=192 -GE2m1MacsPerCycle=192 -GF16FmasPerCycle=4 -GF64FmasPerCycle=20
         -GIntStages=1 -GE2m1Stages=0 -GFmaStages=1 -GF16Enable=0
         --assert --x-assign unique --x-initial unique)
tcu_int_unit_test(test_datapath_smoke_uneven test_datapath_smoke.cpp
  tcu_rtl_datapath_smoke_uneven tcu_datapath_ports)
target_compile_definitions(test_datapath_smoke_uneven PRIVATE TCU_SMOKE_UNEVEN=1)
