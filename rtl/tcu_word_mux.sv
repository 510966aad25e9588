// Selects word sel_i of Words words (word w at data_i[w*Width +: Width]);
// selecting past the last word gives zero. Combinational.
//
// Two implementations of the same function with this port list, chosen by
// SynthImpl: tcu_word_mux_synth (1: a balanced tree of 2:1 multiplexers, what
// Yosys maps) and tcu_word_mux_fast (0: an indexed part-select, one copy in
// a Verilator model). tcu-formal proves them equal (Yosys).
module tcu_word_mux #(
  parameter int unsigned  Width     = 1,
  parameter int unsigned  Words     = 2,
  parameter bit           SynthImpl = tcu_pkg::SynthImpl,
  localparam int unsigned SelW      = Words > 1 ? $clog2(Words) : 1
) (
  input  logic [Words*Width-1:0] data_i,
  input  logic [SelW-1:0]        sel_i,
  output logic [Width-1:0]       data_o
);

  if (SynthImpl) begin : g_synth
    tcu_word_mux_synth #(.Width(Width), .Words(Words)) u_impl (.*);
  end else begin : g_fast
    tcu_word_mux_fast #(.Width(Width), .Words(Words)) u_impl (.*);
  end

endmodule
