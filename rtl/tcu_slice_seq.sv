// One engine's slice sequencer: after start_i (the accepting handshake of an
// instruction for this engine) it issues groups 0..last_i, one per cycle in
// which en_i is high (the datapath's stall holds it). Each engine keeps its
// own copy behind its own gated clock, so the logic that selects a unit's
// operands by group changes only while that engine works.
//
//   busy_o   a group is issued this cycle (when en_i);
//   grp_o    the group issued this cycle;
//   issue_o  busy_o && en_i;
//   done_o   issue_o for the last group: the sequencer is free next cycle.
module tcu_slice_seq #(
  parameter int unsigned GrpW = 1
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic            en_i,
  input  logic            start_i,
  input  logic [GrpW-1:0] last_i,
  output logic            busy_o,
  output logic [GrpW-1:0] grp_o,
  output logic            issue_o,
  output logic            done_o
);

  logic            busy_q;
  logic [GrpW-1:0] grp_q, last_q;

  assign issue_o = busy_q && en_i;
  assign done_o  = issue_o && grp_q == last_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q <= 1'b0;
      grp_q  <= '0;
      last_q <= '0;
    end else if (start_i) begin
      busy_q <= 1'b1;
      grp_q  <= '0;
      last_q <= last_i;
    end else if (done_o) begin
      busy_q <= 1'b0;
    end else if (issue_o) begin
      grp_q <= grp_q + GrpW'(1);
    end
  end

  assign busy_o = busy_q;
  assign grp_o  = grp_q;

endmodule
