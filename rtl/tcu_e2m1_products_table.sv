// tcu_e2m1_dot's products, the fast simulation implementation: the same
// signed products as tcu_e2m1_products_formula (same ports), each read from
// a table by {a code, b code} filled at time 0 by the same product and
// conditional negation (one load per product in the simulator instead of
// two lookups, a multiply and a negation). Combinational; proven equal to
// the formula by scripts/equiv.sh.
// Simulation flow only: scripts/synth.sh and tools/tcu_phys do not read this file.
module tcu_e2m1_products_table #(
  localparam int unsigned K     = tcu_pkg::E2M1_DOT_LANES,
  localparam int unsigned CodeW = tcu_pkg::fp_width(tcu_pkg::E2M1),
  localparam int unsigned QW    = tcu_pkg::E2M1_GROUP_DOT_WIDTH
) (
  input  logic [K*CodeW-1:0] a_i,
  input  logic [K*CodeW-1:0] b_i,
  output logic [K*QW-1:0]    prods_o
);

  localparam int unsigned HalvesW = 4;
  localparam logic [8*HalvesW-1:0] HALVES = tcu_pkg::E2M1_HALVES;

  logic [QW-1:0] prod_q [2**(2*CodeW)];
  initial begin
    for (int unsigned i = 0; i < 2**(2*CodeW); i++) begin
      logic [CodeW-1:0] a, b;
      logic             neg;
      {a, b}    = (2 * CodeW)'(i);
      neg       = a[CodeW-1] ^ b[CodeW-1];
      prod_q[i] = (QW'(HALVES[a[CodeW-2:0]*HalvesW +: HalvesW] *
                       HALVES[b[CodeW-2:0]*HalvesW +: HalvesW]) ^ {QW{neg}}) + QW'(neg);
    end
  end

  always_comb begin
    for (int unsigned k = 0; k < K; k++) begin
      prods_o[k*QW +: QW] = prod_q[{a_i[k*CodeW +: CodeW], b_i[k*CodeW +: CodeW]}];
    end
  end

endmodule
