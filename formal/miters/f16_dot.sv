// The f16 dot pair's combinational forms (kind cec): tcu_f16_dot_synth at
// FmaStages 0 (its chain of tcu_fma instances, no registers) against
// tcu_f16_dot_fast at FmaStages 0 (its chain in one block). d_o is compared
// where valid_o is high (the fast form computes the dot only then); valid_o
// everywhere.
//
// The proof is split on the two control inputs: valid_i is the parameter
// Valid and d_f16_i the parameter DF16, every other input free; the four
// sets together cover every input. With both constant, each form's level
// multiplexers (the operands a level reads for an f16 or an f32 D, the
// valid_i gate of the fast form's block) fold away and the two chains are
// the same logic level for level: Yosys's opt merges each level once the
// levels before it are merged, and ABC's &cec proves what is left.
//
// Plant = 1 flips bit 0 of the fast form's D (Valid 1) or its valid_o
// (Valid 0) where a_i[0] and b_i[0] are both set.
module eq_miter #(
  parameter bit Valid = 1'b1,
  parameter bit DF16  = 1'b1,
  parameter bit Plant = 1'b0
) (
  input  logic        c_f16_i,
  input  logic [63:0] a_i, b_i,
  input  logic [31:0] c_i,
  output logic        trigger
);
  logic        gv, fv, fv_seen;
  logic [31:0] gd, fd, fd_seen;
  tcu_f16_dot_synth #(.FmaStages(0)) u_gold (.clk_i(1'b0), .rst_ni(1'b1), .en_i(1'b1),
    .valid_i(Valid), .a_i, .b_i, .c_i, .c_f16_i, .d_f16_i(DF16), .valid_o(gv), .d_o(gd));
  tcu_f16_dot_fast #(.FmaStages(0)) u_gate (.clk_i(1'b0), .rst_ni(1'b1), .en_i(1'b1),
    .valid_i(Valid), .a_i, .b_i, .c_i, .c_f16_i, .d_f16_i(DF16), .valid_o(fv), .d_o(fd));
  assign fv_seen = (Plant && !Valid) ? fv ^ (a_i[0] & b_i[0]) : fv;
  assign fd_seen = (Plant && Valid) ? fd ^ 32'(a_i[0] & b_i[0]) : fd;
  assign trigger = gv != fv_seen || (gv && gd != fd_seen);
endmodule
