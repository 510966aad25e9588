// IEEE 754 fused multiply-add: result_o = round(a_i * b_i + c_i), one
// rounding, in the rounding mode rnd_i (RNE, RTZ, RDN, RUP). Subnormal inputs
// and outputs are handled in full; overflow gives Inf or the largest finite
// value as the mode says; an exact zero result is +0, or -0 in RDN, except
// that a sum of two zeros of the same sign keeps that sign.
//
// NaN results (CanonicalNan):
//   1: every NaN result is the canonical pattern {0, all ones} (0x7fffffff
//      for FP32, tcu_pkg::F32_CANONICAL_NAN), as the f16 path needs.
//   0: the DMMA rules of the f64 path: a NaN operand comes out quieted with
//      its sign and payload, B's NaN first, then C's, then A's; an invalid
//      operation without a NaN operand (Inf * 0, Inf - Inf) gives the default
//      NaN (tcu_pkg::F64_DEFAULT_NAN for FP64).
//
// Timing: valid_o and result_o appear exactly Stages cycles after valid_i
// (combinational for Stages = 0), counting only cycles with en_i high; with
// en_i low every register holds. aux_i travels alongside, unchanged.
//
// Two forms of the same function and latency, chosen by Stages:
// - Stages < tcu_pkg::FMA_STEPS_FROM: tcu_fma_three, three stages of logic
//   (classify, multiply and align; add, absolute value and leading zeros;
//   normalise and round) with registers after the first two as Stages
//   allows and the rest at the output.
// - from there on: tcu_fma_steps, an ordered list of steps of bounded depth
//   whose registers one rule (tcu_pkg::fma_cuts) places from the steps'
//   depths (InFo4 and OutFo4: logic of the enclosing unit in the first and
//   last cycle), so deep settings buy clock.
// tests/rtl/test_fma.cpp checks each form against the golden FMA at two
// settings (bit-exact results, exact latency under stalls).
module tcu_fma #(
  parameter tcu_pkg::fp_format_e Format       = tcu_pkg::FP64,
  parameter int unsigned         Stages       = 2,
  parameter bit                  CanonicalNan = 1'b0,
  parameter int unsigned         AuxWidth     = 1,
  parameter int unsigned         InFo4        = 0,
  parameter int unsigned         OutFo4       = 0,
  localparam int unsigned        Width        = tcu_pkg::fp_width(Format)
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  input  logic                en_i,
  input  logic                valid_i,
  input  logic [Width-1:0]    a_i,
  input  logic [Width-1:0]    b_i,
  input  logic [Width-1:0]    c_i,
  input  tcu_pkg::roundmode_e rnd_i,
  input  logic [AuxWidth-1:0] aux_i,
  output logic                valid_o,
  output logic [Width-1:0]    result_o,
  output logic [AuxWidth-1:0] aux_o
);
  // The chooser dissolves into its parent in Verilator (no module of its
  // own to evaluate, no port copies an evaluation), so the form's code runs
  // as if the parent instantiated it.
  /* verilator inline_module */

  if (Stages >= tcu_pkg::FMA_STEPS_FROM) begin : g_steps
    tcu_fma_steps #(.Format(Format), .Stages(Stages), .CanonicalNan(CanonicalNan),
                    .AuxWidth(AuxWidth), .InFo4(InFo4), .OutFo4(OutFo4)) u_impl (.*);
  end else begin : g_three
    tcu_fma_three #(.Format(Format), .Stages(Stages), .CanonicalNan(CanonicalNan),
                    .AuxWidth(AuxWidth)) u_impl (.*);
  end

endmodule
