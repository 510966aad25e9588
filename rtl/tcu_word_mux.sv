// Selects word sel_i of Words words (word w at data_i[w*Width +: Width]);
// selecting past the last word gives zero. Combinational.
//
// Two implementations of the same function with this port list, chosen by
// SynthImpl: tcu_word_mux_tree (1: a balanced tree of 2:1 multiplexers, what
// Yosys maps) and the indexed part-select below (0: one copy in a Verilator
// model). The part-select is written here rather than as a module of its
// own: the Verilated models keep every module a class (-fno-inline), and an
// instance below this one would copy data_i, up to 4,096 bits, once more at
// every evaluation of each of the datapath's muxes (the int4 and e2m1
// engines ran up to a fifth slower with it). scripts/equiv.sh proves this
// module at SynthImpl = 0 equal to tcu_word_mux_tree (Yosys).
module tcu_word_mux #(
  parameter int unsigned  Width     = 1,
  parameter int unsigned  Words     = 2,
  parameter bit           SynthImpl = 1'b0,
  localparam int unsigned SelW      = Words > 1 ? $clog2(Words) : 1
) (
  input  logic [Words*Width-1:0] data_i,
  input  logic [SelW-1:0]        sel_i,
  output logic [Width-1:0]       data_o
);

  if (SynthImpl) begin : g_tree
    tcu_word_mux_tree #(.Width(Width), .Words(Words)) u_impl (.*);
  end else if (Words == (1 << SelW)) begin : g_index
    assign data_o = data_i[sel_i*Width +: Width];
  end else begin : g_index_bounded
    assign data_o = sel_i < Words ? data_i[sel_i*Width +: Width] : '0;
  end

endmodule
