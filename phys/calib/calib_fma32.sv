// An IEEE 754 binary32 fused multiply-add, round to nearest even, one
// cycle: result_o = fmaf(a_i, b_i, c_i) registered (the operands registered
// at the input, the result at the output, so the timed path is the FMA's
// own). The project's tcu_fma at Format FP32, Stages 0, CanonicalNan 1 (a
// NaN result is 0x7fffffff). A calibration design of tcu_tools.phys
// (docs/guide/energy.md, "Calibration"): not part of the tensor-core unit.
module calib_fma32 (
  input  logic        clk_i,
  input  logic [31:0] a_i,
  input  logic [31:0] b_i,
  input  logic [31:0] c_i,
  output logic [31:0] result_o
);
  logic [31:0] a_q, b_q, c_q, result_d;
  logic        unused_valid;
  logic        unused_aux;

  always_ff @(posedge clk_i) begin
    a_q      <= a_i;
    b_q      <= b_i;
    c_q      <= c_i;
    result_o <= result_d;
  end

  tcu_fma #(
    .Format      (tcu_pkg::FP32),
    .Stages      (0),
    .CanonicalNan(1'b1),
    .AuxWidth    (1)
  ) u_fma (
    .clk_i,
    .rst_ni  (1'b1),
    .en_i    (1'b1),
    .valid_i (1'b1),
    .a_i     (a_q),
    .b_i     (b_q),
    .c_i     (c_q),
    .rnd_i   (tcu_pkg::RNE),
    .aux_i   (1'b0),
    .valid_o (unused_valid),
    .result_o(result_d),
    .aux_o   (unused_aux)
  );
endmodule
