// The operand router's write-back (tcu_operand_router's scatter): the D
// buffer, the beat counter and the scatter's word selection.
//
// A D taken from the datapath (d_valid_i/d_ready_o, out_d_o's packing, with
// the descriptor of that D: family, k32, D type .f16) leaves as lane-order
// register words, DWordsPerCycle a beat (wb_valid_o/wb_ready_i), each tagged
// with its lane and register (32-bit words: f64 register r is words 2r and
// 2r+1), register-major: word i of the instruction is register i / 32 of
// lane i % 32, so a beat of 32 words writes one register of every lane.
// wb_last_o marks the last beat.
//
// Timing: D is taken at the edge ending the cycle of d_valid_i && d_ready_o
// (cycle h), into a buffer; beats follow in cycles h+1 .. h+m at full rate,
// m = ceil(dest_words / DWordsPerCycle) (timing.h dest_words), which is
// the front-end model's write-back of ceil(dest_words / rf_regs_per_cycle)
// cycles starting the cycle after the handshake. d_ready_o is high while
// the buffer is empty and in the cycle its last beat leaves, so D after D
// leaves back to back; a D that arrives earlier waits in the datapath (the
// model's write-back queue has no bound).
//
// Area: each scatter slot selects one of D's 256 words (tcu_word_mux). The
// word selection has two implementations, modules with one port list
// chosen by SynthImpl: tcu_router_scatter_synth (1: layout formulas and
// tcu_word_mux trees) / tcu_router_scatter_fast (0: one loop of indexed
// part-selects). Both are tested against the golden layouts;
// docs/architecture.md says which pairs tcu-formal proves equal. Nothing
// changes while no D arrives and no beat leaves.
module tcu_router_writeback #(
  parameter int unsigned DWordsPerCycle = tcu_pkg::DWordsPerCycle,  // D words a cycle (1..64)
  parameter bit          SynthImpl      = tcu_pkg::SynthImpl  // 1: synthesis implementation, 0: fast
) (
  input  logic                                         clk_i,
  input  logic                                         rst_ni,
  // ---- from tcu_datapath's out_* ports, with D's descriptor ----------------
  input  logic                                         d_valid_i,
  output logic                                         d_ready_o,
  input  logic [tcu_pkg::TAG_BITS-1:0]                 d_tag_i,
  input  logic [tcu_pkg::D_BITS-1:0]                   d_i,
  input  logic [tcu_pkg::FAMILY_BITS-1:0]              d_family_i,
  input  logic                                         d_k32_i,
  input  logic                                         d_f16_i, // f16 family: D is .f16
  // ---- destination register words (slot s at [s*width +: width]) ----------
  output logic                                         wb_valid_o,
  input  logic                                         wb_ready_i,
  output logic                                         wb_last_o,
  output logic [tcu_pkg::TAG_BITS-1:0]                 wb_tag_o,
  output logic [DWordsPerCycle-1:0]                    wb_word_valid_o,
  output logic [tcu_pkg::LANE_BITS*DWordsPerCycle-1:0] wb_word_lane_o,
  output logic [tcu_pkg::REG_BITS*DWordsPerCycle-1:0]  wb_word_reg_o,
  output logic [tcu_pkg::WORD_BITS*DWordsPerCycle-1:0] wb_word_data_o
);

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

  // The registers change only when a D is taken or a beat leaves: their own
  // gated clock, so that the beat's word selection (and its evaluation in
  // the simulator) runs only then.
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

  if (SynthImpl) begin : g_scatter_synth
    tcu_router_scatter_synth #(.DWordsPerCycle(DWordsPerCycle)) u_scatter (
      .busy_i   (busy_q),
      .base_i   (base_q),
      .d_words_i(d_words),
      .family_i (dfam_q),
      .k32_i    (dk32_q),
      .f16_i    (df16_q),
      .d_i      (dbuf_q),
      .wb_word_valid_o,
      .wb_word_lane_o,
      .wb_word_reg_o,
      .wb_word_data_o
    );
  end else begin : g_scatter_fast
    tcu_router_scatter_fast #(.DWordsPerCycle(DWordsPerCycle)) u_scatter (
      .busy_i   (busy_q),
      .base_i   (base_q),
      .d_words_i(d_words),
      .family_i (dfam_q),
      .k32_i    (dk32_q),
      .f16_i    (df16_q),
      .d_i      (dbuf_q),
      .wb_word_valid_o,
      .wb_word_lane_o,
      .wb_word_reg_o,
      .wb_word_data_o
    );
  end

endmodule
