// tcu_word_mux's synthesis implementation (what Yosys maps): a balanced tree
// of 2:1 multiplexers, one level per select bit, so selects with constant
// bits (a unit's fixed part of a slice index) reduce to the words they can
// reach; an indexed part-select would map to a shifter as wide as data_i.
// Same ports as tcu_word_mux; proven equal to tcu_word_mux_index by
// scripts/equiv.sh.
module tcu_word_mux_tree #(
  parameter int unsigned  Width = 1,
  parameter int unsigned  Words = 2,
  localparam int unsigned SelW  = Words > 1 ? $clog2(Words) : 1
) (
  input  logic [Words*Width-1:0] data_i,
  input  logic [SelW-1:0]        sel_i,
  output logic [Width-1:0]       data_o
);

  // Level l holds 2^(SelW-l) words; level 0 is the input padded with zeros.
  for (genvar l = 0; l <= SelW; l++) begin : g_level
    localparam int unsigned Count = 1 << (SelW - l);
    logic [Count*Width-1:0] words;
    if (l == 0) begin : g_leaf
      if (Count > Words) begin : g_pad
        assign words = {{((Count - Words) * Width){1'b0}}, data_i};
      end else begin : g_full
        assign words = data_i;
      end
    end else begin : g_node
      for (genvar j = 0; j < Count; j++) begin : g_mux
        assign words[j*Width +: Width] = sel_i[l-1] ? g_level[l-1].words[(2*j+1)*Width +: Width]
                                                    : g_level[l-1].words[(2*j)*Width +: Width];
      end
    end
  end

  assign data_o = g_level[SelW].words;

endmodule
