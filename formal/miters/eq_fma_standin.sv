// A stand-in for tcu_fma (same parameters and ports) in the f16 dot's
// pipeline check (formal/miters/f16_dot_synth_pipe.sv): result_o is a cheap
// function of a_i, b_i, c_i and rnd_i in place of the fused multiply-add,
// computed at once and carried with aux_i through Stages registers
// (tcu_pipe_reg): what the check fma_pipe proves tcu_fma to be, the
// arithmetic left out. The function (bit i: a_i[i] ? b_i[i-7] : c_i[i-13],
// rotated, inverted by rnd_i's and CanonicalNan's bits) is not symmetric in
// its operands and each operand bit reaches the result, so a level that
// reads a wrong operand, or an operand of another cycle, shows; it has no
// XOR chains or carries, which k-induction's SAT calls find hard.
module tcu_fma #(
  parameter tcu_pkg::fp_format_e Format       = tcu_pkg::FP64,
  parameter int unsigned         Stages       = 2,
  parameter bit                  CanonicalNan = 1'b0,
  parameter int unsigned         AuxWidth     = 1,
  parameter int unsigned         InFo4        = 0,
  parameter int unsigned         OutFo4       = 0,
  localparam int unsigned        Width        = tcu_pkg::fp_width(Format)
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  input  logic                en_i,
  input  logic                valid_i,
  input  logic [Width-1:0]    a_i,
  input  logic [Width-1:0]    b_i,
  input  logic [Width-1:0]    c_i,
  input  tcu_pkg::roundmode_e rnd_i,
  input  logic [AuxWidth-1:0] aux_i,
  output logic                valid_o,
  output logic [Width-1:0]    result_o,
  output logic [AuxWidth-1:0] aux_o
);
  logic [Width-1:0] f;
  logic [Width-1:0] b_rot, c_rot;
  assign b_rot = {b_i[Width-8:0], b_i[Width-1 -: 7]};
  assign c_rot = {c_i[Width-14:0], c_i[Width-1 -: 13]};
  assign f = ((a_i & b_rot) | (~a_i & c_rot)) ^ Width'(rnd_i) ^ Width'(CanonicalNan);
  tcu_pipe_reg #(.Width(Width + AuxWidth), .Depth(Stages)) u_pipe (.clk_i, .rst_ni, .en_i,
    .valid_i, .data_i({f, aux_i}), .valid_o, .data_o({result_o, aux_o}));
endmodule
