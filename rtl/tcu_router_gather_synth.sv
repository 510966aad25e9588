// tcu_operand_router's gather buffer, the synthesis implementation (what
// Yosys maps): each slot's word through the layout formulas
// (tcu_frag_layout), and per buffer position an AND-OR network over the
// slots (a balanced OR tree) that writes it. The buffer is cleared by a
// start (take_start_i), written by each beat (beat_i); with show_next_i
// (GatherBypass: the last beat) dp_*_o show the buffer with this beat's
// words written, combinationally, else the buffer. Same ports as
// tcu_router_gather_fast; proven equal to it by tcu-formal.
module tcu_router_gather_synth #(
  parameter int unsigned WordsPerCycle = tcu_pkg::WordsPerCycle,
  parameter bit          GatherBypass  = tcu_pkg::GatherBypass
) (
  input  logic                                           clk_i,
  input  logic                                           take_start_i, // clear the buffer first
  input  logic                                           beat_i,       // place this cycle's words
  input  logic                                           show_next_i,  // the bypassed last beat
  input  logic [tcu_pkg::FRAG_DESC_W-1:0]                desc_i,       // frag_place's descriptor
  input  logic [WordsPerCycle-1:0]                       in_word_valid_i,
  input  logic [tcu_pkg::OPERAND_BITS*WordsPerCycle-1:0] in_word_op_i,
  input  logic [tcu_pkg::LANE_BITS*WordsPerCycle-1:0]    in_word_lane_i,
  input  logic [tcu_pkg::REG_BITS*WordsPerCycle-1:0]     in_word_reg_i,
  input  logic [tcu_pkg::WORD_BITS*WordsPerCycle-1:0]    in_word_data_i,
  output logic [tcu_pkg::A_BITS-1:0]                     dp_a_o,
  output logic [tcu_pkg::B_BITS-1:0]                     dp_b_o,
  output logic [tcu_pkg::C_BITS-1:0]                     dp_c_o,
  output logic [tcu_pkg::META_BITS-1:0]                  dp_meta_o,
  output logic [tcu_pkg::SCALE_A_BITS-1:0]               dp_scale_a_o,
  output logic [tcu_pkg::SCALE_B_BITS-1:0]               dp_scale_b_o
);

  // The waveform shows the ports (the buffer, dp_*_o) and no internal signal:
  // the per-position selects and values are most of a trace of this router.
  /* verilator tracing_off */

  // The descriptor's fields (tcu_pkg::frag_place's order).
  logic [2:0] cur_family;
  logic       cur_k32, cur_a_row, cur_b_row, cur_c_f16, cur_scale_4x, cur_sparsity;
  logic [1:0] cur_byte_id_a, cur_byte_id_b, cur_thread_id_b;
  logic       cur_thread_id_a;
  assign {cur_family, cur_k32, cur_a_row, cur_b_row, cur_c_f16, cur_scale_4x, cur_sparsity,
          cur_byte_id_a, cur_thread_id_a, cur_byte_id_b, cur_thread_id_b} = desc_i;

  // The operand buffer.
  logic [4095:0] a_q;
  logic [2047:0] b_q;
  logic [8191:0] c_q;
  logic [511:0]  meta_q, sa_q;
  logic [255:0]  sb_q;

  // Each slot's word through the layout formulas.
  logic [2:0]  slot_op     [WordsPerCycle];
  logic        slot_hit    [WordsPerCycle];
  logic [8:0]  slot_lo_pos [WordsPerCycle];
  logic [8:0]  slot_hi_pos [WordsPerCycle];
  logic [15:0] slot_lo     [WordsPerCycle];
  logic [15:0] slot_hi     [WordsPerCycle];
  logic [WordsPerCycle-1:0] slot_split, wr_a, wr_b, wr_c, wr_meta, wr_sa, wr_sb;

  for (genvar s = 0; s < WordsPerCycle; s++) begin : g_slot
    logic        wr;
    logic [31:0] placed;
    assign slot_op[s] = in_word_op_i[3*s +: 3];
    tcu_frag_layout u_layout (
      .family_i     (cur_family),
      .k32_i        (cur_k32),
      .a_row_i      (cur_a_row),
      .b_row_i      (cur_b_row),
      .acc_f16_i    (cur_c_f16),
      .scale_4x_i   (cur_scale_4x),
      .sparsity_i   (cur_sparsity),
      .byte_id_a_i  (cur_byte_id_a),
      .thread_id_a_i(cur_thread_id_a),
      .byte_id_b_i  (cur_byte_id_b),
      .thread_id_b_i(cur_thread_id_b),
      .op_i         (slot_op[s]),
      .lane_i       (in_word_lane_i[5*s +: 5]),
      .reg_i        (in_word_reg_i[3*s +: 3]),
      .word_i       (in_word_data_i[32*s +: 32]),
      .hit_o        (slot_hit[s]),
      .lo_pos_o     (slot_lo_pos[s]),
      .hi_pos_o     (slot_hi_pos[s]),
      .split_o      (slot_split[s]),
      .word_o       (placed)
    );
    assign slot_lo[s]  = placed[15:0];
    assign slot_hi[s]  = placed[31:16];
    assign wr          = beat_i && in_word_valid_i[s] && slot_hit[s];
    assign wr_a[s]     = wr && slot_op[s] == tcu_pkg::OP_A;
    assign wr_b[s]     = wr && slot_op[s] == tcu_pkg::OP_B;
    assign wr_c[s]     = wr && slot_op[s] == tcu_pkg::OP_C;
    assign wr_meta[s]  = wr && slot_op[s] == tcu_pkg::OP_META;
    assign wr_sa[s]    = wr && slot_op[s] == tcu_pkg::OP_SCALE_A;
    assign wr_sb[s]    = wr && slot_op[s] == tcu_pkg::OP_SCALE_B;
  end


  // The next state, a_d .. sb_d.
  logic [4095:0] a_d;
  logic [2047:0] b_d;
  logic [8191:0] c_d;
  logic [511:0]  meta_d, sa_d;
  logic [255:0]  sb_d;

  // Per position, an AND-OR over the slots: slot s writes position p when
  // its row select (p's high bits, decoded once per slot) and its column
  // select (p's low three bits) are both high. The OR is a reduction, which
  // Yosys maps to a balanced tree (a chain written as a loop stays a chain:
  // logic depth grew by one a slot).
  //
  // A and B (16-bit halves): a word's lo half lands at L, its hi half at
  // L + 1 (L even) or, split (f16 A .col, B .row), at L + 4 (L[2] = 0).
  // Half h is written by the slot with L = h & ~1, or h & ~4 when split;
  // which of the word's halves it takes depends only on h[2], h[0] and
  // split, so each slot offers four values, one per class {h[2], h[0]}:
  // 00 lo, 11 hi, 01 (h[0]) hi or, split, lo, 10 (h[2]) lo or, split, hi.
  logic [32*WordsPerCycle-1:0] a_row_sel, c_row_sel;
  logic [16*WordsPerCycle-1:0] b_row_sel;
  logic [8*WordsPerCycle-1:0]  a_col_sel, b_col_sel, c_col_sel;
  logic [64*WordsPerCycle-1:0] ab_class;
  logic [16*WordsPerCycle-1:0] meta_sel, sa_sel;
  logic [8*WordsPerCycle-1:0]  sb_sel;

  for (genvar s = 0; s < WordsPerCycle; s++) begin : g_sel
    logic [7:0] a_pos, c_pos;
    logic [6:0] b_pos;
    logic       split, unused_pos;
    assign a_pos      = slot_lo_pos[s][7:0];
    assign b_pos      = slot_lo_pos[s][6:0];
    assign c_pos      = slot_lo_pos[s][8:1];
    assign split      = slot_split[s];
    assign unused_pos = ^slot_hi_pos[s];  // implied by lo_pos and split
    for (genvar r = 0; r < 32; r++) begin : g_row32
      assign a_row_sel[32*s + r] = wr_a[s] && a_pos[7:3] == 5'(r);
      assign c_row_sel[32*s + r] = wr_c[s] && c_pos[7:3] == 5'(r);
    end
    for (genvar r = 0; r < 16; r++) begin : g_row16
      assign b_row_sel[16*s + r] = wr_b[s] && b_pos[6:3] == 4'(r);
      assign meta_sel[16*s + r]  = wr_meta[s] && c_pos[3:0] == 4'(r);
      assign sa_sel[16*s + r]    = wr_sa[s] && c_pos[3:0] == 4'(r);
    end
    for (genvar j = 0; j < 8; j++) begin : g_col
      localparam logic [2:0] NOT_SPLIT = 3'(j & 6);  // j & ~1
      localparam logic [2:0] SPLIT     = 3'(j & 3);  // j & ~4
      assign a_col_sel[8*s + j] = a_pos[2:0] == (split ? SPLIT : NOT_SPLIT);
      assign b_col_sel[8*s + j] = b_pos[2:0] == (split ? SPLIT : NOT_SPLIT);
      assign c_col_sel[8*s + j] = c_pos[2:0] == 3'(j);
      assign sb_sel[8*s + j]    = wr_sb[s] && c_pos[2:0] == 3'(j);
    end
    assign ab_class[64*s +: 64] = {slot_hi[s], split ? slot_hi[s] : slot_lo[s],
                                   split ? slot_lo[s] : slot_hi[s], slot_lo[s]};
  end

  // The slots' values bit-major, so that each position's bit is one OR
  // reduction (a balanced tree) over the slots: ab_t[(class*16+b)*W + s] is
  // bit b of slot s's class value, word_t[b*W + s] bit b of its word.
  localparam int unsigned W = WordsPerCycle;
  logic [64*W-1:0] ab_t;
  logic [32*W-1:0] word_t;
  for (genvar s = 0; s < W; s++) begin : g_transpose
    for (genvar b = 0; b < 64; b++) begin : g_ab
      assign ab_t[b*W + s] = ab_class[64*s + b];
    end
    for (genvar b = 0; b < 32; b++) begin : g_word
      assign word_t[b*W + s] = b < 16 ? slot_lo[s][b%16] : slot_hi[s][b%16];
    end
  end

  for (genvar h = 0; h < 256; h++) begin : g_a
    localparam int unsigned CLASS = 2 * ((h >> 2) & 1) + (h & 1);
    logic [W-1:0]  sel;
    logic [15:0]   val;
    for (genvar s = 0; s < W; s++) begin : g_sel
      assign sel[s] = a_row_sel[32*s + h/8] & a_col_sel[8*s + h%8];
    end
    for (genvar b = 0; b < 16; b++) begin : g_bit
      assign val[b] = |(sel & ab_t[(CLASS*16 + b)*W +: W]);
    end
    assign a_d[16*h +: 16] = |sel ? val : take_start_i ? '0 : a_q[16*h +: 16];
  end
  for (genvar h = 0; h < 128; h++) begin : g_b
    localparam int unsigned CLASS = 2 * ((h >> 2) & 1) + (h & 1);
    logic [W-1:0]  sel;
    logic [15:0]   val;
    for (genvar s = 0; s < W; s++) begin : g_sel
      assign sel[s] = b_row_sel[16*s + h/8] & b_col_sel[8*s + h%8];
    end
    for (genvar b = 0; b < 16; b++) begin : g_bit
      assign val[b] = |(sel & ab_t[(CLASS*16 + b)*W +: W]);
    end
    assign b_d[16*h +: 16] = |sel ? val : take_start_i ? '0 : b_q[16*h +: 16];
  end
  // C, metadata and scales: whole words, at word lo_pos / 2 of the port.
  for (genvar w = 0; w < 256; w++) begin : g_c
    logic [W-1:0]  sel;
    logic [31:0]   val;
    for (genvar s = 0; s < W; s++) begin : g_sel
      assign sel[s] = c_row_sel[32*s + w/8] & c_col_sel[8*s + w%8];
    end
    for (genvar b = 0; b < 32; b++) begin : g_bit
      assign val[b] = |(sel & word_t[b*W +: W]);
    end
    assign c_d[32*w +: 32] = |sel ? val : take_start_i ? '0 : c_q[32*w +: 32];
  end
  for (genvar w = 0; w < 16; w++) begin : g_meta_sa
    logic [W-1:0]  meta_sel_w, sa_sel_w;
    logic [31:0]   meta_val, sa_val;
    for (genvar s = 0; s < W; s++) begin : g_sel
      assign meta_sel_w[s] = meta_sel[16*s + w];
      assign sa_sel_w[s]   = sa_sel[16*s + w];
    end
    for (genvar b = 0; b < 32; b++) begin : g_bit
      assign meta_val[b] = |(meta_sel_w & word_t[b*W +: W]);
      assign sa_val[b]   = |(sa_sel_w & word_t[b*W +: W]);
    end
    assign meta_d[32*w +: 32] = |meta_sel_w ? meta_val : take_start_i ? '0 : meta_q[32*w +: 32];
    assign sa_d[32*w +: 32]   = |sa_sel_w ? sa_val : take_start_i ? '0 : sa_q[32*w +: 32];
  end
  for (genvar w = 0; w < 8; w++) begin : g_sb
    logic [W-1:0]  sel;
    logic [31:0]   val;
    for (genvar s = 0; s < W; s++) begin : g_sel
      assign sel[s] = sb_sel[8*s + w];
    end
    for (genvar b = 0; b < 32; b++) begin : g_bit
      assign val[b] = |(sel & word_t[b*W +: W]);
    end
    assign sb_d[32*w +: 32] = |sel ? val : take_start_i ? '0 : sb_q[32*w +: 32];
  end

  always_ff @(posedge clk_i) begin
    if (beat_i) begin
      a_q    <= a_d;
      b_q    <= b_d;
      c_q    <= c_d;
      meta_q <= meta_d;
      sa_q   <= sa_d;
      sb_q   <= sb_d;
    end
  end

  logic show;
  assign show = GatherBypass && show_next_i;
  assign dp_a_o       = show ? a_d : a_q;
  assign dp_b_o       = show ? b_d : b_q;
  assign dp_c_o       = show ? c_d : c_q;
  assign dp_meta_o    = show ? meta_d : meta_q;
  assign dp_scale_a_o = show ? sa_d : sa_q;
  assign dp_scale_b_o = show ? sb_d : sb_q;

endmodule
