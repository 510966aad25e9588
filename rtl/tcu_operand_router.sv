// The operand routing network between a warp's register file and the
// datapath (docs/architecture.md, "Operand routing network").
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
// not have) is ignored. No two valid words of one beat may carry the same
// tag (asserted; the gather's two implementations would place them
// differently: the table form keeps the higher slot's word, the AND-OR form
// ORs the two; a front-end reads each register once an instruction, and a
// register sent again in a later beat overwrites the earlier word in
// both). in_last_i marks the instruction's last beat. The
// assembled operands and the descriptor are then presented with dp_valid_o
// until dp_ready_i, exactly as rtl/tcu_datapath.sv takes them on its in_*
// ports (systemc/datapath_ports.cpp, pack_datapath_inputs): port bits that
// no word writes are zero.
//
// Scatter: a D taken from the datapath (d_valid_i/d_ready_o) leaves as
// lane-order register words, DWordsPerCycle a beat (wb_valid_o/wb_ready_i):
// rtl/tcu_router_writeback.sv (u_writeback), whose comment gives its ports,
// its timing and its area.
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
// With the scatter's timing (tcu_router_writeback), GatherBypass = 1 and
// WordsPerCycle = DWordsPerCycle = rf_regs_per_cycle, an isolated
// instruction takes instruction_latency().
//
// Area: the gather network lets any of WordsPerCycle slots write any
// position, so every bit of the 15,616-bit operand buffer selects among
// WordsPerCycle slots. The gather buffer has two implementations, modules
// with one port list chosen by SynthImpl: tcu_router_gather_synth (1:
// per-position AND-OR networks, what Yosys maps) / tcu_router_gather_fast
// (0: per-slot indexed part-select writes placed through a table, the
// bypass as a low-phase latch; fast in Verilator); the scatter's word
// selection has two as well (tcu_router_writeback). Both are tested against
// the golden layouts; docs/architecture.md says which pairs tcu-formal
// proves equal. Yosys figures are in docs/architecture.md. Nothing changes
// while no beat and no D arrive.
module tcu_operand_router #(
  parameter int unsigned WordsPerCycle  = tcu_pkg::WordsPerCycle,   // gather: register words a cycle (1..64)
  parameter int unsigned DWordsPerCycle = tcu_pkg::DWordsPerCycle,   // scatter: D words a cycle (1..64)
  parameter bit          GatherBypass   = tcu_pkg::GatherBypass, // last beat straight through to dp_*_o
  parameter bit          SynthImpl      = tcu_pkg::SynthImpl  // 1: synthesis implementations, 0: fast ones
) (
  input  logic                          clk_i,
  input  logic                          rst_ni,
  // ---- gather: the instruction --------------------------------------------
  input  logic                                       in_start_i,
  output logic                                       in_start_ready_o,
  input  logic [tcu_pkg::FAMILY_BITS-1:0]            in_family_i,    // tcu_pkg::family_e
  input  logic                                       in_a_signed_i,
  input  logic                                       in_b_signed_i,
  input  logic                                       in_satfinite_i,
  input  logic                                       in_k32_i,
  input  logic [tcu_pkg::ROUNDING_BITS-1:0]          in_rnd_i,
  input  logic                                       in_a_row_i,     // f16: A .row (else .col)
  input  logic                                       in_b_row_i,     // f16: B .row (else .col)
  input  logic                                       in_c_f16_i,
  input  logic                                       in_d_f16_i,
  input  logic                                       in_scale_4x_i,
  input  logic                                       in_sparsity_i,  // mma.sp sparsity selector
  input  logic [tcu_pkg::SCALE_BYTE_ID_BITS-1:0]     in_byte_id_a_i, // e2m1 scale selectors
  input  logic                                       in_thread_id_a_i,
  input  logic [tcu_pkg::SCALE_BYTE_ID_BITS-1:0]     in_byte_id_b_i,
  input  logic [tcu_pkg::SCALE_THREAD_ID_B_BITS-1:0] in_thread_id_b_i,
  input  logic [tcu_pkg::TAG_BITS-1:0]               in_tag_i,
  // ---- gather: register words (slot s at [s*width +: width]) --------------
  input  logic [WordsPerCycle-1:0]                       in_word_valid_i,
  input  logic [tcu_pkg::OPERAND_BITS*WordsPerCycle-1:0] in_word_op_i,
  input  logic [tcu_pkg::LANE_BITS*WordsPerCycle-1:0]    in_word_lane_i,
  input  logic [tcu_pkg::REG_BITS*WordsPerCycle-1:0]     in_word_reg_i,
  input  logic [tcu_pkg::WORD_BITS*WordsPerCycle-1:0]    in_word_data_i,
  input  logic                                           in_last_i,
  // ---- to tcu_datapath's in_* ports ---------------------------------------
  output logic                              dp_valid_o,
  input  logic                              dp_ready_i,
  output logic [tcu_pkg::FAMILY_BITS-1:0]   dp_family_o,
  output logic                              dp_a_signed_o,
  output logic                              dp_b_signed_o,
  output logic                              dp_satfinite_o,
  output logic                              dp_k32_o,
  output logic [tcu_pkg::ROUNDING_BITS-1:0] dp_rnd_o,
  output logic                              dp_c_f16_o,
  output logic                              dp_d_f16_o,
  output logic                              dp_scale_4x_o,
  output logic [tcu_pkg::TAG_BITS-1:0]      dp_tag_o,
  output logic [tcu_pkg::A_BITS-1:0]        dp_a_o,
  output logic [tcu_pkg::B_BITS-1:0]        dp_b_o,
  output logic [tcu_pkg::C_BITS-1:0]        dp_c_o,
  output logic [tcu_pkg::META_BITS-1:0]     dp_meta_o,
  output logic [tcu_pkg::SCALE_A_BITS-1:0]  dp_scale_a_o,
  output logic [tcu_pkg::SCALE_B_BITS-1:0]  dp_scale_b_o,
  // ---- scatter: from tcu_datapath's out_* ports, with D's descriptor ------
  input  logic                            d_valid_i,
  output logic                            d_ready_o,
  input  logic [tcu_pkg::TAG_BITS-1:0]    d_tag_i,
  input  logic [tcu_pkg::D_BITS-1:0]      d_i,
  input  logic [tcu_pkg::FAMILY_BITS-1:0] d_family_i,
  input  logic                            d_k32_i,
  input  logic                            d_f16_i, // f16 family: D is .f16
  // ---- scatter: destination register words ---------------------------------
  output logic                                         wb_valid_o,
  input  logic                                         wb_ready_i,
  output logic                                         wb_last_o,
  output logic [tcu_pkg::TAG_BITS-1:0]                 wb_tag_o,
  output logic [DWordsPerCycle-1:0]                    wb_word_valid_o,
  output logic [tcu_pkg::LANE_BITS*DWordsPerCycle-1:0] wb_word_lane_o,
  output logic [tcu_pkg::REG_BITS*DWordsPerCycle-1:0]  wb_word_reg_o,
  output logic [tcu_pkg::WORD_BITS*DWordsPerCycle-1:0] wb_word_data_o
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

  // The operand buffer (tcu_router_gather_*): cleared by a start, then each
  // word written at its place. With the bypass, the last beat's words go
  // straight to the datapath (dp_*_o show the buffer with them written;
  // only in that beat, the only cycle of a collection with dp_valid_o high);
  // once complete, the buffer holds them.
  logic [tcu_pkg::FRAG_DESC_W-1:0] place_desc;
  logic                            show_next;
  assign place_desc = {cur_family, cur_k32, cur_a_row, cur_b_row, cur_c_f16, cur_scale_4x,
                       cur_sparsity, cur_byte_id_a, cur_thread_id_a, cur_byte_id_b,
                       cur_thread_id_b};
  assign show_next = GatherBypass && collect_q && in_last_i;

  if (SynthImpl) begin : g_gather_synth
    tcu_router_gather_synth #(
      .WordsPerCycle(WordsPerCycle),
      .GatherBypass (GatherBypass)
    ) u_gather (
      .clk_i,
      .take_start_i(take_start),
      .beat_i      (beat),
      .show_next_i (show_next),
      .desc_i      (place_desc),
      .in_word_valid_i,
      .in_word_op_i,
      .in_word_lane_i,
      .in_word_reg_i,
      .in_word_data_i,
      .dp_a_o,
      .dp_b_o,
      .dp_c_o,
      .dp_meta_o,
      .dp_scale_a_o,
      .dp_scale_b_o
    );
  end else begin : g_gather_fast
    tcu_router_gather_fast #(
      .WordsPerCycle(WordsPerCycle),
      .GatherBypass (GatherBypass)
    ) u_gather (
      .clk_i,
      .take_start_i(take_start),
      .beat_i      (beat),
      .show_next_i (show_next),
      .desc_i      (place_desc),
      .in_word_valid_i,
      .in_word_op_i,
      .in_word_lane_i,
      .in_word_reg_i,
      .in_word_data_i,
      .dp_a_o,
      .dp_b_o,
      .dp_c_o,
      .dp_meta_o,
      .dp_scale_a_o,
      .dp_scale_b_o
    );
  end

  // ===========================================================================
  // Scatter (tcu_router_writeback: the D buffer, the beat counter and the
  // word selection)
  // ===========================================================================
  tcu_router_writeback #(
    .DWordsPerCycle(DWordsPerCycle),
    .SynthImpl     (SynthImpl)
  ) u_writeback (
    .clk_i,
    .rst_ni,
    .d_valid_i,
    .d_ready_o,
    .d_tag_i,
    .d_i,
    .d_family_i,
    .d_k32_i,
    .d_f16_i,
    .wb_valid_o,
    .wb_ready_i,
    .wb_last_o,
    .wb_tag_o,
    .wb_word_valid_o,
    .wb_word_lane_o,
    .wb_word_reg_o,
    .wb_word_data_o
  );

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
      assert (wb_valid_o || wb_word_valid_o == '0)
        else $error("a write-back word valid outside a write-back beat (wb_valid_o low)");
      // A start waits only for a collection in progress or for operands
      // the datapath does not take this cycle (the buffer's one rule).
      assert (!in_start_i || in_start_ready_o || collect_q || (full_q && !dp_fire))
        else $error("a start refused while the operand buffer is free or handed over");
    end
  end
  // One word per tag a beat: the lanes seen per {operand, register}, a
  // 32-bit mask each, filled slot by slot (one pass over the slots, only in
  // beats; word-sized operations rather than bits of one wide set: the
  // check costs the co-verification run a few per cent).
  always_ff @(posedge clk_i) begin
    if (beat) begin
      logic [31:0] chk_lanes_seen [64];
      logic [31:0] chk_lane;
      logic [5:0]  chk_op_reg;
      logic [10:0] chk_dup_tag;
      logic        chk_dup;
      for (int unsigned k = 0; k < 64; k++) chk_lanes_seen[k] = '0;
      chk_dup_tag = '0;
      chk_dup     = 1'b0;
      for (int unsigned s = 0; s < WordsPerCycle; s++) begin
        if (in_word_valid_i[s]) begin
          chk_op_reg = {in_word_op_i[3*s +: 3], in_word_reg_i[3*s +: 3]};
          chk_lane   = 32'd1 << in_word_lane_i[5*s +: 5];
          if ((chk_lanes_seen[chk_op_reg] & chk_lane) != '0) begin
            chk_dup     = 1'b1;
            chk_dup_tag = {in_word_op_i[3*s +: 3], in_word_lane_i[5*s +: 5],
                           in_word_reg_i[3*s +: 3]};
          end
          chk_lanes_seen[chk_op_reg] = chk_lanes_seen[chk_op_reg] | chk_lane;
        end
      end
      assert (!chk_dup)
        else $error("%s (operand %0d, lane %0d, register %0d)",
                    "two valid words of one beat with the same tag", chk_dup_tag[10:8],
                    chk_dup_tag[7:3], chk_dup_tag[2:0]);
    end
  end
`endif

endmodule
