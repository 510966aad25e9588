// A beat of tcu_operand_router's scatter, the fast simulation
// implementation (same ports and function as tcu_router_scatter_synth): one
// loop over the slots, with only the C/D case of the layout formulas
// (tcu_pkg::frag_cd_place, which frag_place uses for C and D) and an indexed
// part-select, so that a beat costs a few operations a word rather than a
// layout instance per slot. Combinational.
// Simulation flow only: scripts/synth.sh and tcu_tools.phys do not read this file.
module tcu_router_scatter_fast #(
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

  // Simulation: the same selection as one loop over the slots, with only
  // the C/D case of the layout formulas (tcu_pkg::frag_cd_place, which
  // frag_place uses for C and D), so that a beat costs a few operations a
  // word rather than a layout instance per slot.
  always_comb begin
    for (int unsigned s = 0; s < DWordsPerCycle; s++) begin
      logic [9:0]  idx;
      logic [11:0] cd;
      idx                        = base_i + 10'(s);
      cd                         = tcu_pkg::frag_cd_place(family_i, k32_i, f16_i, idx[4:0],
                                                          idx[7:5]);
      wb_word_data_o[32*s +: 32] = d_i[{cd[7:0], 5'h00} +: 32];
      wb_word_valid_o[s]         = busy_i && {1'b0, idx[7:5]} < cd[11:8] && idx < d_words_i;
      wb_word_lane_o[5*s +: 5]   = idx[4:0];
      wb_word_reg_o[3*s +: 3]    = idx[7:5];
    end
  end

endmodule
