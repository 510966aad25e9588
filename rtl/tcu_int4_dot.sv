// An exact dot product of INT4_DOT_LANES (32) pairs of 4-bit codes, each
// operand .s4 or .u4 by its own signedness bit (golden int4_dot):
//   sum_o = sum_k value(a_k, a_signed_i) * value(b_k, b_signed_i)
// with a_k = a_i[4k +: 4], b_k = b_i[4k +: 4]. The sum lies in
// [-3840, 7200] and is returned exactly, INT4_DOT_WIDTH (14) signed bits.
//
// 32 multipliers (5-bit signed operands: the code with its sign or a zero
// above it) feed a binary adder tree, one bit wider per level. The Stages
// pipeline registers are spread evenly over the six layers (products, five
// adder levels): layer l is followed by floor((l+1)S/6) - floor(lS/6)
// registers, so for Stages >= 1 the output is registered and Stages > 6 puts
// several registers behind a layer. valid_o and sum_o follow valid_i exactly
// Stages cycles later, counting only cycles with en_i high; en_i low holds
// every register.
//
// Two implementations of the same function, modules of their own with this
// port list, chosen by SynthImpl:
// - 1: tcu_int4_dot_synth, the multipliers and the adder tree above, the
//   Stages registers spread over the layers (what Yosys maps: area figures).
// - 0: tcu_int4_dot_fast, each product read from a table and the products
//   summed in the tree's order, computed into the first register and
//   carried through Stages - 1 more (fast in Verilator).
// tcu-formal proves the two equal cycle for cycle (Yosys); both are
// tested against the golden int4_dot (tests/rtl/test_rtl_int4_dot.cpp).
module tcu_int4_dot #(
  parameter int unsigned  Stages    = tcu_pkg::IntStages,
  parameter bit           SynthImpl = tcu_pkg::SynthImpl,
  localparam int unsigned Lanes  = tcu_pkg::INT4_DOT_LANES,
  localparam int unsigned Bits   = tcu_pkg::INT4_BITS,
  localparam int unsigned SumW   = tcu_pkg::INT4_DOT_WIDTH
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  input  logic                   en_i,
  input  logic                   valid_i,
  input  logic                   a_signed_i,
  input  logic                   b_signed_i,
  input  logic [Lanes*Bits-1:0]  a_i,
  input  logic [Lanes*Bits-1:0]  b_i,
  output logic                   valid_o,
  output logic signed [SumW-1:0] sum_o
);

  if (SynthImpl) begin : g_synth
    tcu_int4_dot_synth #(.Stages(Stages)) u_impl (.*);
  end else begin : g_fast
    tcu_int4_dot_fast #(.Stages(Stages)) u_impl (.*);
  end

endmodule
