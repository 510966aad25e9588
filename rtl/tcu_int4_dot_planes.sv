// tcu_int4_dot's fast simulation implementation: the sum over bit planes,
// sum over q of w_q * (U_q - 16 * a_signed * H_q), with U_q = sum_k
// a_k[3:0] * b_k[q] and H_q = sum_k a_k[3] * b_k[q], w_q = 2^q except w_3 =
// -8 for a signed b: four 8-code words at a time with field-wise (SWAR)
// masks and sums, about a tenth of the host operations of 32 separate
// products. It is computed into the first register and carried through
// Stages - 1 more (tcu_pipe_reg), so valid_o and sum_o keep tcu_int4_dot's
// timing. The data inputs are public_flat_rd, so all instances share one
// copy of the Verilated code. Same ports and parameters as tcu_int4_dot;
// proven equal to tcu_int4_dot_tree by scripts/equiv.sh.
// Simulation flow only: scripts/synth.sh and tools/tcu_phys do not read this file.
module tcu_int4_dot_planes #(
  parameter int unsigned  Stages = 2,
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

  // U_q: each word's codes masked by plane q of b (a code times its bit),
  // then summed field-wise: nibbles to bytes (<= 30 each), four words (<=
  // 120), bytes to halves, halves to U_q (<= 480). H_q: the sign bits of a
  // ANDed with plane q, nibble fields summed over the words (<= 4), then
  // bytes (<= 8) and across them by a multiply (<= 32, no carries between
  // the byte sums).
  function automatic logic [SumW-1:0] dot_planes(logic [Lanes*Bits-1:0] a,
                                                 logic [Lanes*Bits-1:0] b, logic a_signed,
                                                 logic b_signed);
    logic [31:0]        aw, bq, x, u, h;
    logic signed [31:0] term, sum;
    sum = '0;
    for (int unsigned q = 0; q < Bits; q++) begin
      u = '0;
      h = '0;
      for (int unsigned w = 0; w < Lanes * Bits / 32; w++) begin
        aw = a[32*w +: 32];
        bq = (b[32*w +: 32] >> q) & 32'h1111_1111;
        x  = aw & (bq * 32'h0000_000f);
        u  = u + (x & 32'h0f0f_0f0f) + ((x >> 4) & 32'h0f0f_0f0f);
        h  = h + ((aw >> 3) & bq);
      end
      u    = (u & 32'h00ff_00ff) + ((u >> 8) & 32'h00ff_00ff);
      u    = (u & 32'h0000_ffff) + (u >> 16);
      h    = (h & 32'h0f0f_0f0f) + ((h >> 4) & 32'h0f0f_0f0f);
      h    = (h * 32'h0101_0101) >> 24;
      term = a_signed ? $signed(u) - $signed(h << 4) : $signed(u);
      sum  = (q == Bits - 1 && b_signed) ? sum - (term <<< (Bits - 1)) : sum + (term <<< q);
    end
    dot_planes = SumW'(sum);
  endfunction

  if (Stages == 0) begin : g_comb
    assign valid_o = valid_i;
    assign sum_o   = dot_planes(a_i, b_i, a_signed_i, b_signed_i);

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
      if (en_i && valid_i) s_q <= dot_planes(a_i, b_i, a_signed_i, b_signed_i);
    end
    tcu_pipe_reg #(.Width(SumW), .Depth(Stages - 1)) u_more (
      .clk_i, .rst_ni, .en_i, .valid_i(v_q), .data_i(s_q), .valid_o(valid_o), .data_o(sum_o));
  end

endmodule
