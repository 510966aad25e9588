// tcu_word_mux's synthesis implementation (what Yosys maps): a balanced tree
// of 2:1 multiplexers, one level per select bit, so selects with constant
// bits (a unit's fixed part of a slice index) reduce to the words they can
// reach; an indexed part-select would map to a shifter as wide as data_i.
// Same ports as tcu_word_mux; proven equal to tcu_word_mux_fast by
// tcu-formal.
module tcu_word_mux_synth #(
  parameter int unsigned  Width = 1,
  parameter int unsigned  Words = 2,
  localparam int unsigned SelW  = Words > 1 ? $clog2(Words) : 1
) (
  input  logic [Words*Width-1:0] data_i,
  input  logic [SelW-1:0]        sel_i,
  output logic [Width-1:0]       data_o
);

  // The nodes are not traced (the waveform shows data_i and data_o).
  /* verilator tracing_off */
  // Node j of level l: level 0 the input words (zero past the last one),
  // node j of level l + 1 select bit l's choice of nodes 2j and 2j + 1.
  // Each node is a word of its own: with one packed vector a level, the
  // Verilated model would rebuild the whole level for each node's write (the
  // f16 engine's 256-word C mux alone would be 39 MB of C++).
  for (genvar l = 0; l <= SelW; l++) begin : g_level
    for (genvar j = 0; j < (1 << (SelW - l)); j++) begin : g_node
      logic [Width-1:0] word;
      if (l == 0 && j < Words) begin : g_input
        assign word = data_i[j*Width +: Width];
      end else if (l == 0) begin : g_pad
        assign word = '0;
      end else begin : g_mux
        assign word = sel_i[l-1] ? g_level[l-1].g_node[2*j+1].word : g_level[l-1].g_node[2*j].word;
      end
    end
  end

  assign data_o = g_level[SelW].g_node[0].word;

endmodule
