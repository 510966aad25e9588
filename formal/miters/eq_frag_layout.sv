// tcu_frag_layout on a 16-bit descriptor (tcu_pkg::FRAG_DESC_W, frag_place's
// field order), for the layout lemmas' miters.
module eq_frag_layout (
  input  logic [tcu_pkg::FRAG_DESC_W-1:0] desc_i,
  input  logic [2:0]                      op_i,
  input  logic [4:0]                      lane_i,
  input  logic [2:0]                      reg_i,
  input  logic [31:0]                     word_i,
  output logic                            hit_o,
  output logic [8:0]                      lo_o,
  output logic [8:0]                      hi_o,
  output logic                            split_o,
  output logic [31:0]                     word_o
);
  tcu_frag_layout u_layout (.family_i(desc_i[15:13]), .k32_i(desc_i[12]),
    .a_row_i(desc_i[11]), .b_row_i(desc_i[10]), .acc_f16_i(desc_i[9]),
    .scale_4x_i(desc_i[8]), .sparsity_i(desc_i[7]), .byte_id_a_i(desc_i[6:5]),
    .thread_id_a_i(desc_i[4]), .byte_id_b_i(desc_i[3:2]), .thread_id_b_i(desc_i[1:0]),
    .op_i, .lane_i, .reg_i, .word_i, .hit_o, .lo_pos_o(lo_o), .hi_pos_o(hi_o), .split_o,
    .word_o);
endmodule
