// tcu_f16_dot's fast simulation implementation: tcu_f16_fast_chain (the
// whole chain of tcu_f16_dot_synth, the six FP32 FMAs and an f16 D
// narrowed, computed at once in the cycle that takes the input, then
// delivered 5 * FmaStages enabled cycles later) behind
// tcu_f16_fast_operands (A's, B's and C's elements widened to f32 and
// classified as tcu_fma classifies an operand, combinationally). Same ports
// and parameters as tcu_f16_dot. The f16 engine's fast form instantiates
// the chain itself (tcu_f16_fast_unit), behind operand records it makes
// once an instruction (tcu_f16_engine).
//
// Proven equal to tcu_f16_dot_synth (tcu-formal, formal/checks.toml): the
// two chains at FmaStages 0 (f16_dot), this form's registers
// (f16_dot_fast_pipe), the synthesis form's (f16_dot_synth_pipe, on
// tcu_fma's registers: fma_pipe).
// Simulation flow only: scripts/synth.sh and tcu_tools.phys do not read this file.
module tcu_f16_dot_fast #(
  parameter int unsigned  FmaStages = tcu_pkg::FmaStages,
  localparam int unsigned OpW       = 64,  // tcu_f16_fast_operands's record
  localparam int unsigned DotK      = 4,  // k of m8n8k4
  localparam int unsigned HalfWidth = tcu_pkg::fp_width(tcu_pkg::FP16),
  localparam int unsigned Width     = tcu_pkg::fp_width(tcu_pkg::FP32)
) (
  input  logic                      clk_i,
  input  logic                      rst_ni,
  input  logic                      en_i,
  input  logic                      valid_i,
  input  logic [DotK*HalfWidth-1:0] a_i,
  input  logic [DotK*HalfWidth-1:0] b_i,
  input  logic [Width-1:0]          c_i,
  input  logic                      c_f16_i,
  input  logic                      d_f16_i,
  output logic                      valid_o,
  output logic [Width-1:0]          d_o
);

  logic [DotK*OpW-1:0] a_op, b_op;
  logic [OpW-1:0]      c_op;

  tcu_f16_fast_operands #(.Count(DotK), .InW(HalfWidth)) u_a_op (
    .clk_i, .load_i(1'b0), .f16_i(1'b1), .word_i(a_i), .op_o(a_op));
  tcu_f16_fast_operands #(.Count(DotK), .InW(HalfWidth)) u_b_op (
    .clk_i, .load_i(1'b0), .f16_i(1'b1), .word_i(b_i), .op_o(b_op));
  tcu_f16_fast_operands #(.Count(1), .InW(Width)) u_c_op (
    .clk_i, .load_i(1'b0), .f16_i(c_f16_i), .word_i(c_i), .op_o(c_op));

  tcu_f16_fast_chain #(.FmaStages(FmaStages)) u_chain (
    .clk_i,
    .rst_ni,
    .en_i,
    .valid_i,
    .d_f16_i,
    .a_op_i (a_op),
    .b_op_i (b_op),
    .c_op_i (c_op),
    .valid_o,
    .d_o
  );

endmodule
