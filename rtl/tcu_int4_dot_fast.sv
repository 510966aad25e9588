// tcu_int4_dot's fast simulation implementation: each lane's product read
// from a 1,024-entry table (index: the two signedness bits and the two
// codes), the products summed in the order of tcu_int4_dot_synth's adder
// tree (lanes 2t and 2t+1 first, then pairs of those, five levels). The
// sums are 16-bit: the table holds each product sign-extended to 16 bits
// (the exact sum needs 14), no level needs a sign extension, and the low
// SumW bits of every sum are the tree form's. A lane's index takes two
// host operations: the codes of a and b are interleaved a 32-bit word
// (eight lanes) at a time, even lanes in one word and odd lanes in
// another, each byte an index's low eight bits.
// Summing in the tree's order is what lets tcu-formal prove the pair
// by SAT sweeping (every product and every partial sum of one form equals
// one of the other's), where a sum in another order (bit planes) left the
// proof undecided. The sum is computed into the first register and carried
// through Stages - 1 more (tcu_pipe_reg), so valid_o and sum_o keep
// tcu_int4_dot's timing. The data inputs are public_flat_rd, so all
// instances share one copy of the Verilated code. Same ports and parameters
// as tcu_int4_dot; proven equal to tcu_int4_dot_synth by tcu-formal.
// Simulation flow only: scripts/synth.sh and tcu_tools.phys do not read this file.
module tcu_int4_dot_fast #(
  parameter int unsigned  Stages = tcu_pkg::IntStages,
  localparam int unsigned Lanes  = tcu_pkg::INT4_DOT_LANES,
  localparam int unsigned Bits   = tcu_pkg::INT4_BITS,
  localparam int unsigned SumW   = tcu_pkg::INT4_DOT_WIDTH
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  input  logic                   en_i,
  input  logic                   valid_i /* verilator public_flat_rd */,
  input  logic                   a_signed_i /* verilator public_flat_rd */,
  input  logic                   b_signed_i /* verilator public_flat_rd */,
  input  logic [Lanes*Bits-1:0]  a_i /* verilator public_flat_rd */,
  input  logic [Lanes*Bits-1:0]  b_i /* verilator public_flat_rd */,
  output logic                   valid_o,
  output logic signed [SumW-1:0] sum_o
);

  if (Lanes != 32 || Bits != 4) begin : g_bad_lanes
    $fatal(1, "the simulation description assumes 32 lanes of 4 bits");
  end

  // Entry {a_signed, b_signed, b code, a code}: the product of the codes,
  // each read as signed when its bit is set, sign-extended to 16 bits
  // (16, not 32: Yosys maps the 32 reads of the table to half the logic in
  // tcu-formal, and the Verilated sums cost the same).
  logic [15:0] products [1024];
  initial begin
    for (int unsigned i = 0; i < 1024; i++) begin
      logic [9:0] idx;
      idx         = 10'(i);
      products[i] = 16'($signed({idx[9] & idx[3], idx[3:0]}) *
                        $signed({idx[8] & idx[7], idx[7:4]}));
    end
  end

  function automatic logic [SumW-1:0] dot_lut(logic [Lanes*Bits-1:0] a,
                                              logic [Lanes*Bits-1:0] b, logic a_signed,
                                              logic b_signed);
    logic [31:0] aw, bw, even, odd;
    logic [15:0] sum [2*Lanes];  // the tree: 0..31 the products, then each level
    for (int unsigned w = 0; w < Lanes * Bits / 32; w++) begin
      aw   = a[32*w +: 32];
      bw   = b[32*w +: 32];
      even = (aw & 32'h0f0f_0f0f) | ((bw & 32'h0f0f_0f0f) << 4);
      odd  = ((aw >> 4) & 32'h0f0f_0f0f) | (bw & 32'hf0f0_f0f0);
      for (int unsigned j = 0; j < 4; j++) begin
        sum[8*w+2*j]   = products[{a_signed, b_signed, even[8*j +: 8]}];
        sum[8*w+2*j+1] = products[{a_signed, b_signed, odd[8*j +: 8]}];
      end
    end
    // Node Lanes + t sums nodes 2t and 2t+1: level by level, as the tree.
    for (int unsigned t = 0; t < Lanes - 1; t++) sum[Lanes+t] = sum[2*t] + sum[2*t+1];
    dot_lut = SumW'(sum[2*Lanes-2]);
  endfunction

  if (Stages == 0) begin : g_comb
    assign valid_o = valid_i;
    assign sum_o   = dot_lut(a_i, b_i, a_signed_i, b_signed_i);

    logic unused_ctrl;
    assign unused_ctrl = ^{clk_i, rst_ni, en_i};
  end else begin : g_regs
    logic            v_q;
    logic [SumW-1:0] s_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) v_q <= 1'b0;
      else if (en_i) v_q <= valid_i;
    end
    always_ff @(posedge clk_i) begin
      if (en_i && valid_i) s_q <= dot_lut(a_i, b_i, a_signed_i, b_signed_i);
    end
    tcu_pipe_reg #(.Width(SumW), .Depth(Stages - 1)) u_more (
      .clk_i, .rst_ni, .en_i, .valid_i(v_q), .data_i(s_q), .valid_o(valid_o), .data_o(sum_o));
  end

endmodule
