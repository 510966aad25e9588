// The tensor-core datapath: one mma instruction per valid/ready handshake,
// operands in matrix order (B and scale_b column-major), D in matrix order
// (docs/architecture.md, "Datapath interface"; golden golden_mma).
//
// A top of instances (docs/architecture.md, "Datapath structure"):
//   tcu_datapath_ctrl   the handshake, the drain rule, the pipelines' enable
//                       and D hand-over, each engine's clock-gate enable;
//   tcu_int4_engine     Int4MacsPerCycle / 32 tcu_int4_dot, dense and sparse;
//   tcu_e2m1_engine     E2m1MacsPerCycle / 64 tcu_e2m1_dot;
//   tcu_f16_engine      F16FmasPerCycle / 4 tcu_f16_dot;
//   tcu_f64_engine      F64FmasPerCycle / 4 tcu_f64_dot;
//   tcu_output_skid     the output skid register (back-pressure);
//   tcu_activity        one set of activity counters per engine;
// and, in simulation, the assertions of tcu_datapath_checker (bound to this
// module by rtl/tcu_datapath_checker.sv). Every engine takes the one
// instruction descriptor bundle and shows the control one status bundle
// (tcu_pkg DESC_* and STATUS_* offsets); an engine whose Enable parameter
// is 0 (Int4Enable, SparseEnable, E2m1Enable, F16Enable, F64Enable) builds
// nothing. An instruction for a disabled engine must never arrive: the C++
// side refuses it, and an assertion flags it here.
//
// Each MACs/FMAs-per-cycle parameter must be a multiple of its unit's width,
// and the int4 unit count even or 1 (a dense k=64 element's two halves meet
// in adjacent units of one group, or through a carry register with one
// unit); counts need not be powers of two (a last group may be partial).
// The rules are spec/config.toml's: checked at elaboration (below), when a
// build is configured, and by tcu::datapath_config_error.
//
// Pipeline (model/include/tcu/timing.h is the one formula):
//   cycle 0            the accepting handshake: operands into the engine's
//                      operand register, its slice sequencer armed;
//   cycles 1..occ      the sequencer issues group g = 0..occ-1: unit u of the
//                      instruction's engine takes slice g*units + u
//                      (occ = datapath_occupancy = ceil(slices / units));
//   + unit latency     the units' results (IntStages, E2m1Stages,
//                      5 * FmaStages, 4 * FmaStages) are combined
//                      (int4 halves and C) and written into the D buffer;
//   cycle 1+occ+lat    out_valid_o with D and the tag (datapath_latency),
//                      the D leaving the pipelines (to the consumer, or into
//                      the output skid register if out_ready_i is low).
// Each engine has its own operand register, sequencer and D buffer behind
// its own gated clock (operand isolation: an idle engine does not switch).
// The operand register is free again in the last issue cycle, so the next
// instruction of the same engine is accepted occ cycles after the previous
// one (fully pipelined), and its first results reach the D buffer in the
// cycle the previous D leaves the pipelines. An instruction for another
// engine waits until the datapath has drained, and the pipelines hold only
// while the skid register is full and another D waits behind it
// (tcu_datapath_ctrl; docs/architecture.md, "Timing").
//
// Activity counters (tcu_activity, one per engine, on the ungated clock;
// docs/architecture.md, "Activity counters"): per engine the busy, idle,
// stalled and clock-gated cycles and the MACs issued to its units, and the
// cycles since reset (act_cycles_o). They observe; nothing reads them back.
module tcu_datapath #(
  parameter int unsigned Int4MacsPerCycle = tcu_pkg::Int4MacsPerCycle,
  parameter int unsigned E2m1MacsPerCycle = tcu_pkg::E2m1MacsPerCycle,
  parameter int unsigned F16FmasPerCycle  = tcu_pkg::F16FmasPerCycle,
  parameter int unsigned F64FmasPerCycle  = tcu_pkg::F64FmasPerCycle,
  parameter int unsigned IntStages        = tcu_pkg::IntStages,
  parameter int unsigned E2m1Stages       = tcu_pkg::E2m1Stages,
  parameter int unsigned FmaStages        = tcu_pkg::FmaStages,
  parameter bit          Int4Enable       = tcu_pkg::Int4Enable,
  parameter bit          SparseEnable     = tcu_pkg::SparseEnable,
  parameter bit          E2m1Enable       = tcu_pkg::E2m1Enable,
  parameter bit          F16Enable        = tcu_pkg::F16Enable,
  parameter bit          F64Enable        = tcu_pkg::F64Enable,
  // 1: the units' synthesis implementations (what Yosys maps), 0: their fast
  // simulation ones; tcu-formal proves each pair equal.
  parameter bit          SynthImpl        = tcu_pkg::SynthImpl
) (
  input  logic                              clk_i,
  input  logic                              rst_ni,
  input  logic                              in_valid_i,
  output logic                              in_ready_o,
  input  logic [tcu_pkg::FAMILY_BITS-1:0]   in_family_i,
  input  logic                              in_a_signed_i,
  input  logic                              in_b_signed_i,
  input  logic                              in_satfinite_i,
  input  logic                              in_k32_i,
  input  logic [tcu_pkg::ROUNDING_BITS-1:0] in_rnd_i,
  input  logic                              in_c_f16_i,
  input  logic                              in_d_f16_i,
  input  logic                              in_scale_4x_i,
  input  logic [tcu_pkg::TAG_BITS-1:0]      in_tag_i,
  input  logic [tcu_pkg::A_BITS-1:0]        in_a_i,
  input  logic [tcu_pkg::B_BITS-1:0]        in_b_i,
  input  logic [tcu_pkg::C_BITS-1:0]        in_c_i,
  input  logic [tcu_pkg::META_BITS-1:0]     in_meta_i,
  input  logic [tcu_pkg::SCALE_A_BITS-1:0]  in_scale_a_i,
  input  logic [tcu_pkg::SCALE_B_BITS-1:0]  in_scale_b_i,
  output logic                              out_valid_o,
  input  logic                              out_ready_i,
  output logic [tcu_pkg::TAG_BITS-1:0]      out_tag_o,
  output logic [tcu_pkg::D_BITS-1:0]        out_d_o,
  // Activity counters (tcu_pkg::ACT_BITS each)
  output logic [tcu_pkg::ACT_BITS-1:0] act_cycles_o,
  output logic [tcu_pkg::ACT_BITS-1:0] act_int4_busy_o,
  output logic [tcu_pkg::ACT_BITS-1:0] act_int4_idle_o,
  output logic [tcu_pkg::ACT_BITS-1:0] act_int4_stalled_o,
  output logic [tcu_pkg::ACT_BITS-1:0] act_int4_gated_o,
  output logic [tcu_pkg::ACT_BITS-1:0] act_int4_macs_o,
  output logic [tcu_pkg::ACT_BITS-1:0] act_e2m1_busy_o,
  output logic [tcu_pkg::ACT_BITS-1:0] act_e2m1_idle_o,
  output logic [tcu_pkg::ACT_BITS-1:0] act_e2m1_stalled_o,
  output logic [tcu_pkg::ACT_BITS-1:0] act_e2m1_gated_o,
  output logic [tcu_pkg::ACT_BITS-1:0] act_e2m1_macs_o,
  output logic [tcu_pkg::ACT_BITS-1:0] act_f16_busy_o,
  output logic [tcu_pkg::ACT_BITS-1:0] act_f16_idle_o,
  output logic [tcu_pkg::ACT_BITS-1:0] act_f16_stalled_o,
  output logic [tcu_pkg::ACT_BITS-1:0] act_f16_gated_o,
  output logic [tcu_pkg::ACT_BITS-1:0] act_f16_macs_o,
  output logic [tcu_pkg::ACT_BITS-1:0] act_f64_busy_o,
  output logic [tcu_pkg::ACT_BITS-1:0] act_f64_idle_o,
  output logic [tcu_pkg::ACT_BITS-1:0] act_f64_stalled_o,
  output logic [tcu_pkg::ACT_BITS-1:0] act_f64_gated_o,
  output logic [tcu_pkg::ACT_BITS-1:0] act_f64_macs_o
);

  localparam int unsigned ENGINES     = tcu_pkg::NUM_ENGINES;
  localparam int unsigned STATUS_BITS = tcu_pkg::STATUS_BITS;
  localparam int unsigned TAG_BITS    = tcu_pkg::TAG_BITS;
  localparam int unsigned MACS_BITS   = tcu_pkg::MACS_BITS;
  localparam int unsigned COUNT_BITS  = tcu_pkg::ACT_BITS;  // activity counters
  localparam int unsigned INT4_LANES  = tcu_pkg::INT4_DOT_LANES;
  localparam int unsigned E2M1_LANES  = tcu_pkg::E2M1_DOT_LANES;
  localparam int unsigned F16_LANES   = tcu_pkg::F16_DOT_LANES;
  localparam int unsigned F64_LANES   = tcu_pkg::F64_DOT_LANES;

  // Dot units per engine (timing.cpp dot_units; at least one, so that the
  // shapes stay defined for a disabled engine or a refused count).
  localparam int unsigned INT4_UNITS = Int4MacsPerCycle >= INT4_LANES ?
                                       Int4MacsPerCycle / INT4_LANES : 1;
  localparam int unsigned E2M1_UNITS = E2m1MacsPerCycle >= E2M1_LANES ?
                                       E2m1MacsPerCycle / E2M1_LANES : 1;
  localparam int unsigned F16_UNITS  = F16FmasPerCycle >= F16_LANES ?
                                       F16FmasPerCycle / F16_LANES : 1;
  localparam int unsigned F64_UNITS  = F64FmasPerCycle >= F64_LANES ?
                                       F64FmasPerCycle / F64_LANES : 1;

  // The most groups an enabled engine issues for one instruction
  // (datapath_occupancy) and the longest unit latency of an enabled engine:
  // they bound the instructions in flight and how long an engine's clock
  // runs on after its last instruction.
  localparam int unsigned INT4_GROUPS = Int4Enable ?
      (tcu_pkg::INT4_K64_SLICES + INT4_UNITS - 1) / INT4_UNITS : 1;
  localparam int unsigned E2M1_GROUPS = E2m1Enable ?
      (tcu_pkg::E2M1_SLICES + E2M1_UNITS - 1) / E2M1_UNITS : 1;
  localparam int unsigned F16_GROUPS  = F16Enable ?
      (tcu_pkg::F16_SLICES + F16_UNITS - 1) / F16_UNITS : 1;
  localparam int unsigned F64_GROUPS  = F64Enable ?
      (tcu_pkg::F64_SLICES + F64_UNITS - 1) / F64_UNITS : 1;
  localparam int unsigned INT4_LATENCY = Int4Enable ? IntStages : 0;
  localparam int unsigned E2M1_LATENCY = E2m1Enable ? E2m1Stages : 0;
  localparam int unsigned F16_LATENCY  = F16Enable ? 5 * FmaStages : 0;
  localparam int unsigned F64_LATENCY  = F64Enable ? 4 * FmaStages : 0;
  localparam int unsigned MAX_INT_GROUPS  = INT4_GROUPS > E2M1_GROUPS ? INT4_GROUPS : E2M1_GROUPS;
  localparam int unsigned MAX_FMA_GROUPS  = F16_GROUPS > F64_GROUPS ? F16_GROUPS : F64_GROUPS;
  localparam int unsigned MAX_GROUPS      = MAX_INT_GROUPS > MAX_FMA_GROUPS ? MAX_INT_GROUPS
                                                                             : MAX_FMA_GROUPS;
  localparam int unsigned MAX_INT_LATENCY = INT4_LATENCY > E2M1_LATENCY ? INT4_LATENCY
                                                                         : E2M1_LATENCY;
  localparam int unsigned MAX_FMA_LATENCY = F16_LATENCY > F64_LATENCY ? F16_LATENCY : F64_LATENCY;
  localparam int unsigned MAX_LATENCY     = MAX_INT_LATENCY > MAX_FMA_LATENCY ? MAX_INT_LATENCY
                                                                               : MAX_FMA_LATENCY;
  // Instructions in flight: at most one per occupancy in the latency, plus
  // one.
  localparam int unsigned MAX_IN_FLIGHT   = MAX_GROUPS + MAX_LATENCY + 2;
  // Cycles an engine's clock runs on after it was last busy.
  localparam int unsigned LINGER          = MAX_LATENCY + 2;

  // Engine e is built (tcu_pkg ENGINE_* order).
  localparam logic [ENGINES-1:0] ENGINE_ENABLE = {E2m1Enable, F64Enable, F16Enable, Int4Enable};

  // The parameter rules of spec/config.toml, at elaboration (tests/spec
  // checks each against the spec, message included): each enabled engine's
  // MACs (FMAs) per cycle a positive multiple of its unit's width; the int4
  // unit count even or 1; at least one engine.
  if (!Int4Enable && !E2m1Enable && !F16Enable && !F64Enable) begin : g_bad_no_engine
    $fatal(1, "Int4Enable, E2m1Enable, F16Enable and F64Enable are all 0: %s",
           "a datapath needs at least one engine");
  end
  if (Int4Enable && (Int4MacsPerCycle < INT4_LANES || Int4MacsPerCycle % INT4_LANES != 0))
  begin : g_bad_int4_macs
    $fatal(1, "Int4MacsPerCycle=%0d: must be a positive multiple of %0d %s", Int4MacsPerCycle,
           INT4_LANES,
           "(MACs of one int4 unit), or the engine left out with Int4Enable=0");
  end
  if (E2m1Enable && (E2m1MacsPerCycle < E2M1_LANES || E2m1MacsPerCycle % E2M1_LANES != 0))
  begin : g_bad_e2m1_macs
    $fatal(1, "E2m1MacsPerCycle=%0d: must be a positive multiple of %0d %s", E2m1MacsPerCycle,
           E2M1_LANES,
           "(MACs of one e2m1 unit), or the engine left out with E2m1Enable=0");
  end
  if (F16Enable && (F16FmasPerCycle < F16_LANES || F16FmasPerCycle % F16_LANES != 0))
  begin : g_bad_f16_fmas
    $fatal(1, "F16FmasPerCycle=%0d: must be a positive multiple of %0d %s", F16FmasPerCycle,
           F16_LANES,
           "(FMAs of one f16 unit), or the engine left out with F16Enable=0");
  end
  if (F64Enable && (F64FmasPerCycle < F64_LANES || F64FmasPerCycle % F64_LANES != 0))
  begin : g_bad_f64_fmas
    $fatal(1, "F64FmasPerCycle=%0d: must be a positive multiple of %0d %s", F64FmasPerCycle,
           F64_LANES,
           "(FMAs of one f64 unit), or the engine left out with F64Enable=0");
  end
  if (Int4Enable && INT4_UNITS > 1 && INT4_UNITS % 2 != 0) begin : g_bad_int4_units
    $fatal(1, "Int4MacsPerCycle=%0d gives %0d int4 units: %s%s%s", Int4MacsPerCycle, INT4_UNITS,
           "an odd count above 1 is refused, because a dense k=64 element's two 32-wide ",
           "halves must meet in adjacent units of one issue group (or, with a single unit, ",
           "through its carry register)");
  end

  // ---------------------------------------------------------------------------
  // Control
  // ---------------------------------------------------------------------------
  logic [tcu_pkg::DESC_BITS-1:0]   desc;
  logic [ENGINES*STATUS_BITS-1:0]  engine_status;
  logic                            pipe_en, pipe_take, pipe_valid, skid_full;
  logic [TAG_BITS-1:0]             pipe_tag;
  logic [ENGINES-1:0]              engine_start, engine_busy, engine_clk_en;

  // The descriptor ports as one bundle (tcu_pkg DESC_* offsets).
  assign desc = {in_scale_4x_i, in_d_f16_i, in_c_f16_i, in_rnd_i, in_k32_i, in_satfinite_i,
                 in_b_signed_i, in_a_signed_i, in_family_i, in_tag_i};

  tcu_datapath_ctrl #(
    .EngineEnable(ENGINE_ENABLE),
    .MaxInFlight (MAX_IN_FLIGHT),
    .Linger      (LINGER)
  ) u_ctrl (
    .clk_i,
    .rst_ni,
    .in_valid_i,
    .in_ready_o,
    .in_family_i,
    .status_i    (engine_status),
    .skid_full_i (skid_full),
    .pipe_en_o   (pipe_en),
    .pipe_take_o (pipe_take),
    .pipe_valid_o(pipe_valid),
    .pipe_tag_o  (pipe_tag),
    .start_o     (engine_start),
    .busy_o      (engine_busy),
    .clk_en_o    (engine_clk_en)
  );

  // ---------------------------------------------------------------------------
  // Engines
  // ---------------------------------------------------------------------------
  // B arrives column-major (docs/architecture.md): int4/e2m1 column c (64
  // codes, k-major) at in_b_i[c*256 +: 256]; f16 (batch, column) at
  // [(batch*8+c)*64 +: 64]; f64 column c at [c*256 +: 256]; e2m1 scale_b
  // column c (4 bytes, block-major) at in_scale_b_i[c*32 +: 32]. Only f16
  // uses all of C; only int4 and e2m1 all of A.
  logic [tcu_pkg::M16N8_C_BITS-1:0] int4_d, e2m1_d, f64_d;
  logic [tcu_pkg::D_BITS-1:0]       f16_d;

  tcu_int4_engine #(
    .Enable      (Int4Enable),
    .SparseEnable(SparseEnable),
    .Units       (INT4_UNITS),
    .Stages      (IntStages),
    .SynthImpl   (SynthImpl)
  ) u_int4 (
    .clk_i,
    .rst_ni,
    .clk_en_i   (engine_clk_en[tcu_pkg::ENGINE_INT4]),
    .pipe_en_i  (pipe_en),
    .pipe_take_i(pipe_take),
    .start_i    (engine_start[tcu_pkg::ENGINE_INT4]),
    .desc_i     (desc),
    .a_i        (in_a_i),
    .b_i        (in_b_i),
    .c_i        (in_c_i[tcu_pkg::M16N8_C_BITS-1:0]),
    .meta_i     (in_meta_i),
    .status_o   (engine_status[tcu_pkg::ENGINE_INT4*STATUS_BITS +: STATUS_BITS]),
    .d_o        (int4_d)
  );

  tcu_e2m1_engine #(
    .Enable   (E2m1Enable),
    .Units    (E2M1_UNITS),
    .Stages   (E2m1Stages),
    .SynthImpl(SynthImpl)
  ) u_e2m1 (
    .clk_i,
    .rst_ni,
    .clk_en_i   (engine_clk_en[tcu_pkg::ENGINE_E2M1]),
    .pipe_en_i  (pipe_en),
    .pipe_take_i(pipe_take),
    .start_i    (engine_start[tcu_pkg::ENGINE_E2M1]),
    .desc_i     (desc),
    .a_i        (in_a_i),
    .b_i        (in_b_i),
    .c_i        (in_c_i[tcu_pkg::M16N8_C_BITS-1:0]),
    .scale_a_i  (in_scale_a_i),
    .scale_b_i  (in_scale_b_i),
    .status_o   (engine_status[tcu_pkg::ENGINE_E2M1*STATUS_BITS +: STATUS_BITS]),
    .d_o        (e2m1_d)
  );

  tcu_f16_engine #(
    .Enable   (F16Enable),
    .Units    (F16_UNITS),
    .FmaStages(FmaStages),
    .SynthImpl(SynthImpl)
  ) u_f16 (
    .clk_i,
    .rst_ni,
    .clk_en_i   (engine_clk_en[tcu_pkg::ENGINE_F16]),
    .pipe_en_i  (pipe_en),
    .pipe_take_i(pipe_take),
    .start_i    (engine_start[tcu_pkg::ENGINE_F16]),
    .desc_i     (desc),
    .a_i        (in_a_i[tcu_pkg::M8N8K4_A_BITS-1:0]),
    .b_i        (in_b_i),
    .c_i        (in_c_i),
    .status_o   (engine_status[tcu_pkg::ENGINE_F16*STATUS_BITS +: STATUS_BITS]),
    .d_o        (f16_d)
  );

  tcu_f64_engine #(
    .Enable   (F64Enable),
    .Units    (F64_UNITS),
    .FmaStages(FmaStages),
    .SynthImpl(SynthImpl)
  ) u_f64 (
    .clk_i,
    .rst_ni,
    .clk_en_i   (engine_clk_en[tcu_pkg::ENGINE_F64]),
    .pipe_en_i  (pipe_en),
    .pipe_take_i(pipe_take),
    .start_i    (engine_start[tcu_pkg::ENGINE_F64]),
    .desc_i     (desc),
    .a_i        (in_a_i[tcu_pkg::M8N8K4_A_BITS-1:0]),
    .b_i        (in_b_i),
    .c_i        (in_c_i[tcu_pkg::M16N8_C_BITS-1:0]),
    .status_o   (engine_status[tcu_pkg::ENGINE_F64*STATUS_BITS +: STATUS_BITS]),
    .d_o        (f64_d)
  );

  // ---------------------------------------------------------------------------
  // The pipelines' D and the output
  // ---------------------------------------------------------------------------
  // One engine delivers at a time (the drain rule). The engine whose last
  // group arrived owns the pipelines' D until that D leaves them
  // (pipe_take); the others show zeros, so D bits above the instruction's D
  // are zero. At most one engine owns it (asserted): a priority mux with
  // zeros elsewhere equals the OR of the masked buffers.
  logic [ENGINES-1:0]         engine_owns;
  logic [tcu_pkg::D_BITS-1:0] pipe_d;
  for (genvar e = 0; e < ENGINES; e++) begin : g_owner
    assign engine_owns[e] = engine_status[e*STATUS_BITS + tcu_pkg::STATUS_OWN];
  end

  always_comb begin
    pipe_d = '0;
    if (engine_owns[tcu_pkg::ENGINE_INT4]) begin
      pipe_d[tcu_pkg::M16N8_C_BITS-1:0] = int4_d;
    end else if (engine_owns[tcu_pkg::ENGINE_E2M1]) begin
      pipe_d[tcu_pkg::M16N8_C_BITS-1:0] = e2m1_d;
    end else if (engine_owns[tcu_pkg::ENGINE_F16]) begin
      pipe_d = f16_d;
    end else if (engine_owns[tcu_pkg::ENGINE_F64]) begin
      pipe_d[tcu_pkg::M16N8_C_BITS-1:0] = f64_d;
    end
  end

  tcu_output_skid #(
    .TagW (TAG_BITS),
    .DataW(8192)
  ) u_skid (
    .clk_i,
    .rst_ni,
    .take_i      (pipe_take),
    .pipe_valid_i(pipe_valid),
    .pipe_tag_i  (pipe_tag),
    .pipe_d_i    (pipe_d),
    .full_o      (skid_full),
    .out_valid_o,
    .out_ready_i,
    .out_tag_o,
    .out_d_o
  );

  // ---------------------------------------------------------------------------
  // Activity counters
  // ---------------------------------------------------------------------------
  // Per engine, each cycle is busy (an instruction of the engine in flight:
  // from its accept to its D's hand-over), idle (not busy, but the engine's
  // clock runs: the linger), or clock-gated; stalled counts the busy cycles
  // in which the pipelines hold (!pipe_en: the skid full and another D
  // waiting behind it). MACs are the products issued to the units
  // (tcu::issued_macs). A disabled engine counts every cycle gated.
  logic [COUNT_BITS-1:0] cycles_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cycles_q <= '0;
    end else begin
      cycles_q <= cycles_q + COUNT_BITS'(1);
    end
  end
  assign act_cycles_o = cycles_q;

  logic [ENGINES*COUNT_BITS-1:0] act_busy, act_idle, act_stalled, act_gated, act_macs;

  for (genvar e = 0; e < ENGINES; e++) begin : g_activity
    logic [MACS_BITS-1:0] macs;
    assign macs = engine_status[e*STATUS_BITS + tcu_pkg::STATUS_MACS +: MACS_BITS];
    if (ENGINE_ENABLE[e]) begin : g_count
      tcu_activity #(
        .CountW(COUNT_BITS),
        .MacsW (MACS_BITS)
      ) u_act (
        .clk_i,
        .rst_ni,
        .busy_i   (engine_busy[e]),
        .clk_en_i (engine_clk_en[e]),
        .stall_i  (!pipe_en),
        .macs_i   (macs),
        .busy_o   (act_busy[e*COUNT_BITS +: COUNT_BITS]),
        .idle_o   (act_idle[e*COUNT_BITS +: COUNT_BITS]),
        .stalled_o(act_stalled[e*COUNT_BITS +: COUNT_BITS]),
        .gated_o  (act_gated[e*COUNT_BITS +: COUNT_BITS]),
        .macs_o   (act_macs[e*COUNT_BITS +: COUNT_BITS])
      );
    end else begin : g_absent
      assign act_busy[e*COUNT_BITS +: COUNT_BITS]    = '0;
      assign act_idle[e*COUNT_BITS +: COUNT_BITS]    = '0;
      assign act_stalled[e*COUNT_BITS +: COUNT_BITS] = '0;
      assign act_gated[e*COUNT_BITS +: COUNT_BITS]   = cycles_q;
      assign act_macs[e*COUNT_BITS +: COUNT_BITS]    = '0;

      logic unused_engine;
      assign unused_engine = ^{engine_busy[e], engine_clk_en[e], macs};
    end
  end

  assign act_int4_busy_o    = act_busy[tcu_pkg::ENGINE_INT4*COUNT_BITS +: COUNT_BITS];
  assign act_int4_idle_o    = act_idle[tcu_pkg::ENGINE_INT4*COUNT_BITS +: COUNT_BITS];
  assign act_int4_stalled_o = act_stalled[tcu_pkg::ENGINE_INT4*COUNT_BITS +: COUNT_BITS];
  assign act_int4_gated_o   = act_gated[tcu_pkg::ENGINE_INT4*COUNT_BITS +: COUNT_BITS];
  assign act_int4_macs_o    = act_macs[tcu_pkg::ENGINE_INT4*COUNT_BITS +: COUNT_BITS];
  assign act_e2m1_busy_o    = act_busy[tcu_pkg::ENGINE_E2M1*COUNT_BITS +: COUNT_BITS];
  assign act_e2m1_idle_o    = act_idle[tcu_pkg::ENGINE_E2M1*COUNT_BITS +: COUNT_BITS];
  assign act_e2m1_stalled_o = act_stalled[tcu_pkg::ENGINE_E2M1*COUNT_BITS +: COUNT_BITS];
  assign act_e2m1_gated_o   = act_gated[tcu_pkg::ENGINE_E2M1*COUNT_BITS +: COUNT_BITS];
  assign act_e2m1_macs_o    = act_macs[tcu_pkg::ENGINE_E2M1*COUNT_BITS +: COUNT_BITS];
  assign act_f16_busy_o     = act_busy[tcu_pkg::ENGINE_F16*COUNT_BITS +: COUNT_BITS];
  assign act_f16_idle_o     = act_idle[tcu_pkg::ENGINE_F16*COUNT_BITS +: COUNT_BITS];
  assign act_f16_stalled_o  = act_stalled[tcu_pkg::ENGINE_F16*COUNT_BITS +: COUNT_BITS];
  assign act_f16_gated_o    = act_gated[tcu_pkg::ENGINE_F16*COUNT_BITS +: COUNT_BITS];
  assign act_f16_macs_o     = act_macs[tcu_pkg::ENGINE_F16*COUNT_BITS +: COUNT_BITS];
  assign act_f64_busy_o     = act_busy[tcu_pkg::ENGINE_F64*COUNT_BITS +: COUNT_BITS];
  assign act_f64_idle_o     = act_idle[tcu_pkg::ENGINE_F64*COUNT_BITS +: COUNT_BITS];
  assign act_f64_stalled_o  = act_stalled[tcu_pkg::ENGINE_F64*COUNT_BITS +: COUNT_BITS];
  assign act_f64_gated_o    = act_gated[tcu_pkg::ENGINE_F64*COUNT_BITS +: COUNT_BITS];
  assign act_f64_macs_o     = act_macs[tcu_pkg::ENGINE_F64*COUNT_BITS +: COUNT_BITS];

endmodule
