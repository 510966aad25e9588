// tcu_datapath's control: the input handshake, the drain rule, the
// pipelines' enable and the hand-over of D, and each engine's clock-gate
// enable. It reads the engines' status bundles (tcu_pkg STATUS_*, engine e
// at status_i[e*STATUS_BITS +: STATUS_BITS]) and the output skid register's
// full bit.
//
//   pipe_en_o    the pipelines (operand registers, sequencers, units, D
//                buffers, the pipelines' D at the output) advance. They hold
//                only while the skid is full and another D waits at the
//                pipelines' output: a function of registers only, so
//                out_ready_i (tcu_output_skid) reaches the skid's valid bit
//                alone.
//   pipe_take_o  the pipelines' D leaves them (to the consumer or into the
//                skid), also of registers only; the in-flight count and the
//                drain rule count that, so in_ready_o does not depend on
//                out_ready_i either.
//   in_ready_o   an engine's sequencer is free (or frees this cycle), the
//                pipelines advance, and the instruction is for the engine of
//                the previous one, or the datapath has drained: no
//                instruction in flight, or the last one's D leaving in this
//                cycle. (Engines differ in unit latency: D would otherwise
//                come out of order or collide at the output.)
//   start_o[e]   the accepting handshake of an instruction for engine e:
//                its operand register loads, its sequencer starts.
//   busy_o[e]    an instruction of engine e is in flight (from its accept to
//                its D's hand-over; the activity counters).
//   clk_en_o[e]  engine e's clock runs: from its accept until Linger cycles
//                after its last instruction left, so that every valid bit in
//                its pipelines has shifted out before the clock stops. After
//                reset every clock is off until its engine's first accept.
//   pipe_valid_o, pipe_tag_o  the D at the pipelines' output (its D bits
//                are the owning engine's buffer, in tcu_datapath).
//
// Family codes outside tcu_pkg::family_e go to the int4 engine.
module tcu_datapath_ctrl #(
  // Engine e is built (tcu_pkg ENGINE_* order).
  parameter logic [3:0]  EngineEnable = 4'b1111,
  // The most instructions in flight (bounds the in-flight counter).
  parameter int unsigned MaxInFlight  = 32,
  // Cycles an engine's clock runs on after its last instruction left.
  parameter int unsigned Linger       = 12
) (
  input  logic                                                 clk_i,
  input  logic                                                 rst_ni,
  input  logic                                                 in_valid_i,
  output logic                                                 in_ready_o,
  input  logic [tcu_pkg::FAMILY_BITS-1:0]                      in_family_i,
  input  logic [tcu_pkg::NUM_ENGINES*tcu_pkg::STATUS_BITS-1:0] status_i,
  input  logic                                                 skid_full_i,
  output logic                                                 pipe_en_o,
  output logic                                                 pipe_take_o,
  output logic                                                 pipe_valid_o,
  output logic [tcu_pkg::TAG_BITS-1:0]                         pipe_tag_o,
  output logic [tcu_pkg::NUM_ENGINES-1:0]                      start_o,
  output logic [tcu_pkg::NUM_ENGINES-1:0]                      busy_o,
  output logic [tcu_pkg::NUM_ENGINES-1:0]                      clk_en_o
);

  localparam int unsigned ENGINES     = tcu_pkg::NUM_ENGINES;
  localparam int unsigned STATUS_BITS = tcu_pkg::STATUS_BITS;
  localparam int unsigned TAG_BITS    = tcu_pkg::TAG_BITS;
  localparam int unsigned FlightW     = $clog2(MaxInFlight + 1);
  localparam int unsigned LingerW     = $clog2(Linger + 1);

  logic [1:0] in_engine;
  always_comb begin
    unique case (in_family_i)
      tcu_pkg::FAM_F16:  in_engine = 2'(tcu_pkg::ENGINE_F16);
      tcu_pkg::FAM_F64:  in_engine = 2'(tcu_pkg::ENGINE_F64);
      tcu_pkg::FAM_E2M1: in_engine = 2'(tcu_pkg::ENGINE_E2M1);
      default:           in_engine = 2'(tcu_pkg::ENGINE_INT4);  // dense, sparse
    endcase
  end

  // The engines' status, field by field.
  logic [ENGINES-1:0]          seq_busy, seq_done, arrive_last;
  logic [ENGINES*TAG_BITS-1:0] arrive_tag;
  for (genvar e = 0; e < ENGINES; e++) begin : g_status
    logic [STATUS_BITS-1:0] status;
    assign status         = status_i[e*STATUS_BITS +: STATUS_BITS];
    assign seq_busy[e]    = status[tcu_pkg::STATUS_SEQ_BUSY];
    assign seq_done[e]    = status[tcu_pkg::STATUS_SEQ_DONE];
    assign arrive_last[e] = status[tcu_pkg::STATUS_ARRIVE] && status[tcu_pkg::STATUS_ARRIVE_LAST];
    assign arrive_tag[e*TAG_BITS +: TAG_BITS] =
        {TAG_BITS{status[tcu_pkg::STATUS_ARRIVE]}} & status[tcu_pkg::STATUS_TAG +: TAG_BITS];

    logic unused_status;
    assign unused_status = ^{status[tcu_pkg::STATUS_OWN],
                             status[tcu_pkg::STATUS_MACS +: tcu_pkg::MACS_BITS]};
  end

  logic               accept, seq_free, drained, pipe_valid_q;
  logic [1:0]         last_engine_q;
  logic [FlightW-1:0] in_flight_q;

  assign pipe_en_o   = !(skid_full_i && pipe_valid_q);
  assign pipe_take_o = pipe_valid_q && !skid_full_i;
  assign seq_free    = !(|seq_busy) || |seq_done;
  assign drained     = in_flight_q == '0 || (in_flight_q == FlightW'(1) && pipe_take_o);
  assign in_ready_o  = pipe_en_o && seq_free && (in_engine == last_engine_q || drained);
  assign accept      = in_valid_i && in_ready_o;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      last_engine_q <= 2'(tcu_pkg::ENGINE_INT4);
      in_flight_q   <= '0;
    end else begin
      if (accept) begin
        last_engine_q <= in_engine;
      end
      in_flight_q <= in_flight_q + FlightW'(accept) - FlightW'(pipe_take_o);
    end
  end

  // The D at the pipelines' output: valid from its last group's arrival
  // until it leaves (the pipelines hold meanwhile).
  logic [TAG_BITS-1:0] arriving_tag, pipe_tag_q;
  always_comb begin
    arriving_tag = '0;
    for (int unsigned e = 0; e < ENGINES; e++) begin
      arriving_tag = arriving_tag | arrive_tag[e*TAG_BITS +: TAG_BITS];
    end
  end

  always_ff @(posedge clk_i) begin
    if (pipe_en_o && |arrive_last) begin
      pipe_tag_q <= arriving_tag;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pipe_valid_q <= 1'b0;
    end else if (pipe_en_o) begin
      pipe_valid_q <= |arrive_last;
    end
  end

  assign pipe_valid_o = pipe_valid_q;
  assign pipe_tag_o   = pipe_tag_q;

  // Engine clocks.
  for (genvar e = 0; e < ENGINES; e++) begin : g_engine
    assign start_o[e] = accept && in_engine == 2'(e);
    assign busy_o[e]  = (in_flight_q != '0 && last_engine_q == 2'(e)) || start_o[e];
    if (EngineEnable[e]) begin : g_linger
      logic [LingerW-1:0] linger_q;
      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) begin
          linger_q <= '0;
        end else if (busy_o[e]) begin
          linger_q <= LingerW'(Linger);
        end else if (linger_q != '0) begin
          linger_q <= linger_q - LingerW'(1);
        end
      end
      assign clk_en_o[e] = busy_o[e] || linger_q != '0;
    end else begin : g_absent
      assign clk_en_o[e] = 1'b0;
    end
  end

endmodule
