// tcu_word_mux's fast simulation implementation: an indexed part-select,
// which a Verilator model evaluates as one word-aligned copy instead of
// every node of a tree. Same ports as tcu_word_mux; proven equal to
// tcu_word_mux_synth by tcu-formal.
// Simulation flow only: scripts/synth.sh and tcu_tools.phys do not read this file.
module tcu_word_mux_fast #(
  parameter int unsigned  Width = 1,
  parameter int unsigned  Words = 2,
  localparam int unsigned SelW  = Words > 1 ? $clog2(Words) : 1
) (
  input  logic [Words*Width-1:0] data_i,
  input  logic [SelW-1:0]        sel_i,
  output logic [Width-1:0]       data_o
);

  if (Words == (1 << SelW)) begin : g_pow2
    assign data_o = data_i[sel_i*Width +: Width];
  end else begin : g_bounded
    assign data_o = sel_i < Words ? data_i[sel_i*Width +: Width] : '0;
  end

endmodule
