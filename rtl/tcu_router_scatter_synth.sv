// A beat of tcu_operand_router's scatter, the synthesis implementation
// (what Yosys maps): slot s carries word base_i + s of the instruction's
// register-major D words (lane idx % 32, register idx / 32), valid when the
// layout formulas (tcu_frag_layout, OP_D) place it and it is below
// d_words_i; its data is picked from D by a tcu_word_mux tree. Combinational;
// same ports as tcu_router_scatter_fast, proven equal to it by
// tcu-formal (data compared where the word is valid).
module tcu_router_scatter_synth #(
  parameter int unsigned DWordsPerCycle = tcu_pkg::DWordsPerCycle
) (
  input  logic                                         busy_i,    // a D is held
  input  logic [tcu_pkg::D_WORD_IDX_BITS-1:0]          base_i,    // the beat's first word
  input  logic [tcu_pkg::D_WORD_IDX_BITS-1:0]          d_words_i, // the instruction's D words
  input  logic [tcu_pkg::FAMILY_BITS-1:0]              family_i,  // D's descriptor
  input  logic                                         k32_i,
  input  logic                                         f16_i,
  input  logic [tcu_pkg::D_BITS-1:0]                   d_i,       // D as the datapath's out_d_o
  output logic [DWordsPerCycle-1:0]                    wb_word_valid_o,
  output logic [tcu_pkg::LANE_BITS*DWordsPerCycle-1:0] wb_word_lane_o,
  output logic [tcu_pkg::REG_BITS*DWordsPerCycle-1:0]  wb_word_reg_o,
  output logic [tcu_pkg::WORD_BITS*DWordsPerCycle-1:0] wb_word_data_o
);

  // Each slot: the layout formulas and a word multiplexer over D.
  localparam int unsigned D_WORDS = 8192 / 32;  // out_d_o
  for (genvar s = 0; s < DWordsPerCycle; s++) begin : g_wb
    logic [9:0]  idx;
    logic        hit, unused_lo_half, unused_split;
    logic [8:0]  lo_pos, unused_hi_pos;
    logic [31:0] unused_word;
    assign idx            = base_i + 10'(s);
    assign unused_lo_half = lo_pos[0];  // D words are whole words
    tcu_frag_layout u_layout (
      .family_i     (family_i),
      .k32_i        (k32_i),
      .a_row_i      (1'b0),
      .b_row_i      (1'b0),
      .acc_f16_i    (f16_i),
      .scale_4x_i   (1'b0),
      .sparsity_i   (1'b0),
      .byte_id_a_i  (2'd0),
      .thread_id_a_i(1'b0),
      .byte_id_b_i  (2'd0),
      .thread_id_b_i(2'd0),
      .op_i         (tcu_pkg::OP_D),
      .lane_i       (idx[4:0]),
      .reg_i        (idx[7:5]),
      .word_i       (32'd0),
      .hit_o        (hit),
      .lo_pos_o     (lo_pos),
      .hi_pos_o     (unused_hi_pos),
      .split_o      (unused_split),
      .word_o       (unused_word)
    );
    tcu_word_mux #(
      .Width    (32),
      .Words    (D_WORDS),
      .SynthImpl(1'b1)
    ) u_mux (
      .data_i(d_i),
      .sel_i (lo_pos[8:1]),
      .data_o(wb_word_data_o[32*s +: 32])
    );
    assign wb_word_valid_o[s]         = busy_i && hit && idx < d_words_i;
    assign wb_word_lane_o[5*s +: 5]   = idx[4:0];
    assign wb_word_reg_o[3*s +: 3]    = idx[7:5];
  end

endmodule
