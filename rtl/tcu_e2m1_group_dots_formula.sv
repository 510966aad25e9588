// tcu_e2m1_dot's group dot products, the synthesis implementation (what
// Yosys maps): dots_o[g*13 +: 13] is the exact sum, in quarters, of the
// signed products of codes a_k = a_i[4k +: 4] and b_k = b_i[4k +: 4] for k
// in group g (16g .. 16g+15). Each product is the two magnitudes in halves
// (tcu_pkg::E2M1_HALVES) multiplied, then added or subtracted as the signs
// say, written as a conditional negation (x ^ -s) + s. Combinational; same
// ports as tcu_e2m1_group_dots_table, proven equal to it by scripts/equiv.sh.
module tcu_e2m1_group_dots_formula #(
  localparam int unsigned K      = tcu_pkg::E2M1_DOT_LANES,
  localparam int unsigned CodeW  = tcu_pkg::fp_width(tcu_pkg::E2M1),
  localparam int unsigned Group  = tcu_pkg::E2M1_GROUP,
  localparam int unsigned Groups = K / Group,
  localparam int unsigned QW     = tcu_pkg::E2M1_GROUP_DOT_WIDTH
) (
  input  logic [K*CodeW-1:0]    a_i,
  input  logic [K*CodeW-1:0]    b_i,
  output logic [Groups*QW-1:0]  dots_o
);

  localparam int unsigned HalvesW = 4;
  localparam logic [8*HalvesW-1:0] HALVES = tcu_pkg::E2M1_HALVES;

  always_comb begin
    for (int unsigned g = 0; g < Groups; g++) begin
      dots_o[g*QW +: QW] = '0;
      for (int unsigned i = g * Group; i < (g + 1) * Group; i++) begin
        dots_o[g*QW +: QW] = dots_o[g*QW +: QW] +
            ((QW'(HALVES[a_i[i*CodeW +: CodeW-1]*HalvesW +: HalvesW] *
                  HALVES[b_i[i*CodeW +: CodeW-1]*HalvesW +: HalvesW]) ^
              {QW{a_i[i*CodeW+CodeW-1] ^ b_i[i*CodeW+CodeW-1]}}) +
             {{(QW - 1){1'b0}}, a_i[i*CodeW+CodeW-1] ^ b_i[i*CodeW+CodeW-1]});
      end
    end
  end

endmodule
