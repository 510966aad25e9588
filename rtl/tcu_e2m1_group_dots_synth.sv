// tcu_e2m1_dot's group dots, the synthesis implementation (what Yosys maps):
// for each group of E2M1_GROUP lanes the exact sum, in quarters, of the
// signed products of the e2m1 codes, each product the two magnitudes in
// halves (E2M1_HALVES: a lookup of three bits) multiplied and negated when
// the signs differ. Combinational; tcu-formal proves it equal to
// tcu_e2m1_group_dots_fast, the fast simulation implementation.
module tcu_e2m1_group_dots_synth #(
  localparam int unsigned K      = tcu_pkg::E2M1_DOT_LANES,
  localparam int unsigned Group  = tcu_pkg::E2M1_GROUP,
  localparam int unsigned Groups = K / Group,
  localparam int unsigned CodeW  = tcu_pkg::fp_width(tcu_pkg::E2M1),
  localparam int unsigned QW     = tcu_pkg::E2M1_GROUP_DOT_WIDTH
) (
  input  logic [K*CodeW-1:0]   a_i,
  input  logic [K*CodeW-1:0]   b_i,
  output logic [Groups*QW-1:0] dots_o
);

  localparam int unsigned HalvesW = 4;
  localparam logic [8*HalvesW-1:0] HALVES = tcu_pkg::E2M1_HALVES;

  logic [K*QW-1:0] prods;
  for (genvar k = 0; k < K; k++) begin : g_prod
    logic neg;
    assign neg = a_i[k*CodeW+CodeW-1] ^ b_i[k*CodeW+CodeW-1];
    assign prods[k*QW +: QW] =
        (QW'(HALVES[a_i[k*CodeW +: CodeW-1]*HalvesW +: HalvesW] *
             HALVES[b_i[k*CodeW +: CodeW-1]*HalvesW +: HalvesW]) ^ {QW{neg}}) +
        {{(QW - 1){1'b0}}, neg};
  end

  always_comb begin
    for (int unsigned g = 0; g < Groups; g++) begin
      dots_o[g*QW +: QW] = '0;
      for (int unsigned k = g * Group; k < (g + 1) * Group; k++) begin
        dots_o[g*QW +: QW] = dots_o[g*QW +: QW] + prods[k*QW +: QW];
      end
    end
  end

endmodule
