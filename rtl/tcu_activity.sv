// Activity counters of one datapath engine, on the ungated clock. Each clock
// cycle after reset counts into exactly one of busy, idle and gated:
//
//   busy     busy_i: an instruction of the engine is in flight (from the
//            cycle of its accepting handshake to the cycle its D leaves the
//            datapath's pipelines: to the consumer, or into the output skid
//            register);
//   idle     not busy, but the engine's gated clock runs (clk_en_i: the
//            linger after its last instruction, while valid bits drain);
//   gated    the engine's clock is off.
//
// stalled counts the busy cycles in which the datapath's pipelines hold
// (stall_i: the output skid register is full and the next D waits behind
// it; tcu_datapath, "Back-pressure"), and macs the multiply-accumulates
// issued to the engine's units (macs_i per cycle). The counters only
// observe: nothing in the datapath reads them.
module tcu_activity #(
  parameter int unsigned CountW = tcu_pkg::ACT_BITS,
  parameter int unsigned MacsW  = tcu_pkg::MACS_BITS
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  input  logic              busy_i,
  input  logic              clk_en_i,
  input  logic              stall_i,
  input  logic [MacsW-1:0]  macs_i,
  output logic [CountW-1:0] busy_o,
  output logic [CountW-1:0] idle_o,
  output logic [CountW-1:0] stalled_o,
  output logic [CountW-1:0] gated_o,
  output logic [CountW-1:0] macs_o
);

  logic [CountW-1:0] busy_d, busy_q, idle_d, idle_q, stalled_d, stalled_q;
  logic [CountW-1:0] gated_d, gated_q, macs_d, macs_q;

  assign busy_d    = busy_q + CountW'(busy_i);
  assign idle_d    = idle_q + CountW'(!busy_i && clk_en_i);
  assign stalled_d = stalled_q + CountW'(busy_i && stall_i);
  assign gated_d   = gated_q + CountW'(!busy_i && !clk_en_i);
  assign macs_d    = macs_q + CountW'(macs_i);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q    <= '0;
      idle_q    <= '0;
      stalled_q <= '0;
      gated_q   <= '0;
      macs_q    <= '0;
    end else begin
      busy_q    <= busy_d;
      idle_q    <= idle_d;
      stalled_q <= stalled_d;
      gated_q   <= gated_d;
      macs_q    <= macs_d;
    end
  end

  assign busy_o    = busy_q;
  assign idle_o    = idle_q;
  assign stalled_o = stalled_q;
  assign gated_o   = gated_q;
  assign macs_o    = macs_q;

endmodule
