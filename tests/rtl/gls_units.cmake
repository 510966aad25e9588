# Gate-level simulation (CTest label "gls"): the Yosys netlist of each unit
# type, written by scripts/synth.sh --netlist in the same run that counts its
# cells (the netlist behind the area figure), Verilated and driven by the
# unit's own RTL test (the same source, compiled with TCU_GLS: its drivers
# and golden checks run on the netlist instead of the RTL). The netlist keeps
# the RTL's module name and ports; its parameters are fixed at synthesis:
#   int4_dot, e2m1_dot     Stages=2 (the unit's default, scripts/synth.sh's row)
#   f16_dot                FmaStages=2 (the unit's default, idem)
#   sparse_mux             (no parameters)
#   f64_dot                FmaStages=2 (the unit's default; second tier)
#   operand_router         WordsPerCycle = DWordsPerCycle = 1 (second tier,
#                          a sample of 21 variants)
# Netlists are big (the f16 dot is about 25,000 gates): Verilated without
# splitting into classes, compiled at TCU_GLS_OPT (default -O0, which
# compiles several times faster than -O1, and the runs are short). The
# model is the netlist with one gate made switchable
# (tests/rtl/gls_plant_fault.sh: as synthesized, or faulty while
# TCU_GLS_PLANT is set): the unit's test runs it as synthesized, and its
# twin, the same executable with TCU_GLS_PLANT=1, must fail:
# gls_<unit>_planted_fault (one model a unit, not two: the Verilation and
# compiles saved are docs/data/costs.toml's figure gls-planted-one-model-saved). Units whose synthesis, Verilation and
# compilation take more than about two minutes are in the second tier (the
# end of this file).
# Included by tests/CMakeLists.txt (Yosys found).
include(${PROJECT_SOURCE_DIR}/cmake/TcuVerilate.cmake)

set(TCU_GLS_OPT -O0 CACHE STRING "optimization of the gate-level models' C++")
set(TCU_GLS_DIR ${CMAKE_CURRENT_BINARY_DIR}/gls)
set(TCU_GLS_TEST_DIR ${CMAKE_CURRENT_LIST_DIR})
file(GLOB TCU_GLS_RTL_SOURCES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/rtl/tcu_*.sv)

# tcu_gls_netlist(<top> <params> <out-var>): the netlist of <top> at
# <params> ("Name=Value ..." or ""), by scripts/synth.sh --netlist; its path
# in <out-var>. The file name is synth.sh's (unit, then the parameters).
function(tcu_gls_netlist top params out_var)
  set(name ${top})
  set(param_args "")
  if(params)
    string(REPLACE " " "_" suffix "${params}")
    string(REPLACE "=" "-" suffix "${suffix}")
    set(name ${top}.${suffix})
    set(param_args --params "${params}")
  endif()
  set(netlist ${TCU_GLS_DIR}/${name}.v)
  add_custom_command(OUTPUT ${netlist}
    COMMAND ${CMAKE_COMMAND} -E env SYNTH_DIR=${TCU_GLS_DIR}
            ${PROJECT_SOURCE_DIR}/scripts/synth.sh --netlist ${param_args} ${top}
    DEPENDS ${PROJECT_SOURCE_DIR}/scripts/synth.sh ${TCU_GLS_RTL_SOURCES}
    COMMENT "Synthesizing ${top} ${params} (Yosys, netlist for gate-level simulation)"
    VERBATIM)
  set(${out_var} ${netlist} PARENT_SCOPE)
endfunction()

# tcu_gls_model(<library> <top> <prefix> <netlist>): the netlist Verilated as
# class <prefix>, in a static library. Verilator's output file names are
# known only after it runs, so the library compiles two files that include
# them (tests/rtl/gls_batches.cmake): per-cycle code and set-up code.
# -fno-const-bit-op-tree: Verilator 5.006's bit-op-tree rewriting (V3Const)
# mis-simulates the e2m1 dot's netlist (1,406 of 3,000 random cycles wrong
# at -O3, none with this one optimization off, none under Icarus Verilog;
# docs/architecture.md, "Simulation and synthesis read one text").
function(tcu_gls_model lib top prefix netlist)
  set(mdir ${TCU_GLS_DIR}/${lib})
  set(batches ${TCU_GLS_DIR}/${lib}_fast.cpp ${TCU_GLS_DIR}/${lib}_slow.cpp)
  add_custom_command(OUTPUT ${batches} ${mdir}/${prefix}.h
    COMMAND ${CMAKE_COMMAND} -E rm -rf ${mdir}
    COMMAND ${CMAKE_COMMAND} -E env VERILATOR_ROOT=${VERILATOR_ROOT} ${VERILATOR_BIN}
            --cc ${TCU_VERILATOR_ARGS} -fno-const-bit-op-tree -Wno-fatal -Wno-lint -Wno-style
            --top-module ${top} --prefix ${prefix} --Mdir ${mdir} ${netlist}
    COMMAND ${CMAKE_COMMAND} -DMDIR=${mdir} "-DBATCHES=${batches}"
            -P ${TCU_GLS_TEST_DIR}/gls_batches.cmake
    DEPENDS ${netlist} ${TCU_GLS_TEST_DIR}/gls_batches.cmake
    COMMENT "Verilating the netlist ${netlist} (${prefix})"
    VERBATIM)
  add_library(${lib} STATIC ${batches})
  target_include_directories(${lib} SYSTEM PUBLIC ${mdir})
  target_compile_options(${lib} PRIVATE ${TCU_GLS_OPT} -w)
  set_source_files_properties(${TCU_GLS_DIR}/${lib}_slow.cpp PROPERTIES COMPILE_OPTIONS -O0)
  target_link_libraries(${lib} PUBLIC tcu_verilated_runtime)
endfunction()

# tcu_gls_test(<test> <source.cpp> <model library> <libraries...>): the unit's
# test source compiled with TCU_GLS against the model (an object library
# <test>_driver, which another model may link as well).
function(tcu_gls_test name source model)
  add_library(${name}_driver OBJECT ${TCU_GLS_TEST_DIR}/${source})
  target_include_directories(${name}_driver PRIVATE ${TCU_GLS_TEST_DIR})
  target_compile_definitions(${name}_driver PRIVATE TCU_GLS=1
    TCU_TEST_DATA_DIR="${TCU_GLS_TEST_DIR}/../data")
  target_link_libraries(${name}_driver PRIVATE ${model} ${ARGN} Catch2::Catch2)
  add_executable(${name} $<TARGET_OBJECTS:${name}_driver>)
  target_link_libraries(${name} PRIVATE tcu_catch_main ${model} ${ARGN} Catch2::Catch2)
  add_test(NAME ${name} COMMAND ${name})
  set_tests_properties(${name} PROPERTIES LABELS gls)
endfunction()

# tcu_gls_plantable(<top> <prefix> <netlist> <gate> <out-var>): a copy of
# <netlist> with one gate switchable (gls_plant_fault.sh: <gate> xor or mux,
# optionally with its ordinal in the file: "xor;N"), its path in <out-var>.
function(tcu_gls_plantable netlist gate out_var)
  get_filename_component(base ${netlist} NAME_WLE)
  set(plantable ${TCU_GLS_DIR}/${base}.plantable.v)
  add_custom_command(OUTPUT ${plantable}
    COMMAND ${TCU_GLS_TEST_DIR}/gls_plant_fault.sh ${netlist} ${plantable} ${gate}
    DEPENDS ${netlist} ${TCU_GLS_TEST_DIR}/gls_plant_fault.sh
    VERBATIM)
  set(${out_var} ${plantable} PARENT_SCOPE)
endfunction()

# tcu_gls_planted(<test> <regex>): <test>_planted_fault, <test> run with its
# gate faulty (TCU_GLS_PLANT=1), which passes only if its output matches
# <regex> (the check that must fail). The variable TCU_GLS_PLANTED_ARGS, if
# set, holds the twin's command-line arguments (a Catch2 section filter).
function(tcu_gls_planted test regex)
  add_test(NAME ${test}_planted_fault COMMAND ${test} ${TCU_GLS_PLANTED_ARGS})
  set_tests_properties(${test}_planted_fault PROPERTIES LABELS gls ENVIRONMENT TCU_GLS_PLANT=1
    PASS_REGULAR_EXPRESSION "${regex}")
endfunction()

# ---- the units ---------------------------------------------------------------
# The planted faults: an XOR made an XNOR (the sparse mux's netlist has no
# XOR: a multiplexer's inputs swapped); the twin must fail on a value (not
# on valid_o, nor by crashing). The f16 dot's is its 1,121st XOR (the
# middle of its 2,241); its first XOR lies in logic the test's cases do not
# reach (made an XNOR, the test passes).
tcu_gls_netlist(tcu_int4_dot "" int4_netlist)
tcu_gls_plantable(${int4_netlist} xor int4_plantable)
tcu_gls_model(tcu_gls_int4_dot tcu_int4_dot Vtcu_int4_dot_gls ${int4_plantable})
tcu_gls_test(gls_int4_dot test_rtl_int4_dot.cpp tcu_gls_int4_dot tcu_vectors)
tcu_gls_planted(gls_int4_dot "REQUIRE\\( sum_of\\(m\\) == \\*want \\)")

tcu_gls_netlist(tcu_e2m1_dot "" e2m1_netlist)
tcu_gls_plantable(${e2m1_netlist} xor e2m1_plantable)
tcu_gls_model(tcu_gls_e2m1_dot tcu_e2m1_dot Vtcu_e2m1_dot_gls ${e2m1_plantable})
tcu_gls_test(gls_e2m1_dot test_rtl_e2m1_dot.cpp tcu_gls_e2m1_dot tcu_vectors)
tcu_gls_planted(gls_e2m1_dot "REQUIRE\\( m.d_o == (want->d|d.at\\(0, r, col\\)) \\)")

tcu_gls_netlist(tcu_sparse_mux "" sparse_netlist)
tcu_gls_plantable(${sparse_netlist} mux sparse_plantable)
tcu_gls_model(tcu_gls_sparse_mux tcu_sparse_mux Vtcu_sparse_mux_gls ${sparse_plantable})
tcu_gls_test(gls_sparse_mux test_rtl_sparse_mux.cpp tcu_gls_sparse_mux tcu_vectors)
tcu_gls_planted(gls_sparse_mux
  "REQUIRE\\( (int64_t\\(routed\\[i\\]\\) == |tcu::int4_dot|routed\\[i\\] == row.b|tcu::int4_accumulate)")

# The floating-point test takes the host's rounding mode around std::fma.
tcu_gls_netlist(tcu_f16_dot "" f16_netlist)
tcu_gls_plantable(${f16_netlist} "xor;1121" f16_plantable)
tcu_gls_model(tcu_gls_f16_dot tcu_f16_dot Vtcu_f16_dot_gls ${f16_plantable})
tcu_gls_test(gls_f16_dot test_f16_dot.cpp tcu_gls_f16_dot tcu_model)
target_compile_options(gls_f16_dot_driver PRIVATE -frounding-math -ffp-contract=off)
tcu_gls_planted(gls_f16_dot "REQUIRE\\( bench.mismatches\\(\\) == 0 \\)")

# ---- the second tier: units whose netlist takes minutes --------------------------
# Synthesis, Verilation and compilation of these netlists take several CPU
# minutes each, so their targets are left out of the default build and their
# tests are in the second tier (label "full", scripts/test.sh --full): a
# fixture test builds them (cmake --build, inside ctest), the unit's test and
# its planted-fault twin then run. Times (CPU seconds on the shared two-core
# machine) in docs/guide/formal.md, "Gate-level simulation".

# tcu_gls_full(<unit> <targets...>): the fixture gls_<unit>_build, labels.
function(tcu_gls_full unit)
  set_target_properties(${ARGN} PROPERTIES EXCLUDE_FROM_ALL TRUE)
  add_test(NAME gls_${unit}_build
           COMMAND ${CMAKE_COMMAND} --build ${PROJECT_BINARY_DIR} --target ${ARGN})
  set_tests_properties(gls_${unit}_build PROPERTIES LABELS "gls;full"
    FIXTURES_SETUP gls_${unit} RUN_SERIAL TRUE TIMEOUT 3600)
endfunction()

# f64 dot at its default FmaStages=2.
tcu_gls_netlist(tcu_f64_dot "" f64_netlist)
tcu_gls_plantable(${f64_netlist} xor f64_plantable)
tcu_gls_model(tcu_gls_f64_dot tcu_f64_dot Vtcu_f64_dot_gls ${f64_plantable})
tcu_gls_test(gls_f64_dot test_f64_dot.cpp tcu_gls_f64_dot tcu_model)
target_compile_options(gls_f64_dot_driver PRIVATE -frounding-math -ffp-contract=off)
tcu_gls_planted(gls_f64_dot "REQUIRE\\( bench.mismatches\\(\\) == 0 \\)")
tcu_gls_full(f64_dot gls_f64_dot gls_f64_dot_driver tcu_gls_f64_dot)
set_tests_properties(gls_f64_dot gls_f64_dot_planted_fault PROPERTIES LABELS "gls;full"
  FIXTURES_REQUIRED gls_f64_dot)

# The operand router at WordsPerCycle = DWordsPerCycle = 1 (the router of
# scripts/synth.sh's tcu_core row; GatherBypass at its default 1), the
# smallest router netlist: its operand and D buffers (15,616 + 8,192 bits,
# the datapath's ports) do not shrink with the widths, and at one word a
# cycle each way the gather is one AND-OR term a bit (80,733 cells). Its
# netlist aliases the 8,192-bit D buffer in two assignments of more than
# 40,000 tokens, which Verilator 5.006 refuses: written one bit an
# assignment first (tests/rtl/gls_split_assigns.py). Second tier: its
# synthesis, Verilation and compilation alone take minutes, and the test
# longer on its sample (tests/rtl/test_operand_router.cpp, gls_variants;
# figures in docs/guide/formal.md, "Gate-level simulation"; its CPU seconds
# in docs/data/costs.toml, figure gls-router-build and test gls_router).
tcu_gls_netlist(tcu_operand_router "WordsPerCycle=1 DWordsPerCycle=1" router_synth_netlist)
set(router_netlist ${TCU_GLS_DIR}/tcu_operand_router.w1.v)
add_custom_command(OUTPUT ${router_netlist}
  COMMAND ${TCU_GLS_TEST_DIR}/gls_split_assigns.py ${router_synth_netlist} ${router_netlist}
  DEPENDS ${router_synth_netlist} ${TCU_GLS_TEST_DIR}/gls_split_assigns.py
  VERBATIM)
tcu_gls_plantable(${router_netlist} xor router_plantable)
tcu_gls_model(tcu_gls_router tcu_operand_router Vtcu_operand_router_gls ${router_plantable})
tcu_gls_test(gls_router test_operand_router.cpp tcu_gls_router tcu_datapath_ports)
# The twin's fault (the netlist's first XOR) is in the scatter's word
# counter: it runs the scatter section only (the gather and timing sections
# pass on it and would cost most of the sample's time: figure
# gls-router-gather-timing).
set(TCU_GLS_PLANTED_ARGS -c "W1 netlist: scatter, every variant, random and full rate")
tcu_gls_planted(gls_router
  "REQUIRE\\( (port\\[w\\] == want\\[w\\]|data == it->second|it != e.words.end\\(\\)|e.seen.size\\(\\) == e.words.size\\(\\)) \\)")
unset(TCU_GLS_PLANTED_ARGS)
tcu_gls_full(router gls_router gls_router_driver tcu_gls_router)
set_tests_properties(gls_router gls_router_planted_fault PROPERTIES LABELS "gls;full"
  FIXTURES_REQUIRED gls_router TIMEOUT 3600)
