// The router's scatter (kind comb): tcu_router_scatter_synth (synthesis)
// against tcu_router_scatter_fast (fast), every slot. Wider scatters go by
// the lemma of scatter_slots.sv: each slot is the one-slot form on its own
// word index. Plant = 1 flips bit 0 of the fast form's word in the last slot.
module eq_miter #(
  parameter int unsigned DWordsPerCycle = 32,
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
  logic [W-1:0]    gv, fv, slot_differs;
  logic [5*W-1:0]  gl, fl;
  logic [3*W-1:0]  gr, fr;
  logic [32*W-1:0] gd, fd, fd_seen;
  tcu_router_scatter_synth #(.DWordsPerCycle(W)) u_gold (.busy_i, .base_i, .d_words_i,
    .family_i, .k32_i, .f16_i, .d_i, .wb_word_valid_o(gv), .wb_word_lane_o(gl),
    .wb_word_reg_o(gr), .wb_word_data_o(gd));
  tcu_router_scatter_fast #(.DWordsPerCycle(W)) u_gate (.busy_i, .base_i, .d_words_i,
    .family_i, .k32_i, .f16_i, .d_i, .wb_word_valid_o(fv), .wb_word_lane_o(fl),
    .wb_word_reg_o(fr), .wb_word_data_o(fd));
  // A word's data is meaningful with its valid bit only.
  for (genvar s = 0; s < W; s++) begin : g_slot
    assign fd_seen[32*s +: 32] = fd[32*s +: 32] ^ 32'(Plant && s == W - 1);
    assign slot_differs[s] = gv[s] != fv[s] || gl[5*s +: 5] != fl[5*s +: 5] ||
                             gr[3*s +: 3] != fr[3*s +: 3] ||
                             (gv[s] && gd[32*s +: 32] != fd_seen[32*s +: 32]);
  end
  assign trigger = |slot_differs;
endmodule
