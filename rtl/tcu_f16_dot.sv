// One D element of m8n8k4 .f16 in the order sm_90's fp32 emulation uses
// (golden f16_dot_f32 / f16_dot_f16): five levels of FP32 fused
// multiply-adds, rounded to nearest even, subnormals kept, canonical NaNs,
// an f16 D narrowed from the last (the order: tcu_f16_dot_synth). valid_o
// and d_o follow valid_i exactly 5 * FmaStages cycles later, counting only
// cycles with en_i high; en_i low holds every register.
//
// Two implementations of the same function, modules of their own with this
// port list, chosen by SynthImpl:
// - 1: tcu_f16_dot_synth, a chain of tcu_fma instances, FmaStages registers
//   each (what Yosys maps: area figures).
// - 0: tcu_f16_dot_fast, the whole chain computed at once, only in a cycle
//   that takes an input, into the first register, and carried through
//   5 * FmaStages - 1 more (fast in Verilator).
// tcu-formal proves the two equal cycle for cycle (Yosys, ABC); both
// are tested against the golden model (tests/rtl/test_f16_dot.cpp).
module tcu_f16_dot #(
  parameter int unsigned  FmaStages = tcu_pkg::FmaStages,
  parameter bit           SynthImpl = tcu_pkg::SynthImpl,
  localparam int unsigned DotK      = 4,  // k of m8n8k4
  localparam int unsigned HalfWidth = tcu_pkg::fp_width(tcu_pkg::FP16),
  localparam int unsigned Width     = tcu_pkg::fp_width(tcu_pkg::FP32)
) (
  input  logic                      clk_i,
  input  logic                      rst_ni,
  input  logic                      en_i,
  input  logic                      valid_i,
  input  logic [DotK*HalfWidth-1:0] a_i,
  input  logic [DotK*HalfWidth-1:0] b_i,
  input  logic [Width-1:0]          c_i,
  input  logic                      c_f16_i,
  input  logic                      d_f16_i,
  output logic                      valid_o,
  output logic [Width-1:0]          d_o
);

  if (SynthImpl) begin : g_synth
    tcu_f16_dot_synth #(.FmaStages(FmaStages)) u_impl (.*);
  end else begin : g_fast
    tcu_f16_dot_fast #(.FmaStages(FmaStages)) u_impl (.*);
  end

endmodule
