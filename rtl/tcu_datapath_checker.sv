// tcu_datapath's protocol assertions (simulation only; Verilator --assert),
// bound into every tcu_datapath by the bind statement below: a D waiting
// behind a full skid register holds in the pipelines (its valid bit, tag and
// D); at most one engine delivers or owns the pipelines' D at a time; the
// in-flight count never wraps; no instruction arrives for an engine the
// configuration leaves out; an engine's clock runs exactly while it is busy
// and for Linger cycles after (the clock gate's rule, stated here as a count
// of the cycles since the engine was last busy, apart from
// tcu_datapath_ctrl's down-counter). The held D is copied only in cycles that hold,
// so these cost nothing otherwise. Nothing here is synthesized (Yosys
// defines SYNTHESIS). The rules of the datapath's ports (the output holds
// while out_ready is low, the tag order, D's unused bits) are checked once,
// for any datapath, in systemc/handshake_checks.h.
`ifndef SYNTHESIS
module tcu_datapath_checker #(
  parameter bit          Int4Enable   = tcu_pkg::Int4Enable,
  parameter bit          SparseEnable = tcu_pkg::SparseEnable,
  parameter bit          E2m1Enable   = tcu_pkg::E2m1Enable,
  parameter bit          F16Enable    = tcu_pkg::F16Enable,
  parameter bit          F64Enable    = tcu_pkg::F64Enable,
  parameter int unsigned FlightW      = 5,
  parameter int unsigned Linger       = 12
) (
  input logic                                                 clk_i,
  input logic                                                 rst_ni,
  input logic [tcu_pkg::FAMILY_BITS-1:0]                      in_family_i,
  input logic                                                 accept_i,
  input logic [FlightW-1:0]                                   in_flight_i,
  input logic [tcu_pkg::NUM_ENGINES*tcu_pkg::STATUS_BITS-1:0] engine_status_i,
  input logic                                                 pipe_en_i,
  input logic                                                 pipe_valid_i,
  input logic [tcu_pkg::TAG_BITS-1:0]                         pipe_tag_i,
  input logic [tcu_pkg::D_BITS-1:0]                           pipe_d_i,
  input logic                                                 skid_full_i,
  input logic                                                 out_valid_i,
  input logic                                                 out_ready_i,
  input logic [tcu_pkg::NUM_ENGINES-1:0]                      engine_busy_i,
  input logic [tcu_pkg::NUM_ENGINES-1:0]                      engine_clk_en_i
);

  localparam int unsigned STATUS_BITS = tcu_pkg::STATUS_BITS;

  logic [tcu_pkg::NUM_ENGINES-1:0] arrive_last, owns, built;
  for (genvar e = 0; e < tcu_pkg::NUM_ENGINES; e++) begin : g_engine
    assign arrive_last[e] = engine_status_i[e*STATUS_BITS + tcu_pkg::STATUS_ARRIVE] &&
                            engine_status_i[e*STATUS_BITS + tcu_pkg::STATUS_ARRIVE_LAST];
    assign owns[e]        = engine_status_i[e*STATUS_BITS + tcu_pkg::STATUS_OWN];
  end
  assign built[tcu_pkg::ENGINE_INT4] = Int4Enable;
  assign built[tcu_pkg::ENGINE_E2M1] = E2m1Enable;
  assign built[tcu_pkg::ENGINE_F16]  = F16Enable;
  assign built[tcu_pkg::ENGINE_F64]  = F64Enable;

  // Whether an instruction of family in_family_i has its engine here.
  logic family_built;
  always_comb begin
    unique case (in_family_i)
      tcu_pkg::FAM_F16:         family_built = built[tcu_pkg::ENGINE_F16];
      tcu_pkg::FAM_F64:         family_built = built[tcu_pkg::ENGINE_F64];
      tcu_pkg::FAM_E2M1:        family_built = built[tcu_pkg::ENGINE_E2M1];
      tcu_pkg::FAM_INT4_SPARSE: family_built = Int4Enable && SparseEnable;
      default:                  family_built = built[tcu_pkg::ENGINE_INT4];
    endcase
  end

  logic          live_q, pipe_held_q;
  logic [15:0]   pipe_tag_q;
  logic [8191:0] pipe_d_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      live_q      <= 1'b0;
      pipe_held_q <= 1'b0;
    end else begin
      live_q      <= 1'b1;
      pipe_held_q <= !pipe_en_i;
    end
  end
  always_ff @(posedge clk_i) begin
    if (!pipe_en_i) begin
      pipe_tag_q <= pipe_tag_i;
      pipe_d_q   <= pipe_d_i;
    end
  end
  always_ff @(posedge clk_i) begin
    if (live_q) begin
      if (pipe_held_q) begin
        assert (pipe_valid_i && pipe_tag_i == pipe_tag_q && pipe_d_i == pipe_d_q)
          else $error("the D behind the full skid register changed while the pipelines held");
      end
      assert ($onehot0(arrive_last))
        else $error("two engines delivered a last group in one cycle");
      assert ($onehot0(owns))
        else $error("two engines own the pipelines' D");
      assert (!(accept_i && in_flight_i == '1))
        else $error("in-flight count overflows");
      assert (!(pipe_valid_i && in_flight_i == '0))
        else $error("a D is valid with no instruction in flight");
      // The C++ side refuses instructions for a disabled engine
      // (tcu::disabled_by); none may arrive here.
      assert (!(accept_i && !family_built))
        else $error("%s (family %0d; Int4Enable=%0d SparseEnable=%0d E2m1Enable=%0d %s=%0d %s=%0d)",
                    "an instruction for an engine this configuration leaves out", in_family_i,
                    Int4Enable, SparseEnable, E2m1Enable, "F16Enable", F16Enable, "F64Enable",
                    F64Enable);
    end
  end

  // The clock gate: cycles since engine e was last busy (saturating; from
  // reset, never), and its clock enable against them.
  for (genvar e = 0; e < tcu_pkg::NUM_ENGINES; e++) begin : g_linger
    logic [7:0] since_busy_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        since_busy_q <= 8'hff;
      end else if (engine_busy_i[e]) begin
        since_busy_q <= 8'd1;
      end else if (since_busy_q != 8'hff) begin
        since_busy_q <= since_busy_q + 8'd1;
      end
    end
    always_ff @(posedge clk_i) begin
      if (live_q) begin
        assert (engine_clk_en_i[e] == (built[e] && (engine_busy_i[e] ||
                                                    32'(since_busy_q) <= Linger)))
          else $error("engine %0d: clock enable %0d, busy %0d, last busy %0d cycles ago (%s %0d)",
                      e, engine_clk_en_i[e], engine_busy_i[e], since_busy_q, "Linger", Linger);
      end
    end
  end

  // ---------------------------------------------------------------------------
  // Cover points (Verilator --coverage-user; `tcu run --coverage` lists them
  // as the microarchitecture's bins, group rtl): while each engine owns the
  // pipelines' D, the skid register full and empty with out_ready low and
  // high, and the pipelines held; an instruction accepted while a D is
  // shown. One statement per engine (Verilator merges the iterations of a
  // generate loop into one cover point); the order of the families, which
  // the RTL takes as issued, is the functional model's stream bins.
  // Engines a configuration leaves out are never hit there.
  // ---------------------------------------------------------------------------
`define TCU_ENGINE_COVERS(name, e) \
  c_``name``_skid_full_ready_low: cover property (@(posedge clk_i) disable iff (!rst_ni) \
      owns[e] && skid_full_i && !out_ready_i); \
  c_``name``_skid_full_ready_high: cover property (@(posedge clk_i) disable iff (!rst_ni) \
      owns[e] && skid_full_i && out_ready_i); \
  c_``name``_skid_empty_ready_low: cover property (@(posedge clk_i) disable iff (!rst_ni) \
      owns[e] && pipe_valid_i && !skid_full_i && !out_ready_i); \
  c_``name``_skid_empty_ready_high: cover property (@(posedge clk_i) disable iff (!rst_ni) \
      owns[e] && pipe_valid_i && !skid_full_i && out_ready_i); \
  c_``name``_pipes_held: cover property (@(posedge clk_i) disable iff (!rst_ni) \
      owns[e] && !pipe_en_i);
  `TCU_ENGINE_COVERS(int4, tcu_pkg::ENGINE_INT4)
  `TCU_ENGINE_COVERS(e2m1, tcu_pkg::ENGINE_E2M1)
  `TCU_ENGINE_COVERS(f16, tcu_pkg::ENGINE_F16)
  `TCU_ENGINE_COVERS(f64, tcu_pkg::ENGINE_F64)
`undef TCU_ENGINE_COVERS
  c_accept_while_out_valid: cover property (@(posedge clk_i) disable iff (!rst_ni)
      in_flight_i != '0 && accept_i && out_valid_i);

endmodule

bind tcu_datapath tcu_datapath_checker #(
  .Int4Enable  (Int4Enable),
  .SparseEnable(SparseEnable),
  .E2m1Enable  (E2m1Enable),
  .F16Enable   (F16Enable),
  .F64Enable   (F64Enable),
  .FlightW     ($clog2(MAX_IN_FLIGHT + 1)),
  .Linger      (LINGER)
) u_checker (
  .clk_i,
  .rst_ni,
  .in_family_i,
  .accept_i       (u_ctrl.accept),
  .in_flight_i    (u_ctrl.in_flight_q),
  .engine_status_i(engine_status),
  .pipe_en_i      (pipe_en),
  .pipe_valid_i   (pipe_valid),
  .pipe_tag_i     (pipe_tag),
  .pipe_d_i       (pipe_d),
  .skid_full_i    (skid_full),
  .out_valid_i    (out_valid_o),
  .out_ready_i,
  .engine_busy_i  (engine_busy),
  .engine_clk_en_i(engine_clk_en)
);
`endif
