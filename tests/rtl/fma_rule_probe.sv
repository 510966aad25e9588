// tcu_pkg's FMA register rule (fma_cuts, fma_in_cut) and its step weights
// (fma_step_fo4) evaluated at run-time arguments, for
// tests/rtl/test_fma_rule.cpp: the same constant functions tcu_fma_steps
// elaborates, called on ports.
module fma_rule_probe (
  input  logic        fp64_i,
  input  logic [7:0]  stages_i,
  input  logic [7:0]  in_fo4_i,
  input  logic [7:0]  out_fo4_i,
  input  logic [4:0]  step_i,
  output logic [31:0] cuts_o,
  output logic        in_cut_o,
  output logic [31:0] step_fo4_o
);
  assign cuts_o     = tcu_pkg::fma_cuts(fp64_i, 32'(stages_i), 32'(in_fo4_i), 32'(out_fo4_i));
  assign in_cut_o   = tcu_pkg::fma_in_cut(fp64_i, 32'(stages_i), 32'(in_fo4_i), 32'(out_fo4_i));
  assign step_fo4_o = tcu_pkg::fma_step_fo4(fp64_i, 32'(step_i));
endmodule
