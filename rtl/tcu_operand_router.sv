// The operand routing network between a warp's register file and the
// datapath (docs/ARCHITECTURE.md, "Operand routing network").
//
// Gather: an instruction starts with in_start_i and its descriptor; in that
// cycle and the following ones up to WordsPerCycle 32-bit register words
// arrive, in any order, each tagged with its operand (tcu::Operand order:
// 0 A, 1 B, 2 C, 4 metadata, 5 scale_a, 6 scale_b), lane and register index
// within that lane's fragment (in 32-bit words: f64 register r is words 2r
// and 2r+1). tcu_frag_layout computes from the tag where the word's
// elements go on the datapath's matrix-order ports, and the word is written
// there; a word that holds no element (a register past the fragment,
// metadata and scale lanes the selectors skip, an operand the family does
// not have) is ignored. in_last_i marks the instruction's last beat. The
// assembled operands and the descriptor are then presented with dp_valid_o
// until dp_ready_i, exactly as rtl/tcu_datapath.sv takes them on its in_*
// ports (systemc/datapath_ports.cpp, pack_datapath_inputs): port bits that
// no word writes are zero.
//
// Scatter: a D taken from the datapath (d_valid_i/d_ready_o, out_d_o's
// packing, with the descriptor of that D: family, k32, D type .f16) leaves
// as lane-order register words, DWordsPerCycle a beat (wb_valid_o/
// wb_ready_i), each tagged with its lane and register (32-bit words, as
// above), register-major: word i of the instruction is register i / 32 of
// lane i % 32, so a beat of 32 words writes one register of every lane.
// wb_last_o marks the last beat.
//
// Timing (cycle 0 is the cycle the start is taken; n = ceil(N /
// WordsPerCycle) beats for N words sent at the full rate, N = timing.h
// source_words() when every lane's metadata and scale words are sent, as
// the front-end counts them):
//   GatherBypass = 1: dp_valid_o rises in the last beat's cycle n - 1 (the
//     last words reach dp_*_o combinationally through the network), so the
//     datapath's accepting edge ends cycle n - 1: operand delivery takes
//     ceil(source_words / WordsPerCycle) cycles, the front-end model's
//     ceil(source_words / rf_regs_per_cycle) (timing.h instruction_latency)
//     with rf_regs_per_cycle = WordsPerCycle.
//   GatherBypass = 0: dp_*_o come from registers only; dp_valid_o rises in
//     cycle n, one cycle more than instruction_latency counts.
//   The next in_start_i is taken in the cycle the operands are handed over
//   (in_start_ready_o = idle, or operands valid and dp_ready_i): one buffer,
//   so collection of the next instruction does not overlap a wait for
//   dp_ready_i (the SystemC front-end model collects ahead).
// Scatter: D is taken at the edge ending the cycle of d_valid_i && d_ready_o
// (cycle h), into a buffer; beats follow in cycles h+1 .. h+m at full rate,
// m = ceil(dest_words / DWordsPerCycle) (timing.h dest_words), which is
// the front-end model's write-back of ceil(dest_words / rf_regs_per_cycle)
// cycles starting the cycle after the handshake. d_ready_o is high while
// the buffer is empty and in the cycle its last beat leaves, so D after D
// leaves back to back; a D that arrives earlier waits in the datapath (the
// model's write-back queue has no bound).
// So with GatherBypass = 1 and WordsPerCycle = DWordsPerCycle =
// rf_regs_per_cycle, an isolated instruction takes instruction_latency().
//
// Area: the gather network lets any of WordsPerCycle slots write any
// position, so every bit of the 15,616-bit operand buffer selects among
// WordsPerCycle slots; each scatter slot selects one of D's 256 words
// (tcu_word_mux). Simulation sees per-slot indexed part-select writes (at
// most 64 loop iterations) placed through a table, and the bypass as a
// low-phase latch (below); synthesis per-position AND-OR networks
// (SYNTHESIS), the same function at every rising edge (both are tested).
// Yosys figures are in docs/ARCHITECTURE.md. Nothing changes while no beat
// and no D arrive.
module tcu_operand_router #(
  parameter int unsigned WordsPerCycle  = 64,   // gather: register words a cycle (1..64)
  parameter int unsigned DWordsPerCycle = 64,   // scatter: D words a cycle (1..64)
  parameter bit          GatherBypass   = 1'b1  // last beat straight through to dp_*_o
) (
  input  logic                          clk_i,
  input  logic                          rst_ni,
  // ---- gather: the instruction --------------------------------------------
  input  logic                          in_start_i,
  output logic                          in_start_ready_o,
  input  logic [2:0]                    in_family_i,       // tcu_pkg::family_e
  input  logic                          in_a_signed_i,
  input  logic                          in_b_signed_i,
  input  logic                          in_satfinite_i,
  input  logic                          in_k32_i,
  input  logic [1:0]                    in_rnd_i,
  input  logic                          in_a_row_i,        // f16: A .row (else .col)
  input  logic                          in_b_row_i,        // f16: B .row (else .col)
  input  logic                          in_c_f16_i,
  input  logic                          in_d_f16_i,
  input  logic                          in_scale_4x_i,
  input  logic                          in_sparsity_i,     // mma.sp sparsity selector
  input  logic [1:0]                    in_byte_id_a_i,    // e2m1 scale selectors
  input  logic                          in_thread_id_a_i,
  input  logic [1:0]                    in_byte_id_b_i,
  input  logic [1:0]                    in_thread_id_b_i,
  input  logic [15:0]                   in_tag_i,
  // ---- gather: register words (slot s at [s*width +: width]) --------------
  input  logic [WordsPerCycle-1:0]      in_word_valid_i,
  input  logic [3*WordsPerCycle-1:0]    in_word_op_i,
  input  logic [5*WordsPerCycle-1:0]    in_word_lane_i,
  input  logic [3*WordsPerCycle-1:0]    in_word_reg_i,
  input  logic [32*WordsPerCycle-1:0]   in_word_data_i,
  input  logic                          in_last_i,
  // ---- to tcu_datapath's in_* ports ---------------------------------------
  output logic                          dp_valid_o,
  input  logic                          dp_ready_i,
  output logic [2:0]                    dp_family_o,
  output logic                          dp_a_signed_o,
  output logic                          dp_b_signed_o,
  output logic                          dp_satfinite_o,
  output logic                          dp_k32_o,
  output logic [1:0]                    dp_rnd_o,
  output logic                          dp_c_f16_o,
  output logic                          dp_d_f16_o,
  output logic                          dp_scale_4x_o,
  output logic [15:0]                   dp_tag_o,
  output logic [4095:0]                 dp_a_o,
  output logic [2047:0]                 dp_b_o,
  output logic [8191:0]                 dp_c_o,
  output logic [511:0]                  dp_meta_o,
  output logic [511:0]                  dp_scale_a_o,
  output logic [255:0]                  dp_scale_b_o,
  // ---- scatter: from tcu_datapath's out_* ports, with D's descriptor ------
  input  logic                          d_valid_i,
  output logic                          d_ready_o,
  input  logic [15:0]                   d_tag_i,
  input  logic [8191:0]                 d_i,
  input  logic [2:0]                    d_family_i,
  input  logic                          d_k32_i,
  input  logic                          d_f16_i,           // f16 family: D is .f16
  // ---- scatter: destination register words ---------------------------------
  output logic                          wb_valid_o,
  input  logic                          wb_ready_i,
  output logic                          wb_last_o,
  output logic [15:0]                   wb_tag_o,
  output logic [DWordsPerCycle-1:0]     wb_word_valid_o,
  output logic [5*DWordsPerCycle-1:0]   wb_word_lane_o,
  output logic [3*DWordsPerCycle-1:0]   wb_word_reg_o,
  output logic [32*DWordsPerCycle-1:0]  wb_word_data_o
);

  // The parameters' ranges (spec/config.toml; tests/spec checks these
  // messages against it).
  if (WordsPerCycle < 1 || WordsPerCycle > 64) begin : g_bad_words
    $fatal(1, "WordsPerCycle=%0d: must be 1..64 (%s)", WordsPerCycle,
           "register words the operand router moves a cycle");
  end
  if (DWordsPerCycle < 1 || DWordsPerCycle > 64) begin : g_bad_d_words
    $fatal(1, "DWordsPerCycle=%0d: must be 1..64 (%s)", DWordsPerCycle,
           "register words the operand router moves a cycle");
  end

  // ===========================================================================
  // Gather
  // ===========================================================================
  // Descriptor: {family, a_signed, b_signed, satfinite, k32, rnd, a_row,
  // b_row, c_f16, d_f16, scale_4x, sparsity, byte_id_a, thread_id_a,
  // byte_id_b, thread_id_b, tag}.
  localparam int unsigned DescW = 3 + 4 + 2 + 5 + 1 + 2 + 1 + 2 + 2 + 16;

  logic [DescW-1:0] desc_in, desc_q, desc_cur;
  logic             take_start, beat, full_q, collect_q, dp_fire;

  assign desc_in = {in_family_i, in_a_signed_i, in_b_signed_i, in_satfinite_i, in_k32_i,
                    in_rnd_i, in_a_row_i, in_b_row_i, in_c_f16_i, in_d_f16_i, in_scale_4x_i,
                    in_sparsity_i, in_byte_id_a_i, in_thread_id_a_i, in_byte_id_b_i,
                    in_thread_id_b_i, in_tag_i};

  // One operand buffer: a start is taken when it is empty, or in the cycle
  // its operands are handed over. Beats are taken with the start and while
  // collecting.
  assign in_start_ready_o = !collect_q && (!full_q || dp_ready_i);
  assign take_start       = in_start_i && in_start_ready_o;
  assign beat             = take_start || collect_q;
  assign dp_valid_o       = full_q || (GatherBypass && collect_q && in_last_i);
  assign dp_fire          = dp_valid_o && dp_ready_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      collect_q <= 1'b0;
      full_q    <= 1'b0;
    end else begin
      collect_q <= beat && !in_last_i;
      if (beat && in_last_i) begin
        // Complete. With the bypass handed over at once when dp_ready_i,
        // unless the start's own beat is the last (then the operands show
        // from the next cycle, as without the bypass).
        full_q <= !(GatherBypass && collect_q && dp_ready_i);
      end else if (dp_fire) begin
        full_q <= 1'b0;
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (take_start) begin
      desc_q <= desc_in;
    end
  end

  // The descriptor the words of this cycle are placed by; the datapath sees
  // the registered one (the bypass applies only to beats after the start's).
  assign desc_cur = take_start ? desc_in : desc_q;

  assign {dp_family_o, dp_a_signed_o, dp_b_signed_o, dp_satfinite_o, dp_k32_o, dp_rnd_o} =
         desc_q[DescW-1 -: 9];
  assign dp_c_f16_o    = desc_q[DescW-12];
  assign dp_d_f16_o    = desc_q[DescW-13];
  assign dp_scale_4x_o = desc_q[DescW-14];
  assign dp_tag_o      = desc_q[15:0];

  logic [2:0] cur_family;
  logic       cur_k32, cur_a_row, cur_b_row, cur_c_f16, cur_scale_4x, cur_sparsity;
  logic [1:0] cur_byte_id_a, cur_byte_id_b, cur_thread_id_b;
  logic       cur_thread_id_a;
  assign cur_family   = desc_cur[DescW-1 -: 3];
  assign cur_k32      = desc_cur[DescW-7];
  assign cur_a_row    = desc_cur[DescW-10];
  assign cur_b_row    = desc_cur[DescW-11];
  assign cur_c_f16    = desc_cur[DescW-12];
  assign cur_scale_4x = desc_cur[DescW-14];
  assign {cur_sparsity, cur_byte_id_a, cur_thread_id_a, cur_byte_id_b, cur_thread_id_b} =
         desc_cur[23:16];

  // The operand buffer: cleared by a start, then each word written at its
  // place. With the bypass, the last beat's words go straight to the
  // datapath (dp_*_o show the buffer with them written; only in that beat,
  // the only cycle of a collection with dp_valid_o high); once complete,
  // the buffer holds them.
  logic [4095:0] a_q;
  logic [2047:0] b_q;
  logic [8191:0] c_q;
  logic [511:0]  meta_q, sa_q;
  logic [255:0]  sb_q;
  logic          show_next;
  assign show_next = GatherBypass && collect_q && in_last_i;

`ifdef SYNTHESIS
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
    assign wr          = beat && in_word_valid_i[s] && slot_hit[s];
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
    assign a_d[16*h +: 16] = |sel ? val : take_start ? '0 : a_q[16*h +: 16];
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
    assign b_d[16*h +: 16] = |sel ? val : take_start ? '0 : b_q[16*h +: 16];
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
    assign c_d[32*w +: 32] = |sel ? val : take_start ? '0 : c_q[32*w +: 32];
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
    assign meta_d[32*w +: 32] = |meta_sel_w ? meta_val : take_start ? '0 : meta_q[32*w +: 32];
    assign sa_d[32*w +: 32]   = |sa_sel_w ? sa_val : take_start ? '0 : sa_q[32*w +: 32];
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
    assign sb_d[32*w +: 32] = |sel ? val : take_start ? '0 : sb_q[32*w +: 32];
  end

  always_ff @(posedge clk_i) begin
    if (beat) begin
      a_q    <= a_d;
      b_q    <= b_d;
      c_q    <= c_d;
      meta_q <= meta_d;
      sa_q   <= sa_d;
      sb_q   <= sb_d;
    end
  end

  assign dp_a_o       = show_next ? a_d : a_q;
  assign dp_b_o       = show_next ? b_d : b_q;
  assign dp_c_o       = show_next ? c_d : c_q;
  assign dp_meta_o    = show_next ? meta_d : meta_q;
  assign dp_scale_a_o = show_next ? sa_d : sa_q;
  assign dp_scale_b_o = show_next ? sb_d : sb_q;
`else
  // Simulation. Verilator evaluates logic fed by the core's inputs at every
  // eval() (two a cycle) and again after each clock edge, so the placements
  // are computed only where a word is written, and cheaply:
  // - A, B and C words are placed by a table of tcu_pkg::frag_place's
  //   results (hit, lo_pos, hi_pos), indexed by layout class, operand, lane
  //   and register word and filled once from frag_place at time 0; the
  //   metadata and scale words, whose placement depends on the selectors and
  //   whose value frag_place shifts, are placed by frag_place itself.
  // - With the bypass, dp_*_o are a latch open while clk_i is low: the
  //   buffer with the last beat written over it, computed once a cycle (in
  //   the low phase, after the inputs have changed) instead of at every
  //   eval. A register capturing dp_*_o at the rising edge sees what the
  //   combinational path of the synthesis description gives, provided the
  //   inputs settle while clk_i is low (they change after the rising edge
  //   and are evaluated with clk_i low before the next, as every driver in
  //   this project does: systemc/datapath_model.h); waveforms show dp_*_o
  //   changing at the falling edge. The buffer then takes dp_*_o at the
  //   edge (a copy) instead of placing the last beat again.
  localparam int unsigned PW   = tcu_pkg::FRAG_PLACE_W;
  localparam int unsigned PosW = tcu_pkg::FRAG_POS_W;
  // Fields of a placement {hit, lo_pos, hi_pos, split, word}.
  localparam int unsigned HIT = PW - 1;
  localparam int unsigned LO  = PW - 1 - PosW;      // lo_pos's lsb
  localparam int unsigned HI  = PW - 1 - 2 * PosW;  // hi_pos's lsb
  localparam int unsigned EntryW = 1 + 2 * PosW;    // {hit, lo_pos, hi_pos}
  localparam int unsigned RomIdxW = 4 + 2 + 5 + 3;  // {class, op, lane, reg}

  logic [tcu_pkg::FRAG_DESC_W-1:0] place_desc;
  logic [3:0]                      place_class;
  assign place_desc = {cur_family, cur_k32, cur_a_row, cur_b_row, cur_c_f16, cur_scale_4x,
                       cur_sparsity, cur_byte_id_a, cur_thread_id_a, cur_byte_id_b,
                       cur_thread_id_b};

  // Layout classes: the descriptor fields the A, B and C placements depend
  // on. 8..15: m8n8k4 .f16 {a_row, b_row, acc_f16}; 5: m8n8k32; else the
  // family code (family codes outside family_e place as FAM_INT4, as
  // frag_place does).
  localparam logic [3:0] CLASS_K32 = 4'd5;
  function automatic logic [3:0] layout_class(logic [2:0] family, logic k32, logic a_row,
                                              logic b_row, logic acc_f16);
    unique case (family)
      tcu_pkg::FAM_F16:         layout_class = {1'b1, a_row, b_row, acc_f16};
      tcu_pkg::FAM_INT4_SPARSE,
      tcu_pkg::FAM_F64,
      tcu_pkg::FAM_E2M1:        layout_class = {1'b0, family};
      default:                  layout_class = k32 ? CLASS_K32 : {1'b0, tcu_pkg::FAM_INT4};
    endcase
  endfunction
  function automatic logic [tcu_pkg::FRAG_DESC_W-1:0] class_desc(logic [3:0] cls);
    logic [2:0] family;
    family = cls[3] ? tcu_pkg::FAM_F16 : cls == CLASS_K32 ? tcu_pkg::FAM_INT4 : cls[2:0];
    class_desc = {family, cls == CLASS_K32, cls[3] & cls[2], cls[3] & cls[1], cls[3] & cls[0],
                  9'd0};
  endfunction
  assign place_class = layout_class(cur_family, cur_k32, cur_a_row, cur_b_row, cur_c_f16);

  logic [EntryW-1:0] place_rom [2**RomIdxW];
  initial begin
    for (int unsigned i = 0; i < 2**RomIdxW; i++) begin
      logic [RomIdxW-1:0] idx;
      logic [PW-1:0]      p;
      idx          = RomIdxW'(i);
      p            = tcu_pkg::frag_place(class_desc(idx[13:10]), {1'b0, idx[9:8]}, idx[7:3],
                                         idx[2:0], 32'd0);
      place_rom[i] = {p[HIT], p[LO +: PosW], p[HI +: PosW]};
    end
  end

  // Slot s's placement as frag_place packs it (split is not used here).
  function automatic logic [PW-1:0] place_slot(int unsigned s);
    logic [2:0]        op;
    logic [4:0]        lane;
    logic [2:0]        reg_idx;
    logic [31:0]       word;
    logic [EntryW-1:0] e;
    op      = in_word_op_i[3*s +: 3];
    lane    = in_word_lane_i[5*s +: 5];
    reg_idx = in_word_reg_i[3*s +: 3];
    word    = in_word_data_i[32*s +: 32];
    if (!in_word_valid_i[s]) begin
      place_slot = '0;
    end else if (op <= tcu_pkg::OP_C) begin
      e          = place_rom[{place_class, op[1:0], lane, reg_idx}];
      place_slot = {e, 1'b0, word};
    end else begin
      place_slot = tcu_pkg::frag_place(place_desc, op, lane, reg_idx, word);
    end
  endfunction

  always_ff @(posedge clk_i) begin
    logic [PW-1:0] p;
    if (take_start) begin
      a_q    <= '0;
      b_q    <= '0;
      c_q    <= '0;
      meta_q <= '0;
      sa_q   <= '0;
      sb_q   <= '0;
    end
    if (show_next) begin
      a_q    <= dp_a_o;
      b_q    <= dp_b_o;
      c_q    <= dp_c_o;
      meta_q <= dp_meta_o;
      sa_q   <= dp_scale_a_o;
      sb_q   <= dp_scale_b_o;
    end else if (beat) begin
      for (int unsigned s = 0; s < WordsPerCycle; s++) begin
        p = place_slot(s);
        if (p[HIT]) begin
          unique case (in_word_op_i[3*s +: 3])
            tcu_pkg::OP_A: begin
              a_q[{p[LO +: 8], 4'h0} +: 16] <= p[15:0];
              a_q[{p[HI +: 8], 4'h0} +: 16] <= p[31:16];
            end
            tcu_pkg::OP_B: begin
              b_q[{p[LO +: 7], 4'h0} +: 16] <= p[15:0];
              b_q[{p[HI +: 7], 4'h0} +: 16] <= p[31:16];
            end
            tcu_pkg::OP_C:       c_q[{p[LO + 1 +: 8], 5'h00} +: 32] <= p[31:0];
            tcu_pkg::OP_META:    meta_q[{p[LO + 1 +: 4], 5'h00} +: 32] <= p[31:0];
            tcu_pkg::OP_SCALE_A: sa_q[{p[LO + 1 +: 4], 5'h00} +: 32] <= p[31:0];
            tcu_pkg::OP_SCALE_B: sb_q[{p[LO + 1 +: 3], 5'h00} +: 32] <= p[31:0];
            default: ;
          endcase
        end
      end
    end
  end

  if (GatherBypass) begin : g_bypass
    // show_next implies no start this cycle (collect_q), so no clear.
    always_latch begin
      logic [PW-1:0] p;
      if (!clk_i) begin
        dp_a_o       = a_q;
        dp_b_o       = b_q;
        dp_c_o       = c_q;
        dp_meta_o    = meta_q;
        dp_scale_a_o = sa_q;
        dp_scale_b_o = sb_q;
        if (show_next) begin
          for (int unsigned s = 0; s < WordsPerCycle; s++) begin
            p = place_slot(s);
            if (p[HIT]) begin
              unique case (in_word_op_i[3*s +: 3])
                tcu_pkg::OP_A: begin
                  dp_a_o[{p[LO +: 8], 4'h0} +: 16] = p[15:0];
                  dp_a_o[{p[HI +: 8], 4'h0} +: 16] = p[31:16];
                end
                tcu_pkg::OP_B: begin
                  dp_b_o[{p[LO +: 7], 4'h0} +: 16] = p[15:0];
                  dp_b_o[{p[HI +: 7], 4'h0} +: 16] = p[31:16];
                end
                tcu_pkg::OP_C:       dp_c_o[{p[LO + 1 +: 8], 5'h00} +: 32] = p[31:0];
                tcu_pkg::OP_META:    dp_meta_o[{p[LO + 1 +: 4], 5'h00} +: 32] = p[31:0];
                tcu_pkg::OP_SCALE_A: dp_scale_a_o[{p[LO + 1 +: 4], 5'h00} +: 32] = p[31:0];
                tcu_pkg::OP_SCALE_B: dp_scale_b_o[{p[LO + 1 +: 3], 5'h00} +: 32] = p[31:0];
                default: ;
              endcase
            end
          end
        end
      end
    end
  end else begin : g_no_bypass
    assign dp_a_o       = a_q;
    assign dp_b_o       = b_q;
    assign dp_c_o       = c_q;
    assign dp_meta_o    = meta_q;
    assign dp_scale_a_o = sa_q;
    assign dp_scale_b_o = sb_q;
  end
`endif

  // ===========================================================================
  // Scatter
  // ===========================================================================
  logic          busy_q, wb_fire, take_d;
  logic [9:0]    base_q, d_words;
  logic [8191:0] dbuf_q;
  logic [2:0]    dfam_q;
  logic          dk32_q, df16_q;
  logic [15:0]   dtag_q;

  // 32-bit D words of the instruction: 32 lanes times its D registers.
  always_comb begin
    unique case (dfam_q)
      tcu_pkg::FAM_F16:         d_words = df16_q ? 10'd128 : 10'd256;
      tcu_pkg::FAM_F64:         d_words = 10'd128;  // two 64-bit registers
      tcu_pkg::FAM_INT4_SPARSE: d_words = 10'd128;
      tcu_pkg::FAM_E2M1:        d_words = 10'd128;
      default:                  d_words = dk32_q ? 10'd64 : 10'd128;  // FAM_INT4
    endcase
  end

  assign wb_valid_o = busy_q;
  assign wb_last_o  = base_q + 10'(DWordsPerCycle) >= d_words;
  assign wb_tag_o   = dtag_q;
  assign wb_fire    = busy_q && wb_ready_i;
  assign d_ready_o  = !busy_q || (wb_fire && wb_last_o);
  assign take_d     = d_valid_i && d_ready_o;

  // The scatter's registers change only when a D is taken or a beat leaves:
  // their own gated clock, so that the beat's word selection (and its
  // evaluation in the simulator) runs only then.
  logic clk_wb;
  tcu_clock_gate u_gate_wb (.clk_i, .en_i(take_d || wb_fire), .clk_o(clk_wb));

  always_ff @(posedge clk_wb or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q <= 1'b0;
      base_q <= '0;
    end else if (take_d) begin
      busy_q <= 1'b1;
      base_q <= '0;
    end else if (wb_fire) begin
      busy_q <= !wb_last_o;
      base_q <= base_q + 10'(DWordsPerCycle);
    end
  end

  always_ff @(posedge clk_wb) begin
    if (take_d) begin
      dbuf_q <= d_i;
      dfam_q <= d_family_i;
      dk32_q <= d_k32_i;
      df16_q <= d_f16_i;
      dtag_q <= d_tag_i;
    end
  end

`ifdef SYNTHESIS
  // Each slot: the layout formulas and a word multiplexer over D.
  localparam int unsigned D_WORDS = 8192 / 32;  // out_d_o
  for (genvar s = 0; s < DWordsPerCycle; s++) begin : g_wb
    logic [9:0]  idx;
    logic        hit, unused_lo_half, unused_split;
    logic [8:0]  lo_pos, unused_hi_pos;
    logic [31:0] unused_word;
    assign idx            = base_q + 10'(s);
    assign unused_lo_half = lo_pos[0];  // D words are whole words
    tcu_frag_layout u_layout (
      .family_i     (dfam_q),
      .k32_i        (dk32_q),
      .a_row_i      (1'b0),
      .b_row_i      (1'b0),
      .acc_f16_i    (df16_q),
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
      .Width(32),
      .Words(D_WORDS)
    ) u_mux (
      .data_i(dbuf_q),
      .sel_i (lo_pos[8:1]),
      .data_o(wb_word_data_o[32*s +: 32])
    );
    assign wb_word_valid_o[s]         = busy_q && hit && idx < d_words;
    assign wb_word_lane_o[5*s +: 5]   = idx[4:0];
    assign wb_word_reg_o[3*s +: 3]    = idx[7:5];
  end
`else
  // Simulation: the same selection as one loop over the slots, with only
  // the C/D case of the layout formulas (tcu_pkg::frag_cd_place, which
  // frag_place uses for C and D), so that a beat costs a few operations a
  // word rather than a layout instance per slot.
  always_comb begin
    for (int unsigned s = 0; s < DWordsPerCycle; s++) begin
      logic [9:0]  idx;
      logic [11:0] cd;
      idx                        = base_q + 10'(s);
      cd                         = tcu_pkg::frag_cd_place(dfam_q, dk32_q, df16_q, idx[4:0],
                                                          idx[7:5]);
      wb_word_data_o[32*s +: 32] = dbuf_q[{cd[7:0], 5'h00} +: 32];
      wb_word_valid_o[s]         = busy_q && {1'b0, idx[7:5]} < cd[11:8] && idx < d_words;
      wb_word_lane_o[5*s +: 5]   = idx[4:0];
      wb_word_reg_o[3*s +: 3]    = idx[7:5];
    end
  end
`endif

`ifndef SYNTHESIS
  // ---------------------------------------------------------------------------
  // Protocol assertions (compiled with --assert): what dp_* and wb_* present
  // holds while valid is high and ready low.
  // ---------------------------------------------------------------------------
  // Copies of what is held, per port, compared port by port (the simulator
  // then builds no concatenation of them in the cycles that do not check).
  logic                         chk_live_q, chk_dp_held_q, chk_wb_held_q;
  logic [DescW-1:0]             chk_desc_q;
  logic [4095:0]                chk_a_q;
  logic [2047:0]                chk_b_q;
  logic [8191:0]                chk_c_q;
  logic [511:0]                 chk_meta_q, chk_sa_q;
  logic [255:0]                 chk_sb_q;
  logic [15:0]                  chk_wb_tag_q;
  logic                         chk_wb_last_q;
  logic [DWordsPerCycle-1:0]    chk_wb_valid_q;
  logic [5*DWordsPerCycle-1:0]  chk_wb_lane_q;
  logic [3*DWordsPerCycle-1:0]  chk_wb_reg_q;
  logic [32*DWordsPerCycle-1:0] chk_wb_data_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      chk_live_q    <= 1'b0;
      chk_dp_held_q <= 1'b0;
      chk_wb_held_q <= 1'b0;
    end else begin
      chk_live_q    <= 1'b1;
      chk_dp_held_q <= dp_valid_o && !dp_ready_i;
      chk_wb_held_q <= wb_valid_o && !wb_ready_i;
    end
  end
  always_ff @(posedge clk_i) begin
    if (dp_valid_o && !dp_ready_i) begin
      chk_desc_q <= desc_q;
      chk_a_q    <= dp_a_o;
      chk_b_q    <= dp_b_o;
      chk_c_q    <= dp_c_o;
      chk_meta_q <= dp_meta_o;
      chk_sa_q   <= dp_scale_a_o;
      chk_sb_q   <= dp_scale_b_o;
    end
    if (wb_valid_o && !wb_ready_i) begin
      chk_wb_tag_q   <= wb_tag_o;
      chk_wb_last_q  <= wb_last_o;
      chk_wb_valid_q <= wb_word_valid_o;
      chk_wb_lane_q  <= wb_word_lane_o;
      chk_wb_reg_q   <= wb_word_reg_o;
      chk_wb_data_q  <= wb_word_data_o;
    end
  end
  always_ff @(posedge clk_i) begin
    if (chk_live_q) begin
      if (chk_dp_held_q) begin
        assert (dp_valid_o && desc_q == chk_desc_q && dp_a_o == chk_a_q && dp_b_o == chk_b_q &&
                dp_c_o == chk_c_q && dp_meta_o == chk_meta_q && dp_scale_a_o == chk_sa_q &&
                dp_scale_b_o == chk_sb_q)
          else $error("dp_valid_o or the operands changed while dp_ready_i was low");
      end
      if (chk_wb_held_q) begin
        assert (wb_valid_o && wb_tag_o == chk_wb_tag_q && wb_last_o == chk_wb_last_q &&
                wb_word_valid_o == chk_wb_valid_q && wb_word_lane_o == chk_wb_lane_q &&
                wb_word_reg_o == chk_wb_reg_q && wb_word_data_o == chk_wb_data_q)
          else $error("wb_valid_o or a write-back word changed while wb_ready_i was low");
      end
      assert (!(collect_q && full_q))
        else $error("collecting into a buffer that holds operands");
    end
  end
`endif

endmodule
