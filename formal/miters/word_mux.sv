// The word mux (kind comb): tcu_word_mux_synth (synthesis) against
// tcu_word_mux_fast (fast), Words words of Width bits. Plant = 1 flips
// every bit of the fast form's word where sel_i is all ones.
module eq_miter #(
  parameter int unsigned  Width = 1,
  parameter int unsigned  Words = 2,
  parameter bit           Plant = 1'b0,
  localparam int unsigned SelW  = Words > 1 ? $clog2(Words) : 1
) (
  input  logic [Words*Width-1:0] data_i,
  input  logic [SelW-1:0]        sel_i,
  output logic                   trigger
);
  logic [Width-1:0] g, f;
  tcu_word_mux_synth #(.Width(Width), .Words(Words)) u_gold (.data_i, .sel_i, .data_o(g));
  tcu_word_mux_fast #(.Width(Width), .Words(Words)) u_gate (.data_i, .sel_i, .data_o(f));
  assign trigger = g != (Plant ? f ^ Width'(sel_i == '1) : f);
endmodule
