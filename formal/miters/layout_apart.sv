// Not a pair but a lemma of the gather pair (kind comb): tcu_frag_layout
// twice, on one descriptor and operand and two (lane, register) tags;
// trigger when both tags are distinct, both hit, and their half-word
// positions meet (a whole word's two halves are lo and hi too, so this
// covers C, the metadata and the scales). Plant = 1 gives both instances
// their lane with bit 0 cleared: lanes 2k and 2k + 1 then meet.
module eq_miter #(parameter bit Plant = 1'b0) (
  input  logic [tcu_pkg::FRAG_DESC_W-1:0] desc_i,
  input  logic [2:0]                      op_i,
  input  logic [4:0]                      lane_s_i, lane_t_i,
  input  logic [2:0]                      reg_s_i, reg_t_i,
  output logic                            trigger
);
  logic       hit_s, hit_t, unused_split_s, unused_split_t;
  logic [8:0] lo_s, hi_s, lo_t, hi_t;
  logic [31:0] unused_word_s, unused_word_t;
  logic [4:0] lane_s, lane_t;
  assign lane_s = Plant ? {lane_s_i[4:1], 1'b0} : lane_s_i;
  assign lane_t = Plant ? {lane_t_i[4:1], 1'b0} : lane_t_i;
  eq_frag_layout u_s (.desc_i, .op_i, .lane_i(lane_s), .reg_i(reg_s_i), .word_i(32'd0),
    .hit_o(hit_s), .lo_o(lo_s), .hi_o(hi_s), .split_o(unused_split_s), .word_o(unused_word_s));
  eq_frag_layout u_t (.desc_i, .op_i, .lane_i(lane_t), .reg_i(reg_t_i), .word_i(32'd0),
    .hit_o(hit_t), .lo_o(lo_t), .hi_o(hi_t), .split_o(unused_split_t), .word_o(unused_word_t));
  assign trigger = hit_s && hit_t && {lane_s_i, reg_s_i} != {lane_t_i, reg_t_i} &&
                   (lo_s == lo_t || lo_s == hi_t || hi_s == lo_t || hi_s == hi_t);
endmodule
