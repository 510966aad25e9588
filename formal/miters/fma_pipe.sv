// tcu_fma's registers (kind window), at FP32 with canonical NaNs (the f16
// dot's FMAs): tcu_fma at Stages against tcu_fma at Stages 0 followed by
// Stages registers (tcu_pipe_reg) carrying the result and aux: the lemma
// the f16 dot's pipeline check (f16_dot_synth_pipe) rests on. Every
// rounding mode; en_i high (en_i low holds every register of both sides
// alike).
//
// A pipeline's output Stages cycles after a cycle depends only on that
// cycle's inputs and state and the inputs after it, so three bounded runs
// (Window) cover every cycle of every run from reset:
// - 0: from reset (low in the first cycle only), cycles 0 to Stages;
// - 1: reset high, every register's first value free (any state), valid_i
//   high in the first cycle: cycle Stages;
// - 2: the same with valid_i low in the first cycle.
// With valid_i constant in the first cycle, the staged form's register
// loads on the path to cycle Stages are constant, and the two FMAs are one
// function of the first cycle's operands, each run a few SAT calls.
// `cycle` counts the cycles of the run (saturating); trigger is raised only
// in the cycles its window checks. Plant = 1 flips bit 0 of the staged
// result where its bit 1 is set (Window 1), or the staged valid_o where
// a_i[0] is set (Windows 0 and 2, whose valid_o is low).
module eq_miter #(
  parameter int unsigned Stages   = 2,
  parameter int unsigned AuxWidth = 1,
  parameter int unsigned Window   = 1,
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
  logic [4:0] cycle = '0;
  always_ff @(posedge clk_i) if (cycle != '1) cycle <= cycle + 5'd1;

  logic rst_n, valid, check;
  assign rst_n = (Window == 0) ? started : 1'b1;
  assign valid = (Window != 0 && cycle == '0) ? (Window == 1) : valid_i;
  assign check = (Window == 0) ? cycle <= 5'(Stages) : cycle == 5'(Stages);

  logic                sv, cv, pv, sv_seen;
  logic [31:0]         sr, cr, pr, sr_seen;
  logic [AuxWidth-1:0] sa, ca, pa;
  tcu_fma #(.Format(tcu_pkg::FP32), .Stages(Stages), .CanonicalNan(1'b1), .AuxWidth(AuxWidth))
    u_staged (.clk_i, .rst_ni(rst_n), .en_i(1'b1), .valid_i(valid), .a_i, .b_i, .c_i, .rnd_i,
              .aux_i, .valid_o(sv), .result_o(sr), .aux_o(sa));
  tcu_fma #(.Format(tcu_pkg::FP32), .Stages(0), .CanonicalNan(1'b1), .AuxWidth(AuxWidth))
    u_comb (.clk_i, .rst_ni(rst_n), .en_i(1'b1), .valid_i(valid), .a_i, .b_i, .c_i, .rnd_i,
            .aux_i, .valid_o(cv), .result_o(cr), .aux_o(ca));
  tcu_pipe_reg #(.Width(32 + AuxWidth), .Depth(Stages)) u_pipe (.clk_i, .rst_ni(rst_n),
    .en_i(1'b1), .valid_i(cv), .data_i({cr, ca}), .valid_o(pv), .data_o({pr, pa}));
  assign sv_seen = (Plant && Window != 1) ? sv ^ a_i[0] : sv;
  assign sr_seen = (Plant && Window == 1) ? sr ^ 32'(sr[1]) : sr;
  assign trigger = check && (sv_seen != pv || (sv && {sr_seen, sa} != {pr, pa}));
endmodule
