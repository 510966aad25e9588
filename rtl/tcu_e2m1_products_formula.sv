// tcu_e2m1_dot's products, the synthesis implementation (what Yosys maps):
// prods_o[k*13 +: 13] is the signed product, in quarters, of codes a_k =
// a_i[4k +: 4] and b_k = b_i[4k +: 4]: the two magnitudes in halves
// (tcu_pkg::E2M1_HALVES) multiplied, then negated when the signs differ,
// written as a conditional negation (x ^ -s) + s. Combinational; same ports
// as tcu_e2m1_products_table, proven equal to it by scripts/equiv.sh.
module tcu_e2m1_products_formula #(
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

  for (genvar k = 0; k < K; k++) begin : g_prod
    logic neg;
    assign neg = a_i[k*CodeW+CodeW-1] ^ b_i[k*CodeW+CodeW-1];
    assign prods_o[k*QW +: QW] =
        (QW'(HALVES[a_i[k*CodeW +: CodeW-1]*HalvesW +: HalvesW] *
             HALVES[b_i[k*CodeW +: CodeW-1]*HalvesW +: HalvesW]) ^ {QW{neg}}) +
        {{(QW - 1){1'b0}}, neg};
  end

endmodule
