// tcu_fma's registers (kind seq), at FP32 with canonical NaNs (the f16
// dot's FMAs): tcu_fma at Stages against tcu_fma at Stages 0 followed by
// Stages registers (tcu_pipe_reg) carrying the result and aux: the lemma
// the f16 dot's pipeline check (f16_dot_synth_pipe) rests on. Every
// rounding mode. From reset (low in the first cycle only); data registers
// start from any value. en_i is high: en_i low holds every register of both
// sides alike (a stall would make the latency in cycles unbounded, beyond
// k-induction's frames). Plant = 1 flips bit 0 of the staged result where
// its bit 1 is set.
module eq_miter #(
  parameter int unsigned Stages   = 2,
  parameter int unsigned AuxWidth = 1,
  parameter bit          Plant    = 1'b0
) (
  input  logic                clk_i, valid_i,
  input  logic [31:0]         a_i, b_i, c_i,
  input  tcu_pkg::roundmode_e rnd_i,
  input  logic [AuxWidth-1:0] aux_i,
  output logic                trigger
);
  logic started = 1'b0;
  always_ff @(posedge clk_i) started <= 1'b1;
  logic                sv, cv, pv;
  logic [31:0]         sr, cr, pr, sr_seen;
  logic [AuxWidth-1:0] sa, ca, pa;
  tcu_fma #(.Format(tcu_pkg::FP32), .Stages(Stages), .CanonicalNan(1'b1), .AuxWidth(AuxWidth))
    u_staged (.clk_i, .rst_ni(started), .en_i(1'b1), .valid_i, .a_i, .b_i, .c_i, .rnd_i, .aux_i,
              .valid_o(sv), .result_o(sr), .aux_o(sa));
  tcu_fma #(.Format(tcu_pkg::FP32), .Stages(0), .CanonicalNan(1'b1), .AuxWidth(AuxWidth))
    u_comb (.clk_i, .rst_ni(started), .en_i(1'b1), .valid_i, .a_i, .b_i, .c_i, .rnd_i, .aux_i,
            .valid_o(cv), .result_o(cr), .aux_o(ca));
  tcu_pipe_reg #(.Width(32 + AuxWidth), .Depth(Stages)) u_pipe (.clk_i, .rst_ni(started),
    .en_i(1'b1), .valid_i(cv), .data_i({cr, ca}), .valid_o(pv), .data_o({pr, pa}));
  assign sr_seen = Plant ? sr ^ 32'(sr[1]) : sr;
  assign trigger = sv != pv || (sv && {sr_seen, sa} != {pr, pa});
endmodule
