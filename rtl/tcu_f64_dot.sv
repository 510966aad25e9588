// One D element of m8n8k4 .f64, as the DMMA unit computes it (golden
// f64_dot): a chain of four binary64 fused multiply-adds from C,
//   acc = c_i;  acc = fma(a_k, b_k, acc) for k = 0..3;  d_o = acc,
// each step rounded in rnd_i, with the DMMA NaN rules (tcu_fma with
// CanonicalNan = 0).
//
// Operands are flat: a_k = a_i[k*Width +: Width], b_k = b_i[k*Width +: Width].
// valid_o and d_o appear exactly 4 * FmaStages cycles after valid_i, counting
// cycles with en_i high; en_i low holds every register.
//
// The data inputs are public_flat_rd and the unit uses no functions, so all
// instances share one copy of the Verilated code (see tcu_fma).
module tcu_f64_dot #(
  parameter int unsigned  FmaStages = tcu_pkg::FmaStages,
  localparam int unsigned DotK      = 4,  // k of m8n8k4
  localparam int unsigned Width     = tcu_pkg::fp_width(tcu_pkg::FP64)
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  input  logic                  en_i,
  input  logic                  valid_i /* verilator public_flat_rd */,
  input  logic [DotK*Width-1:0] a_i /* verilator public_flat_rd */,
  input  logic [DotK*Width-1:0] b_i /* verilator public_flat_rd */,
  input  logic [Width-1:0]      c_i /* verilator public_flat_rd */,
  input  tcu_pkg::roundmode_e   rnd_i /* verilator public_flat_rd */,
  output logic                  valid_o,
  output logic [Width-1:0]      d_o
);

  localparam int unsigned K     = DotK;
  localparam int unsigned RndW  = 2;
  localparam int unsigned PairW = 2 * Width;
  // Before step k, the operands still to come ride along as one vector,
  // {rnd, a_3, b_3, .., a_k, b_k} (OpsW(k) = RndW + (K-k) * PairW bits, at
  // OpsOff(k) in step_ops): step k takes the lowest pair and hands the rest
  // on in its FMA's aux bits. After the last step only rnd is left.
  localparam int unsigned OpsTotalW = (K + 1) * RndW + PairW * K * (K + 1) / 2;

  logic [K:0]             step_valid;
  logic [(K+1)*Width-1:0] step_acc;
  logic [OpsTotalW-1:0]   step_ops;

  assign step_valid[0]             = valid_i;
  assign step_acc[0 +: Width]      = c_i;
  assign step_ops[K*PairW +: RndW] = rnd_i;
  for (genvar k = 0; k < K; k++) begin : g_pair
    assign step_ops[k*PairW +: PairW] = {a_i[k*Width +: Width], b_i[k*Width +: Width]};
  end

  for (genvar k = 0; k < K; k++) begin : g_step
    localparam int unsigned OpsW    = RndW + (K - k) * PairW;
    localparam int unsigned OpsOff  = k * RndW + PairW * (k * K - k * (k - 1) / 2);
    localparam int unsigned NextOff = OpsOff + OpsW;
    logic [OpsW-1:0] ops;
    assign ops = step_ops[OpsOff +: OpsW];

    tcu_fma #(
      .Format      (tcu_pkg::FP64),
      .Stages      (FmaStages),
      .CanonicalNan(1'b0),
      .AuxWidth    (OpsW - PairW)
    ) u_fma (
      .clk_i   (clk_i),
      .rst_ni  (rst_ni),
      .en_i    (en_i),
      .valid_i (step_valid[k]),
      .a_i     (ops[Width +: Width]),
      .b_i     (ops[0 +: Width]),
      .c_i     (step_acc[k*Width +: Width]),
      .rnd_i   (ops[OpsW-1 -: RndW]),
      .aux_i   (ops[OpsW-1:PairW]),
      .valid_o (step_valid[k+1]),
      .result_o(step_acc[(k+1)*Width +: Width]),
      .aux_o   (step_ops[NextOff +: OpsW - PairW])
    );
  end

  assign valid_o = step_valid[K];
  assign d_o     = step_acc[K*Width +: Width];

  logic unused_rnd;
  assign unused_rnd = ^step_ops[OpsTotalW-1 -: RndW];

endmodule
