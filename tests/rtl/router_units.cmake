# Verilator unit test of the operand routing network (rtl/tcu_operand_router.sv
# with tcu_router_writeback.sv, tcu_frag_layout.sv, tcu_word_mux.sv and
# tcu_clock_gate.sv), checked against the golden model's fragment layouts and
# the datapath's port packing (systemc/datapath_ports.cpp). Included by
# tests/CMakeLists.txt.
# Models, each a static library with its own PREFIX:
#   w8         WordsPerCycle = 8,  DWordsPerCycle = 8,  GatherBypass = 1
#   w32        WordsPerCycle = 32, DWordsPerCycle = 64, GatherBypass = 0
#   w64        WordsPerCycle = 64, DWordsPerCycle = 1,  GatherBypass = 1 (the
#              ends of the parameters' ranges)
# in test_operand_router, and with TCU_FULL_TIER (scripts/test.sh --full)
#   w3_synth   WordsPerCycle = 3,  DWordsPerCycle = 5,  GatherBypass = 1, with
#              SynthImpl = 1: the implementations Yosys maps
#              (tcu_router_gather_synth's AND-OR networks per position,
#              tcu_router_scatter_synth's tcu_word_mux trees) simulated as well,
# in test_operand_router_synth (label full; a minute of CPU to compile). The
# default tier covers the synthesis forms by the synth configuration's
# replays and run and by the formal proofs of the scatter, the word mux and
# the fragment layout (equiv_default).
# All with --assert (the router's protocol assertions).
include(${PROJECT_SOURCE_DIR}/cmake/TcuVerilate.cmake)

set(TCU_ROUTER_RTL_DIR ${CMAKE_CURRENT_LIST_DIR}/../../rtl)
set(TCU_ROUTER_SOURCES
  ${TCU_ROUTER_RTL_DIR}/tcu_pkg.sv
  ${TCU_ROUTER_RTL_DIR}/tcu_word_mux.sv
  ${TCU_ROUTER_RTL_DIR}/tcu_word_mux_synth.sv
  ${TCU_ROUTER_RTL_DIR}/tcu_word_mux_fast.sv
  ${TCU_ROUTER_RTL_DIR}/tcu_router_gather_synth.sv
  ${TCU_ROUTER_RTL_DIR}/tcu_router_gather_fast.sv
  ${TCU_ROUTER_RTL_DIR}/tcu_router_scatter_synth.sv
  ${TCU_ROUTER_RTL_DIR}/tcu_router_scatter_fast.sv
  ${TCU_ROUTER_RTL_DIR}/tcu_router_writeback.sv
  ${TCU_ROUTER_RTL_DIR}/tcu_clock_gate.sv
  ${TCU_ROUTER_RTL_DIR}/tcu_frag_layout.sv
  ${TCU_ROUTER_RTL_DIR}/tcu_operand_router.sv)

# tcu_router_model(<prefix> [SHORT_RUN] <verilator args...>): SHORT_RUN, a
# model whose test runs under a second (tcu_verilate's SHORT_RUN).
function(tcu_router_model prefix)
  cmake_parse_arguments(ARG "SHORT_RUN" "" "" ${ARGN})
  set(short_run "")
  if(ARG_SHORT_RUN)
    set(short_run SHORT_RUN)
  endif()
  tcu_verilate(${prefix} TEST_MODEL ${short_run} TOP tcu_operand_router PREFIX ${prefix}
    SOURCES ${TCU_ROUTER_SOURCES}
    ARGS ${TCU_ROUTER_RTL_DIR}/lint.vlt --assert ${ARG_UNPARSED_ARGUMENTS})
endfunction()

# The default tier's router test: three models, under a second of runs.
tcu_router_model(Vtcu_operand_router_w8 SHORT_RUN -GWordsPerCycle=8 -GDWordsPerCycle=8
  -GGatherBypass=1'b1)
tcu_router_model(Vtcu_operand_router_w32 SHORT_RUN -GWordsPerCycle=32 -GDWordsPerCycle=64
  -GGatherBypass=1'b0)
tcu_router_model(Vtcu_operand_router_w64 SHORT_RUN -GWordsPerCycle=64 -GDWordsPerCycle=1
  -GGatherBypass=1'b1)

add_executable(test_operand_router ${CMAKE_CURRENT_LIST_DIR}/test_operand_router.cpp)
target_link_libraries(test_operand_router PRIVATE tcu_catch_main Vtcu_operand_router_w8
  Vtcu_operand_router_w32 Vtcu_operand_router_w64 tcu_datapath_ports Catch2::Catch2)
add_test(NAME test_operand_router COMMAND test_operand_router)

if(TCU_FULL_TIER)
  tcu_router_model(Vtcu_operand_router_w3_synth -GWordsPerCycle=3 -GDWordsPerCycle=5
    -GGatherBypass=1'b1 -GSynthImpl=1'b1)
  add_executable(test_operand_router_synth ${CMAKE_CURRENT_LIST_DIR}/test_operand_router.cpp)
  target_compile_definitions(test_operand_router_synth PRIVATE TCU_ROUTER_SYNTH)
  target_link_libraries(test_operand_router_synth PRIVATE tcu_catch_main
    Vtcu_operand_router_w3_synth tcu_datapath_ports Catch2::Catch2)
  add_test(NAME test_operand_router_synth COMMAND test_operand_router_synth)
  set_tests_properties(test_operand_router_synth PROPERTIES LABELS full)
endif()
