// tcu_datapath's output skid register. It holds the D shown in a cycle
// whose output handshake does not happen (out_valid_o && !out_ready_i)
// until the consumer takes it, and the output shows it meanwhile. Its D and
// tag copy the pipelines' D in every cycle that D leaves the pipelines
// (take_i, a function of registers), whether or not the consumer takes it
// there: one DataW-bit load per instruction buys that out_ready_i drives
// nothing but the skid's valid bit (full_o).
module tcu_output_skid #(
  parameter int unsigned TagW  = 16,
  parameter int unsigned DataW = 8192
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             take_i,
  input  logic             pipe_valid_i,
  input  logic [TagW-1:0]  pipe_tag_i,
  input  logic [DataW-1:0] pipe_d_i,
  output logic             full_o,
  output logic             out_valid_o,
  input  logic             out_ready_i,
  output logic [TagW-1:0]  out_tag_o,
  output logic [DataW-1:0] out_d_o
);

  logic             full_q;
  logic [TagW-1:0]  tag_q;
  logic [DataW-1:0] d_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      full_q <= 1'b0;
    end else begin
      full_q <= out_valid_o && !out_ready_i;
    end
  end

  always_ff @(posedge clk_i) begin
    if (take_i) begin
      tag_q <= pipe_tag_i;
      d_q   <= pipe_d_i;
    end
  end

  assign full_o      = full_q;
  assign out_valid_o = full_q || pipe_valid_i;
  assign out_tag_o   = full_q ? tag_q : pipe_tag_i;
  assign out_d_o     = full_q ? d_q : pipe_d_i;

endmodule
