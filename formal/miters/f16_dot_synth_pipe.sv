// The f16 dot's synthesis form, its pipeline (kind seq): tcu_f16_dot_synth
// at FmaStages against its combinational form (FmaStages 0) followed by
// 5 * FmaStages registers (tcu_pipe_reg), with each tcu_fma replaced by the
// stand-in of eq_fma_standin.sv (a cheap function, then Stages registers:
// what the check fma_pipe proves of tcu_fma). What is proven: the chain's
// levels, their aux fields and the narrowing read the right operands of the
// right cycle, and the valid bits move them as the registers after the
// whole chain would. From reset (low in the first cycle
// only); data registers start from any value. en_i is high: en_i low holds
// every register of both sides alike (a stall would make the latency in
// cycles unbounded, beyond k-induction's frames). Plant = 1 flips bit 0 of the
// staged form's D where its bit 1 is set.
module eq_miter #(
  parameter int unsigned FmaStages = 2,
  parameter bit          Plant     = 1'b0
) (
  input  logic        clk_i, valid_i, c_f16_i, d_f16_i,
  input  logic [63:0] a_i, b_i,
  input  logic [31:0] c_i,
  output logic        trigger
);
  logic started = 1'b0;
  always_ff @(posedge clk_i) started <= 1'b1;
  logic        sv, cv, pv;
  logic [31:0] sd, cd, pd, sd_seen;
  tcu_f16_dot_synth #(.FmaStages(FmaStages)) u_staged (.clk_i, .rst_ni(started), .en_i(1'b1),
    .valid_i, .a_i, .b_i, .c_i, .c_f16_i, .d_f16_i, .valid_o(sv), .d_o(sd));
  tcu_f16_dot_synth #(.FmaStages(0)) u_comb (.clk_i, .rst_ni(started), .en_i(1'b1), .valid_i,
    .a_i, .b_i, .c_i, .c_f16_i, .d_f16_i, .valid_o(cv), .d_o(cd));
  tcu_pipe_reg #(.Width(32), .Depth(5 * FmaStages)) u_pipe (.clk_i, .rst_ni(started), .en_i(1'b1),
    .valid_i(cv), .data_i(cd), .valid_o(pv), .data_o(pd));
  assign sd_seen = Plant ? sd ^ 32'(sd[1]) : sd;
  // d_o is meaningful with valid_o only.
  assign trigger = sv != pv || (sv && sd_seen != pd);
endmodule
