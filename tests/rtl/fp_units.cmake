# Unit tests of the floating-point RTL units (rtl/tcu_fma.sv and its two forms, tcu_f16_dot.sv,
# tcu_f64_dot.sv): Verilator C++ models checked bit-exact against the golden
# model (tcu_model). Each unit is verilated at two parameter settings, each
# model in a static library of its own, linked into that unit's test.
# Included from tests/CMakeLists.txt.
include(${PROJECT_SOURCE_DIR}/cmake/TcuVerilate.cmake)

set(TCU_FP_RTL_DIR ${CMAKE_CURRENT_LIST_DIR}/../../rtl)
set(TCU_FP_TEST_DIR ${CMAKE_CURRENT_LIST_DIR})

# tcu_fp_model(<prefix> <top> <sources> <-G args...>): a static library
# holding the model class <prefix>.
function(tcu_fp_model prefix top sources)
  tcu_verilate(${prefix} TEST_MODEL TOP ${top} PREFIX ${prefix} SOURCES ${sources}
    ARGS ${TCU_FP_RTL_DIR}/lint.vlt ${ARGN})
endfunction()

set(_fma_src ${TCU_FP_RTL_DIR}/tcu_pkg.sv ${TCU_FP_RTL_DIR}/tcu_fma.sv
    ${TCU_FP_RTL_DIR}/tcu_fma_three.sv ${TCU_FP_RTL_DIR}/tcu_fma_steps.sv)

# tcu_fma: FP64 with the DMMA NaN rules, combinational (the three-stage
# form) and at 22 registers (the step form: a register after every step,
# tcu_pkg::fma_cuts, and the rest at the output); FP32 with canonical NaNs,
# three registers (the three-stage form) and nine (the step form, with the
# f16 dot's InFo4: a register at the inputs, tcu_pkg::fma_in_cut). Format is
# an enum parameter; Verilator 5.006 takes
# -G values only as numbers, hence -Wno-ENUMVALUE (FP32 = 0).
tcu_fp_model(Vtcu_fma_f64_s0 tcu_fma "${_fma_src}"
  -GStages=0 -GCanonicalNan=1'b0 -GAuxWidth=16)
tcu_fp_model(Vtcu_fma_f64_s22 tcu_fma "${_fma_src}"
  -GStages=22 -GCanonicalNan=1'b0 -GAuxWidth=16)
tcu_fp_model(Vtcu_fma_f32_s3 tcu_fma "${_fma_src}"
  -Wno-ENUMVALUE -GFormat=3'd0 -GStages=3 -GCanonicalNan=1'b1 -GAuxWidth=16)
tcu_fp_model(Vtcu_fma_f32_s9 tcu_fma "${_fma_src}"
  -Wno-ENUMVALUE -GFormat=3'd0 -GStages=9 -GCanonicalNan=1'b1 -GAuxWidth=16 -GInFo4=20)

# tcu_f16_dot and tcu_f64_dot at two FMA depths each, and at a deep one
# (most step boundaries registered); tcu_f16_dot's fast implementation (the
# default, SynthImpl = 0) at all three, its synthesis implementation at 2 and 9
# and at 19 (the deep configuration's, the setting the data file times).
set(_f16_src ${_fma_src} ${TCU_FP_RTL_DIR}/tcu_f16_dot.sv
    ${TCU_FP_RTL_DIR}/tcu_f16_dot_synth.sv ${TCU_FP_RTL_DIR}/tcu_f16_dot_fast.sv
    ${TCU_FP_RTL_DIR}/tcu_f16_fast_operands.sv ${TCU_FP_RTL_DIR}/tcu_f16_fast_chain.sv)
tcu_fp_model(Vtcu_f16_dot_s0 tcu_f16_dot "${_f16_src}" -GFmaStages=0)
tcu_fp_model(Vtcu_f16_dot_s2 tcu_f16_dot "${_f16_src}" -GFmaStages=2)
tcu_fp_model(Vtcu_f16_dot_s9 tcu_f16_dot "${_f16_src}" -GFmaStages=9)
tcu_fp_model(Vtcu_f16_dot_synth_s2 tcu_f16_dot "${_f16_src}" -GFmaStages=2 -GSynthImpl=1'b1)
tcu_fp_model(Vtcu_f16_dot_synth_s9 tcu_f16_dot "${_f16_src}" -GFmaStages=9 -GSynthImpl=1'b1)
tcu_fp_model(Vtcu_f16_dot_synth_s19 tcu_f16_dot "${_f16_src}" -GFmaStages=19 -GSynthImpl=1'b1)
tcu_fp_model(Vtcu_f64_dot_s1 tcu_f64_dot "${_fma_src};${TCU_FP_RTL_DIR}/tcu_f64_dot.sv"
  -GFmaStages=1)
tcu_fp_model(Vtcu_f64_dot_s3 tcu_f64_dot "${_fma_src};${TCU_FP_RTL_DIR}/tcu_f64_dot.sv"
  -GFmaStages=3)
tcu_fp_model(Vtcu_f64_dot_s12 tcu_f64_dot "${_fma_src};${TCU_FP_RTL_DIR}/tcu_f64_dot.sv"
  -GFmaStages=12)

# tcu_pkg's FMA register rule at run-time arguments (test_fma_rule.cpp).
tcu_fp_model(Vfma_rule_probe fma_rule_probe
  "${TCU_FP_RTL_DIR}/tcu_pkg.sv;${TCU_FP_TEST_DIR}/fma_rule_probe.sv")

# tcu_fp_test(<name> <source> <models...>)
function(tcu_fp_test name source)
  add_executable(${name} ${TCU_FP_TEST_DIR}/${source})
  target_include_directories(${name} PRIVATE ${TCU_FP_TEST_DIR})
  target_link_libraries(${name} PRIVATE tcu_catch_main ${ARGN} tcu_model Catch2::Catch2)
  # The references set the host rounding mode around std::fma.
  # (-Wno-unused-parameter: verilated_types.h trips it.)
  target_compile_options(${name} PRIVATE -Wall -Wextra -Wno-unused-parameter -frounding-math
                                         -ffp-contract=off)
  add_test(NAME ${name} COMMAND ${name})
endfunction()

tcu_fp_test(rtl_test_fma test_fma.cpp Vtcu_fma_f64_s0 Vtcu_fma_f64_s22 Vtcu_fma_f32_s3
            Vtcu_fma_f32_s9)
tcu_fp_test(rtl_test_f16_dot test_f16_dot.cpp Vtcu_f16_dot_s0 Vtcu_f16_dot_s2 Vtcu_f16_dot_s9
            Vtcu_f16_dot_synth_s2 Vtcu_f16_dot_synth_s9 Vtcu_f16_dot_synth_s19)
tcu_fp_test(rtl_test_f64_dot test_f64_dot.cpp Vtcu_f64_dot_s1 Vtcu_f64_dot_s3
            Vtcu_f64_dot_s12)
tcu_fp_test(rtl_test_fma_rule test_fma_rule.cpp Vfma_rule_probe)
