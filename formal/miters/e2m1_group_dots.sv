// The e2m1 group dots (kind aig): tcu_e2m1_group_dots_synth (synthesis)
// against tcu_e2m1_group_dots_fast (fast). Plant = 1 flips bit 0 of the
// fast form's first group dot where a_i[0] and b_i[0] are both set.
module eq_miter #(parameter bit Plant = 1'b0) (
  input  logic [255:0] a_i, b_i,
  output logic         trigger
);
  logic [4*13-1:0] g, f;
  tcu_e2m1_group_dots_synth u_gold (.a_i, .b_i, .dots_o(g));
  tcu_e2m1_group_dots_fast u_gate (.a_i, .b_i, .dots_o(f));
  assign trigger = g != (Plant ? f ^ 52'(a_i[0] & b_i[0]) : f);
endmodule
