// The f16 engine's fast unit (SynthImpl = 0): tcu_f16_fast_chain from the
// operand records the engine makes once an instruction (a_op_i, b_op_i,
// c_op_i: tcu_f16_fast_operands of a_i, b_i, c_i and c_f16_i), with
// tcu_f16_dot's ports besides: a_i, b_i, c_i and c_f16_i (the unit's f16
// row, column and C word) go unread here and are ports for the waveform and
// tcu_tools.phys.workload, which read a unit's operands at its instance
// (g_unit[u].u_dot, in either form). The simulator inlines this module (its
// ports are then the engine's signals, traced) and keeps the chain a class
// of its own, untraced.
// Simulation flow only: scripts/synth.sh and tcu_tools.phys do not read this file.
module tcu_f16_fast_unit #(
  parameter int unsigned  FmaStages = tcu_pkg::FmaStages,
  localparam int unsigned DotK      = 4,  // k of m8n8k4
  localparam int unsigned OpW       = 64,  // tcu_f16_fast_operands's record
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
  input  logic [DotK*OpW-1:0]       a_op_i,
  input  logic [DotK*OpW-1:0]       b_op_i,
  input  logic [OpW-1:0]            c_op_i,
  output logic                      valid_o,
  output logic [Width-1:0]          d_o
);

  tcu_f16_fast_chain #(.FmaStages(FmaStages)) u_chain (
    .clk_i,
    .rst_ni,
    .en_i,
    .valid_i,
    .d_f16_i,
    .a_op_i,
    .b_op_i,
    .c_op_i,
    .valid_o,
    .d_o
  );

  logic unused_operands;
  assign unused_operands = ^{a_i, b_i, c_i, c_f16_i};

endmodule
