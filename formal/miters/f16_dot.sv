// The f16 dot pair's combinational forms (kind aig): tcu_f16_dot_synth at
// FmaStages 0 (its chain of tcu_fma instances, no registers) against
// tcu_f16_dot_fast at FmaStages 0 (its chain in one block). d_o is compared
// where valid_o is high (the fast form computes the dot only then); valid_o
// everywhere. Plant = 1 flips bit 0 of the fast form's D where a_i[0] and
// b_i[0] are both set.
module eq_miter #(parameter bit Plant = 1'b0) (
  input  logic        valid_i, c_f16_i, d_f16_i,
  input  logic [63:0] a_i, b_i,
  input  logic [31:0] c_i,
  output logic        trigger
);
  logic        gv, fv;
  logic [31:0] gd, fd, fd_seen;
  tcu_f16_dot_synth #(.FmaStages(0)) u_gold (.clk_i(1'b0), .rst_ni(1'b1), .en_i(1'b1), .valid_i,
    .a_i, .b_i, .c_i, .c_f16_i, .d_f16_i, .valid_o(gv), .d_o(gd));
  tcu_f16_dot_fast #(.FmaStages(0)) u_gate (.clk_i(1'b0), .rst_ni(1'b1), .en_i(1'b1), .valid_i,
    .a_i, .b_i, .c_i, .c_f16_i, .d_f16_i, .valid_o(fv), .d_o(fd));
  assign fd_seen = Plant ? fd ^ 32'(a_i[0] & b_i[0]) : fd;
  assign trigger = gv != fv || (gv && gd != fd_seen);
endmodule
