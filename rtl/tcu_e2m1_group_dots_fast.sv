// tcu_e2m1_dot's group dots, the fast simulation implementation: for each
// group of E2M1_GROUP lanes the exact sum of the signed products of the
// codes in quarters, as tcu_e2m1_group_dots_synth (same ports), each
// product read from a table by {a code, b code} filled at time 0 by the
// same product and conditional negation (one load per product in the
// simulator instead of two lookups, a multiply and a negation). The reads
// are summed where they are made: a vector of the 64 products between the
// two would cost Verilator a field insert and extract per product.
// Combinational; proven equal to the formula by tcu-formal.
// Simulation flow only: scripts/synth.sh and tcu_tools.phys do not read this file.
module tcu_e2m1_group_dots_fast #(
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

  // Each group's sum is kept in a variable of the block (a local of the
  // simulator's code, held in a register) and written to its field of
  // dots_o once: summed in the field itself, every product would read and
  // write back the whole packed output.
  always_comb begin
    logic [QW-1:0] sum;
    for (int unsigned g = 0; g < Groups; g++) begin
      sum = '0;
      for (int unsigned k = g * Group; k < (g + 1) * Group; k++) begin
        sum = sum + prod_q[{a_i[k*CodeW +: CodeW], b_i[k*CodeW +: CodeW]}];
      end
      dots_o[g*QW +: QW] = sum;
    end
  end

endmodule
