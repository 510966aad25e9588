// The router's scatter, slot by slot (kind comb, a lemma of each form): the
// form (Fast = 0 tcu_router_scatter_synth, 1 tcu_router_scatter_fast) at
// DWordsPerCycle, slot s, equals the form at one slot (DWordsPerCycle = 1)
// whose beat starts at word base_i + s, every output bit, for every input.
// With the pair proven at one slot for every base_i (check router_scatter
// at DWordsPerCycle = 1), it gives the pair equal at DWordsPerCycle, slot
// for slot: synthesis slot s = synthesis at one slot on base_i + s = fast at
// one slot on base_i + s = fast slot s. Plant = 1 feeds the last slot's
// one-slot form the next word's index (base_i + s + 1).
module eq_miter #(
  parameter int unsigned DWordsPerCycle = 32,
  parameter bit          Fast           = 1'b0,
  parameter bit          Plant          = 1'b0
) (
  input  logic          busy_i,
  input  logic [9:0]    base_i, d_words_i,
  input  logic [2:0]    family_i,
  input  logic          k32_i, f16_i,
  input  logic [8191:0] d_i,
  output logic          trigger
);
  localparam int unsigned W = DWordsPerCycle;
  logic [W-1:0]    wv, ov;
  logic [5*W-1:0]  wl, ol;
  logic [3*W-1:0]  wr, orr;
  logic [32*W-1:0] wd, od;
  if (Fast) begin : g_wide
    tcu_router_scatter_fast #(.DWordsPerCycle(W)) u_wide (.busy_i, .base_i, .d_words_i,
      .family_i, .k32_i, .f16_i, .d_i, .wb_word_valid_o(wv), .wb_word_lane_o(wl),
      .wb_word_reg_o(wr), .wb_word_data_o(wd));
  end else begin : g_wide
    tcu_router_scatter_synth #(.DWordsPerCycle(W)) u_wide (.busy_i, .base_i, .d_words_i,
      .family_i, .k32_i, .f16_i, .d_i, .wb_word_valid_o(wv), .wb_word_lane_o(wl),
      .wb_word_reg_o(wr), .wb_word_data_o(wd));
  end
  for (genvar s = 0; s < W; s++) begin : g_slot
    logic [9:0] base;
    assign base = base_i + 10'(s) + 10'(Plant && s == W - 1);
    if (Fast) begin : g_one
      tcu_router_scatter_fast #(.DWordsPerCycle(1)) u_one (.busy_i, .base_i(base), .d_words_i,
        .family_i, .k32_i, .f16_i, .d_i, .wb_word_valid_o(ov[s]),
        .wb_word_lane_o(ol[5*s +: 5]), .wb_word_reg_o(orr[3*s +: 3]),
        .wb_word_data_o(od[32*s +: 32]));
    end else begin : g_one
      tcu_router_scatter_synth #(.DWordsPerCycle(1)) u_one (.busy_i, .base_i(base), .d_words_i,
        .family_i, .k32_i, .f16_i, .d_i, .wb_word_valid_o(ov[s]),
        .wb_word_lane_o(ol[5*s +: 5]), .wb_word_reg_o(orr[3*s +: 3]),
        .wb_word_data_o(od[32*s +: 32]));
    end
  end
  assign trigger = wv != ov || wl != ol || wr != orr || wd != od;
endmodule
