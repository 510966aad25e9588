// Not a pair but a lemma of the gather pair (kind comb): tcu_frag_layout at
// a descriptor and at its layout class's descriptor (tcu_pkg::frag_class_desc
// of frag_layout_class), for A, B and C, any word at the descriptor and
// word 0 at the class's (the gather table's entries); trigger when hit
// differs, or a half-word position where both hit. Plant = 1 gives each
// instance its lane XOR its descriptor's sparsity bit: A is then placed by
// the sparsity bit.
module eq_miter #(parameter bit Plant = 1'b0) (
  input  logic [tcu_pkg::FRAG_DESC_W-1:0] desc_i,
  input  logic [2:0]                      op_i,
  input  logic [4:0]                      lane_i,
  input  logic [2:0]                      reg_i,
  input  logic [31:0]                     word_i,
  output logic                            trigger
);
  logic [tcu_pkg::FRAG_DESC_W-1:0] class_desc;
  assign class_desc = tcu_pkg::frag_class_desc(
      tcu_pkg::frag_layout_class(desc_i[tcu_pkg::FRAG_DESC_W-1 -: 7]));
  logic       hit_d, hit_c, unused_split_d, unused_split_c;
  logic [8:0] lo_d, hi_d, lo_c, hi_c;
  logic [31:0] unused_word_d, unused_word_c;
  logic [4:0] lane_d, lane_c;
  assign lane_d = Plant ? lane_i ^ 5'(desc_i[7]) : lane_i;
  assign lane_c = Plant ? lane_i ^ 5'(class_desc[7]) : lane_i;
  eq_frag_layout u_desc (.desc_i, .op_i, .lane_i(lane_d), .reg_i, .word_i, .hit_o(hit_d),
    .lo_o(lo_d), .hi_o(hi_d), .split_o(unused_split_d), .word_o(unused_word_d));
  eq_frag_layout u_class (.desc_i(class_desc), .op_i, .lane_i(lane_c), .reg_i, .word_i(32'd0),
    .hit_o(hit_c), .lo_o(lo_c), .hi_o(hi_c), .split_o(unused_split_c), .word_o(unused_word_c));
  assign trigger = op_i <= tcu_pkg::OP_C &&
                   (hit_d != hit_c || (hit_d && (lo_d != lo_c || hi_d != hi_c)));
endmodule
