// Not a pair but a lemma of both gather forms' writes (kind comb):
// tcu_frag_layout once; trigger when a word that hits has not its
// operand's shape (eq_shape_pkg). Plant = 1 flips the word a B placement
// reads: B's word then differs from the data.
module eq_miter #(parameter bit Plant = 1'b0) (
  input  logic [tcu_pkg::FRAG_DESC_W-1:0] desc_i,
  input  logic [2:0]                      op_i,
  input  logic [4:0]                      lane_i,
  input  logic [2:0]                      reg_i,
  input  logic [31:0]                     word_i,
  output logic                            trigger
);
  logic        hit, split;
  logic [8:0]  lo, hi;
  logic [31:0] word;
  eq_frag_layout u_s (.desc_i, .op_i, .lane_i, .reg_i,
    .word_i(Plant ? word_i ^ 32'(op_i == tcu_pkg::OP_B) : word_i), .hit_o(hit), .lo_o(lo),
    .hi_o(hi), .split_o(split), .word_o(word));
  assign trigger = hit && !eq_shape_pkg::shape_ok(op_i, lo, hi, split, word, word_i);
endmodule
