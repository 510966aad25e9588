// The int4 dot pair (kind pipe): tcu_int4_dot_synth (synthesis) against
// tcu_int4_dot_fast (fast), whose pipeline registers sit in different places.
// The top eq_miter is proven by ABC in two runs (Run), from reset:
//   Run 1: the two combinational forms (Stages = 0) equal, and the fast form
//          at Stages equal to its combinational form followed by Stages
//          registers (one miter, so that Yosys maps the fast form's table
//          once; the second copy is the same logic and merged);
//   Run 2: the synthesis form likewise (k-induction).
// Plant = 1 flips one bit of the fast form's combinational sum (where
// a_i[0] and b_i[0] are both set): Run 1 must then fail.

// The combinational forms (Stages = 0).
module eq_int4_dot_comb #(parameter bit Plant = 1'b0) (
  input  logic         a_signed_i, b_signed_i,
  input  logic [127:0] a_i, b_i,
  output logic         trigger
);
  logic        gv, fv;
  logic [13:0] gs, fs, fs_seen;
  tcu_int4_dot_synth #(.Stages(0)) u_gold (.clk_i(1'b0), .rst_ni(1'b1), .en_i(1'b1),
    .valid_i(1'b1), .a_signed_i, .b_signed_i, .a_i, .b_i, .valid_o(gv), .sum_o(gs));
  tcu_int4_dot_fast #(.Stages(0)) u_gate (.clk_i(1'b0), .rst_ni(1'b1), .en_i(1'b1),
    .valid_i(1'b1), .a_signed_i, .b_signed_i, .a_i, .b_i, .valid_o(fv), .sum_o(fs));
  assign fs_seen = Plant ? fs ^ 14'(a_i[0] & b_i[0]) : fs;
  assign trigger = gv != fv || gs != fs_seen;
endmodule

// One implementation (Fast: tcu_int4_dot_fast, else tcu_int4_dot_synth) at
// Stages against its own combinational form followed by Stages pipeline
// registers (tcu_pipe_reg). Reset is low in the first cycle only (an
// initialised register drives it); the data registers start from any value.
// en_i is high: en_i low holds every register of both sides alike.
module eq_int4_dot_pipe #(
  parameter int unsigned Stages = 2,
  parameter bit          Fast   = 1'b1
) (
  input  logic         clk_i, valid_i, a_signed_i, b_signed_i,
  input  logic [127:0] a_i, b_i,
  output logic         trigger
);
  logic started = 1'b0;
  always_ff @(posedge clk_i) started <= 1'b1;
  logic        sv, cv, pv;
  logic [13:0] ss, cs, ps;
  if (Fast) begin : g_fast
    tcu_int4_dot_fast #(.Stages(Stages)) u_staged (.clk_i, .rst_ni(started), .en_i(1'b1),
      .valid_i, .a_signed_i, .b_signed_i, .a_i, .b_i, .valid_o(sv), .sum_o(ss));
    tcu_int4_dot_fast #(.Stages(0)) u_comb (.clk_i, .rst_ni(started), .en_i(1'b1), .valid_i,
      .a_signed_i, .b_signed_i, .a_i, .b_i, .valid_o(cv), .sum_o(cs));
  end else begin : g_synth
    tcu_int4_dot_synth #(.Stages(Stages)) u_staged (.clk_i, .rst_ni(started), .en_i(1'b1),
      .valid_i, .a_signed_i, .b_signed_i, .a_i, .b_i, .valid_o(sv), .sum_o(ss));
    tcu_int4_dot_synth #(.Stages(0)) u_comb (.clk_i, .rst_ni(started), .en_i(1'b1), .valid_i,
      .a_signed_i, .b_signed_i, .a_i, .b_i, .valid_o(cv), .sum_o(cs));
  end
  tcu_pipe_reg #(.Width(14), .Depth(Stages)) u_pipe (.clk_i, .rst_ni(started), .en_i(1'b1),
    .valid_i(cv), .data_i(cs), .valid_o(pv), .data_o(ps));
  // sum_o is meaningful with valid_o only.
  assign trigger = sv != pv || (sv && ss != ps);
endmodule

module eq_miter #(
  parameter int unsigned Stages = 2,
  parameter int unsigned Run    = 1,
  parameter bit          Plant  = 1'b0
) (
  input  logic         clk_i, valid_i, a_signed_i, b_signed_i,
  input  logic [127:0] a_i, b_i,
  output logic         trigger
);
  if (Run == 1) begin : g_run1
    logic comb_differs, pipe_differs;
    eq_int4_dot_comb #(.Plant(Plant)) u_comb (.a_signed_i, .b_signed_i, .a_i, .b_i,
      .trigger(comb_differs));
    if (Stages > 0) begin : g_pipe
      eq_int4_dot_pipe #(.Stages(Stages), .Fast(1'b1)) u_pipe (.clk_i, .valid_i, .a_signed_i,
        .b_signed_i, .a_i, .b_i, .trigger(pipe_differs));
    end else begin : g_no_pipe
      assign pipe_differs = 1'b0;
    end
    assign trigger = comb_differs || pipe_differs;
  end else begin : g_run2
    eq_int4_dot_pipe #(.Stages(Stages), .Fast(1'b0)) u_pipe (.clk_i, .valid_i, .a_signed_i,
      .b_signed_i, .a_i, .b_i, .trigger);
  end
endmodule
