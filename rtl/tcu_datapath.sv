// The tensor-core datapath: one mma instruction per valid/ready handshake,
// operands in matrix order (B and scale_b column-major), D in matrix order
// (docs/ARCHITECTURE.md, "Datapath interface"; golden golden_mma).
//
// Four engines, each an array of dot-product units (timing.cpp dot_units):
//   int4  Int4MacsPerCycle / 32 tcu_int4_dot (32-wide), dense and sparse:
//         a dense k=64 D element is two 32-wide halves added together, an
//         m8n8k32 or sparse element one unit slice (sparse through a
//         tcu_sparse_mux per unit); tcu_int4_accumulate adds C (wrap or
//         .satfinite).
//   e2m1  E2m1MacsPerCycle / 64 tcu_e2m1_dot (one D element each).
//   f16   F16FmasPerCycle / 4 tcu_f16_dot (one D element of one quad pair).
//   f64   F64FmasPerCycle / 4 tcu_f64_dot (one D element).
// Each MACs/FMAs-per-cycle parameter must be a multiple of its unit's width,
// and the int4 unit count even or 1 (a dense k=64 element's two halves meet
// in adjacent units of one group, or through a carry register with one
// unit); counts need not be powers of two (a last group may be partial).
// The rules are spec/config.toml's: checked at elaboration (below), when a
// build is configured, and by tcu::datapath_config_error.
//
// Engine enables (Int4Enable, SparseEnable, E2m1Enable, F16Enable,
// F64Enable): a disabled engine is not instantiated at all. SparseEnable
// adds the sparse operand mux to the int4 engine (it needs Int4Enable). An
// instruction for a disabled engine must never arrive: the C++ side refuses
// it, and an assertion flags it here.
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
//                      the D leaving the pipeline (to the consumer, or into
//                      the output skid register if out_ready_i is low).
// Each engine has its own operand register, sequencer and D buffer behind
// its own gated clock (operand isolation: an idle engine does not switch).
// The operand register is free again in the last issue cycle, so the next
// instruction of the same engine is accepted occ cycles after the previous
// one (fully pipelined), and its first results reach the D buffer in the
// cycle the previous D leaves the pipeline.
//
// Restrictions (docs/ARCHITECTURE.md, "Timing"):
//   - An instruction for a different engine than the previous one (int4
//     dense and sparse are one engine) is accepted only once the datapath
//     has drained: no instruction in flight, or the last one's D leaving
//     the pipeline in that cycle (to the consumer or into the skid).
//     Engines differ in unit latency, so D would otherwise come out of
//     order or collide in the D buffer.
//   - Back-pressure: a D shown while out_ready_i is low moves into the
//     output skid register, which shows it until the consumer takes it;
//     the pipelines go on. They hold (every engine register, the sequencers
//     and in_ready_o low) only in the cycles in which the skid is full and
//     the next D waits at the pipeline's output; latencies and accept
//     intervals grow by those held cycles, and a D's output handshake by
//     its cycles in the skid. The pipelines' enable (pipe_en) and
//     in_ready_o are functions of registers (and in_family_i, the engine
//     check); out_ready_i drives only the skid's valid bit. Without
//     back-pressure the skid stays empty and changes no timing.
// Family codes outside tcu_pkg::family_e are treated as FAM_INT4.
//
// Activity counters (tcu_activity, one per engine, on the ungated clock;
// docs/ARCHITECTURE.md, "Activity counters"): per engine the busy, idle,
// stalled and clock-gated cycles and the MACs issued to its units, and the
// cycles since reset (act_cycles_o). They observe; nothing reads them back.
module tcu_datapath #(
  parameter int unsigned Int4MacsPerCycle = 1024,
  parameter int unsigned E2m1MacsPerCycle = 1024,
  parameter int unsigned F16FmasPerCycle  = 256,
  parameter int unsigned F64FmasPerCycle  = 16,
  parameter int unsigned IntStages        = 2,
  parameter int unsigned E2m1Stages       = 2,
  parameter int unsigned FmaStages        = 2,
  parameter bit          Int4Enable       = 1'b1,
  parameter bit          SparseEnable     = 1'b1,
  parameter bit          E2m1Enable       = 1'b1,
  parameter bit          F16Enable        = 1'b1,
  parameter bit          F64Enable        = 1'b1
) (
  input  logic          clk_i,
  input  logic          rst_ni,
  input  logic          in_valid_i,
  output logic          in_ready_o,
  input  logic [2:0]    in_family_i,
  input  logic          in_a_signed_i,
  input  logic          in_b_signed_i,
  input  logic          in_satfinite_i,
  input  logic          in_k32_i,
  input  logic [1:0]    in_rnd_i,
  input  logic          in_c_f16_i,
  input  logic          in_d_f16_i,
  input  logic          in_scale_4x_i,
  input  logic [15:0]   in_tag_i,
  input  logic [4095:0] in_a_i,
  input  logic [2047:0] in_b_i,
  input  logic [8191:0] in_c_i,
  input  logic [511:0]  in_meta_i,
  input  logic [511:0]  in_scale_a_i,
  input  logic [255:0]  in_scale_b_i,
  output logic          out_valid_o,
  input  logic          out_ready_i,
  output logic [15:0]   out_tag_o,
  output logic [8191:0] out_d_o,
  // Activity counters (48 bits each)
  output logic [47:0]   act_cycles_o,
  output logic [47:0]   act_int4_busy_o,
  output logic [47:0]   act_int4_idle_o,
  output logic [47:0]   act_int4_stalled_o,
  output logic [47:0]   act_int4_gated_o,
  output logic [47:0]   act_int4_macs_o,
  output logic [47:0]   act_e2m1_busy_o,
  output logic [47:0]   act_e2m1_idle_o,
  output logic [47:0]   act_e2m1_stalled_o,
  output logic [47:0]   act_e2m1_gated_o,
  output logic [47:0]   act_e2m1_macs_o,
  output logic [47:0]   act_f16_busy_o,
  output logic [47:0]   act_f16_idle_o,
  output logic [47:0]   act_f16_stalled_o,
  output logic [47:0]   act_f16_gated_o,
  output logic [47:0]   act_f16_macs_o,
  output logic [47:0]   act_f64_busy_o,
  output logic [47:0]   act_f64_idle_o,
  output logic [47:0]   act_f64_stalled_o,
  output logic [47:0]   act_f64_gated_o,
  output logic [47:0]   act_f64_macs_o
);

  // ---------------------------------------------------------------------------
  // Shapes and widths
  // ---------------------------------------------------------------------------
  localparam int unsigned AW    = 4096;  // in_a_i
  localparam int unsigned BW    = 2048;  // in_b_i
  localparam int unsigned CW    = 8192;  // in_c_i, out_d_o
  localparam int unsigned MetaW = 512;
  localparam int unsigned SaW   = 512;
  localparam int unsigned SbW   = 256;
  localparam int unsigned TagW  = 16;
  localparam int unsigned ActW  = 48;    // activity counters
  localparam int unsigned MacsW = 16;    // MACs issued in one cycle (at most 8192)

  localparam int unsigned I4   = tcu_pkg::INT4_BITS;                    // 4
  localparam int unsigned I32  = tcu_pkg::INT32_BITS;                   // 32
  localparam int unsigned E2   = tcu_pkg::fp_width(tcu_pkg::E2M1);      // 4
  localparam int unsigned SCW  = tcu_pkg::fp_width(tcu_pkg::UE8M0);     // 8
  localparam int unsigned H16  = tcu_pkg::fp_width(tcu_pkg::FP16);      // 16
  localparam int unsigned F32  = tcu_pkg::fp_width(tcu_pkg::FP32);      // 32
  localparam int unsigned F64  = tcu_pkg::fp_width(tcu_pkg::FP64);      // 64
  localparam int unsigned DotW = tcu_pkg::INT4_DOT_WIDTH;               // 14
  localparam int unsigned I4L  = tcu_pkg::INT4_DOT_LANES;               // 32
  localparam int unsigned E2L  = tcu_pkg::E2M1_DOT_LANES;               // 64
  localparam int unsigned E2B  = tcu_pkg::E2M1_MAX_BLOCKS;              // 4
  localparam int unsigned N    = 8;   // D columns of every shape
  localparam int unsigned K64  = 64;  // int4 / e2m1 k
  localparam int unsigned QK   = 4;   // m8n8k4 k

  // The sparse operand mux is part of the int4 engine.
  localparam bit SPARSE_ON = Int4Enable && SparseEnable;

  // Dot units per engine (timing.cpp dot_units; at least one, so that the
  // shapes below stay defined for a disabled engine or a refused count) and
  // their latencies.
  localparam int unsigned INT4_UNITS = Int4MacsPerCycle >= I4L ? Int4MacsPerCycle / I4L : 1;
  localparam int unsigned E2M1_UNITS = E2m1MacsPerCycle >= E2L ? E2m1MacsPerCycle / E2L : 1;
  localparam int unsigned F16_UNITS  = F16FmasPerCycle >= QK ? F16FmasPerCycle / QK : 1;
  localparam int unsigned F64_UNITS  = F64FmasPerCycle >= QK ? F64FmasPerCycle / QK : 1;
  localparam int unsigned F16_LAT    = 5 * FmaStages;
  localparam int unsigned F64_LAT    = 4 * FmaStages;

  // Unit slices per instruction (timing.cpp unit_slices) and the groups the
  // sequencer issues (datapath_occupancy).
  localparam int unsigned K64_SLICES    = 2 * 16 * N;  // m16n8k64: two halves each
  localparam int unsigned K32_SLICES    = 8 * N;       // m8n8k32
  localparam int unsigned SPARSE_SLICES = 16 * N;      // mma.sp m16n8k64
  localparam int unsigned E2M1_SLICES   = 16 * N;
  localparam int unsigned F16_SLICES    = 4 * 8 * N;   // four quad pairs
  localparam int unsigned F64_SLICES    = 8 * N;
  localparam int unsigned K64_GROUPS    = (K64_SLICES + INT4_UNITS - 1) / INT4_UNITS;
  localparam int unsigned K32_GROUPS    = (K32_SLICES + INT4_UNITS - 1) / INT4_UNITS;
  localparam int unsigned SPARSE_GROUPS = (SPARSE_SLICES + INT4_UNITS - 1) / INT4_UNITS;
  localparam int unsigned E2M1_GROUPS   = (E2M1_SLICES + E2M1_UNITS - 1) / E2M1_UNITS;
  localparam int unsigned F16_GROUPS    = (F16_SLICES + F16_UNITS - 1) / F16_UNITS;
  localparam int unsigned F64_GROUPS    = (F64_SLICES + F64_UNITS - 1) / F64_UNITS;
  // Over the enabled engines only.
  localparam int unsigned GRP_I4        = Int4Enable ? K64_GROUPS : 1;
  localparam int unsigned GRP_E2        = E2m1Enable ? E2M1_GROUPS : 1;
  localparam int unsigned GRP_H         = F16Enable ? F16_GROUPS : 1;
  localparam int unsigned GRP_F         = F64Enable ? F64_GROUPS : 1;
  localparam int unsigned MAX_GROUPS_IE = GRP_I4 > GRP_E2 ? GRP_I4 : GRP_E2;
  localparam int unsigned MAX_GROUPS_FP = GRP_H > GRP_F ? GRP_H : GRP_F;
  localparam int unsigned MAX_GROUPS    = MAX_GROUPS_IE > MAX_GROUPS_FP ? MAX_GROUPS_IE
                                                                        : MAX_GROUPS_FP;
  localparam int unsigned GrpW          = MAX_GROUPS > 1 ? $clog2(MAX_GROUPS) : 1;

  // Instructions in flight: at most one per occupancy in the latency, plus
  // one; bounded by the longest latency of an enabled engine.
  localparam int unsigned LAT_I4     = Int4Enable ? IntStages : 0;
  localparam int unsigned LAT_E2     = E2m1Enable ? E2m1Stages : 0;
  localparam int unsigned LAT_H      = F16Enable ? F16_LAT : 0;
  localparam int unsigned LAT_F      = F64Enable ? F64_LAT : 0;
  localparam int unsigned MAX_LAT_IE = LAT_I4 > LAT_E2 ? LAT_I4 : LAT_E2;
  localparam int unsigned MAX_LAT_FP = LAT_H > LAT_F ? LAT_H : LAT_F;
  localparam int unsigned MAX_LAT    = MAX_LAT_IE > MAX_LAT_FP ? MAX_LAT_IE : MAX_LAT_FP;
  localparam int unsigned FlightW    = $clog2(1 + MAX_GROUPS + MAX_LAT + 2);

  localparam logic [GrpW-1:0] K64_LAST    = GrpW'(K64_GROUPS - 1);
  localparam logic [GrpW-1:0] K32_LAST    = GrpW'(K32_GROUPS - 1);
  localparam logic [GrpW-1:0] SPARSE_LAST = GrpW'(SPARSE_GROUPS - 1);
  localparam logic [GrpW-1:0] E2M1_LAST   = GrpW'(E2M1_GROUPS - 1);
  localparam logic [GrpW-1:0] F16_LAST    = GrpW'(F16_GROUPS - 1);
  localparam logic [GrpW-1:0] F64_LAST    = GrpW'(F64_GROUPS - 1);

  // MACs a group issues (activity counters): every group but the last keeps
  // all units busy; the last holds the remaining slices. Per slice: 32
  // products for int4 (sparse included: the 32 stored, non-zero elements of
  // a row), 64 for e2m1, 4 FMAs for f16 and f64.
  localparam int unsigned E2MS   = 64;  // MACs per e2m1 slice
  localparam int unsigned K64_LS = K64_SLICES - (K64_GROUPS - 1) * INT4_UNITS;  // last group's
  localparam int unsigned K32_LS = K32_SLICES - (K32_GROUPS - 1) * INT4_UNITS;  // slices
  localparam int unsigned SP_LS  = SPARSE_SLICES - (SPARSE_GROUPS - 1) * INT4_UNITS;
  localparam int unsigned E2_LS  = E2M1_SLICES - (E2M1_GROUPS - 1) * E2M1_UNITS;
  localparam int unsigned H_LS   = F16_SLICES - (F16_GROUPS - 1) * F16_UNITS;
  localparam int unsigned F_LS   = F64_SLICES - (F64_GROUPS - 1) * F64_UNITS;
  localparam logic [MacsW-1:0] I4_FULL_MACS     = MacsW'(INT4_UNITS * I4L);
  localparam logic [MacsW-1:0] K64_LAST_MACS    = MacsW'(K64_LS * I4L);
  localparam logic [MacsW-1:0] K32_LAST_MACS    = MacsW'(K32_LS * I4L);
  localparam logic [MacsW-1:0] SPARSE_LAST_MACS = MacsW'(SP_LS * I4L);
  localparam logic [MacsW-1:0] E2_FULL_MACS     = MacsW'(E2M1_UNITS * E2MS);
  localparam logic [MacsW-1:0] E2_LAST_MACS     = MacsW'(E2_LS * E2MS);
  localparam logic [MacsW-1:0] H_FULL_MACS      = MacsW'(F16_UNITS * QK);
  localparam logic [MacsW-1:0] H_LAST_MACS      = MacsW'(H_LS * QK);
  localparam logic [MacsW-1:0] F_FULL_MACS      = MacsW'(F64_UNITS * QK);
  localparam logic [MacsW-1:0] F_LAST_MACS      = MacsW'(F_LS * QK);

  // The parameter rules of spec/config.toml, at elaboration (tests/spec
  // checks each against the spec, message included): each enabled engine's
  // MACs (FMAs) per cycle a positive multiple of its unit's width; the int4
  // unit count even or 1; at least one engine.
  if (!Int4Enable && !E2m1Enable && !F16Enable && !F64Enable) begin : g_bad_no_engine
    $fatal(1, "Int4Enable, E2m1Enable, F16Enable and F64Enable are all 0: %s",
           "a datapath needs at least one engine");
  end
  if (Int4Enable && (Int4MacsPerCycle < I4L || Int4MacsPerCycle % I4L != 0))
  begin : g_bad_int4_macs
    $fatal(1, "Int4MacsPerCycle=%0d: must be a positive multiple of 32 %s", Int4MacsPerCycle,
           "(MACs of one int4 unit), or the engine left out with Int4Enable=0");
  end
  if (E2m1Enable && (E2m1MacsPerCycle < E2L || E2m1MacsPerCycle % E2L != 0))
  begin : g_bad_e2m1_macs
    $fatal(1, "E2m1MacsPerCycle=%0d: must be a positive multiple of 64 %s", E2m1MacsPerCycle,
           "(MACs of one e2m1 unit), or the engine left out with E2m1Enable=0");
  end
  if (F16Enable && (F16FmasPerCycle < QK || F16FmasPerCycle % QK != 0)) begin : g_bad_f16_fmas
    $fatal(1, "F16FmasPerCycle=%0d: must be a positive multiple of 4 %s", F16FmasPerCycle,
           "(FMAs of one f16 unit), or the engine left out with F16Enable=0");
  end
  if (F64Enable && (F64FmasPerCycle < QK || F64FmasPerCycle % QK != 0)) begin : g_bad_f64_fmas
    $fatal(1, "F64FmasPerCycle=%0d: must be a positive multiple of 4 %s", F64FmasPerCycle,
           "(FMAs of one f64 unit), or the engine left out with F64Enable=0");
  end
  if (Int4Enable && INT4_UNITS > 1 && INT4_UNITS % 2 != 0) begin : g_bad_int4_units
    $fatal(1, "Int4MacsPerCycle=%0d gives %0d int4 units: %s%s%s", Int4MacsPerCycle, INT4_UNITS,
           "an odd count above 1 is refused, because a dense k=64 element's two 32-wide ",
           "halves must meet in adjacent units of one issue group (or, with a single unit, ",
           "through its carry register)");
  end

  // ---------------------------------------------------------------------------
  // Engines
  // ---------------------------------------------------------------------------
  typedef enum logic [1:0] {
    ENG_INT4 = 2'd0,
    ENG_F16  = 2'd1,
    ENG_F64  = 2'd2,
    ENG_E2M1 = 2'd3
  } engine_e;

  engine_e          in_engine;
  logic             in_sparse, in_k32;
  logic [GrpW-1:0]  in_last_grp;

  always_comb begin
    in_sparse = 1'b0;
    in_k32    = 1'b0;
    unique case (in_family_i)
      tcu_pkg::FAM_F16: begin
        in_engine   = ENG_F16;
        in_last_grp = F16_LAST;
      end
      tcu_pkg::FAM_F64: begin
        in_engine   = ENG_F64;
        in_last_grp = F64_LAST;
      end
      tcu_pkg::FAM_E2M1: begin
        in_engine   = ENG_E2M1;
        in_last_grp = E2M1_LAST;
      end
      tcu_pkg::FAM_INT4_SPARSE: begin
        in_engine   = ENG_INT4;
        in_sparse   = 1'b1;
        in_last_grp = SPARSE_LAST;
      end
      default: begin  // FAM_INT4
        in_engine   = ENG_INT4;
        in_k32      = in_k32_i;
        in_last_grp = in_k32_i ? K32_LAST : K64_LAST;
      end
    endcase
  end

  // ---------------------------------------------------------------------------
  // Handshakes, stall, drain rule
  // ---------------------------------------------------------------------------
  // The pipelines (operand registers, sequencers, units, D buffers, the
  // pipeline's D at the output) advance while pipe_en is high. A D that the
  // consumer refuses goes into the output skid register (section "Sequencer
  // status, D ownership and the output"), so the pipelines hold only while
  // the skid is full and another D waits at the pipeline's output: pipe_en
  // is a function of registers only, and out_ready_i reaches the skid's
  // valid bit alone. An instruction leaves the engines when its D goes to
  // the consumer or into the skid (pipe_take, also of registers only); the
  // in-flight count and the drain rule count that, so in_ready_o does not
  // depend on out_ready_i either.
  logic               pipe_en, pipe_take, accept;
  logic               seq_busy, seq_done, seq_free, drained;
  engine_e            last_engine_q;
  logic [FlightW-1:0] in_flight_q;
  logic               pipe_valid_q, skid_valid_q;
  logic [3:0]         eng_busy, eng_en, eng_start, eng_seq_busy, eng_seq_done;

  assign pipe_en    = !(skid_valid_q && pipe_valid_q);
  assign pipe_take  = pipe_valid_q && !skid_valid_q;
  assign seq_busy   = |eng_seq_busy;
  assign seq_done   = |eng_seq_done;
  assign seq_free   = !seq_busy || seq_done;
  assign drained    = in_flight_q == '0 || (in_flight_q == FlightW'(1) && pipe_take);
  assign in_ready_o = pipe_en && seq_free && (in_engine == last_engine_q || drained);
  assign accept     = in_valid_i && in_ready_o;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      last_engine_q <= ENG_INT4;
      in_flight_q   <= '0;
    end else begin
      if (accept) begin
        last_engine_q <= in_engine;
      end
      in_flight_q <= in_flight_q + FlightW'(accept) - FlightW'(pipe_take);
    end
  end

  // ---------------------------------------------------------------------------
  // Engine clock gating and operand isolation
  // ---------------------------------------------------------------------------
  // An engine's clock runs from its accept until LINGER cycles after its
  // last instruction left, so every valid bit in its pipelines has shifted
  // out before the clock stops. Each engine loads its own operand register
  // and runs its own slice sequencer behind that clock (its tcu_clock_gate
  // sits in the engine's block below), so an idle engine's logic sees no
  // change: no switching in silicon, and no evaluation in the simulation
  // model. After reset every clock is off until its engine's first accept.
  localparam int unsigned LINGER  = MAX_LAT + 2;
  localparam int unsigned LingerW = $clog2(LINGER + 1);
  // Engine e is enabled (engine_e order).
  localparam logic [3:0]  ENG_ON  = {E2m1Enable, F64Enable, F16Enable, Int4Enable};

  for (genvar e = 0; e < 4; e++) begin : g_gate
    assign eng_start[e] = accept && in_engine == 2'(e);
    assign eng_busy[e]  = (in_flight_q != '0 && last_engine_q == 2'(e)) || eng_start[e];
    if (ENG_ON[e]) begin : g_linger
      logic [LingerW-1:0] linger_q;
      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) begin
          linger_q <= '0;
        end else if (eng_busy[e]) begin
          linger_q <= LingerW'(LINGER);
        end else if (linger_q != '0) begin
          linger_q <= linger_q - LingerW'(1);
        end
      end
      assign eng_en[e] = eng_busy[e] || linger_q != '0;
    end else begin : g_off
      assign eng_en[e] = 1'b0;
    end
  end

  // B arrives column-major (docs/ARCHITECTURE.md): int4/e2m1 column c (64
  // codes, k-major) at in_b_i[c*256 +: 256]; f16 (batch, column) at
  // [(batch*8+c)*64 +: 64]; f64 column c at [c*256 +: 256]; e2m1 scale_b
  // column c (4 bytes, block-major) at in_scale_b_i[c*32 +: 32].
  localparam int unsigned B4ColW  = K64 * I4;
  localparam int unsigned SbColW  = E2B * SCW;
  localparam int unsigned B16ColW = QK * H16;
  localparam int unsigned B64ColW = QK * F64;

  // What each engine shows the shared logic below: its sequencer's status,
  // its last group's arrival (valid, last, tag), its D buffer and whether it
  // owns out_d_o, and the MACs it issues this cycle. A disabled engine's
  // block ties them to zero.
  localparam int unsigned I4CW = 16 * N * I32;  // C/D of m16n8k64
  localparam int unsigned E2CW = 16 * N * F32;  // C/D of e2m1 m16n8k64
  localparam int unsigned FCW  = 8 * N * F64;   // C/D of f64 m8n8k4
  logic              i4_seq_busy, i4_done, i4_sb_valid, i4_last, i4_own_q;
  logic              e2_seq_busy, e2_done, e2_sb_valid, e2_last, e2_own_q;
  logic              h_seq_busy, h_done, h_sb_valid, h_last, h_own_q;
  logic              f_seq_busy, f_done, f_sb_valid, f_last, f_own_q;
  logic [TagW-1:0]   i4_tag, e2_tag, h_tag, f_tag;
  logic [I4CW-1:0]   i4_dbuf;
  logic [E2CW-1:0]   e2_dbuf;
  logic [CW-1:0]     h_dbuf;
  logic [FCW-1:0]    f_dbuf;
  logic [MacsW-1:0]  i4_macs, e2_macs, h_macs, f_macs;

  // ---------------------------------------------------------------------------
  // int4 engine
  // ---------------------------------------------------------------------------
  if (Int4Enable) begin : g_i4
    logic                   clk_i4;
    logic                   i4_start, i4_issue;
    logic [GrpW-1:0]        i4_grp_q;
    logic                   i4_sparse_q, i4_k32_q, i4_a_signed_q, i4_b_signed_q, i4_satfinite_q;
    logic [TagW-1:0]        i4_tag_q;
    logic [AW-1:0]          i4_a_q;
    logic [BW-1:0]          i4_b_q;
    logic [I4CW-1:0]        i4_c_q;

    tcu_clock_gate u_gate_i4 (.clk_i, .en_i(eng_en[ENG_INT4]), .clk_o(clk_i4));

    assign i4_start = eng_start[ENG_INT4];

    tcu_slice_seq #(
      .GrpW(GrpW)
    ) u_i4_seq (
      .clk_i  (clk_i4),
      .rst_ni (rst_ni),
      .en_i   (pipe_en),
      .start_i(i4_start),
      .last_i (in_last_grp),
      .busy_o (i4_seq_busy),
      .grp_o  (i4_grp_q),
      .issue_o(i4_issue),
      .done_o (i4_done)
    );

    always_ff @(posedge clk_i4) begin
      if (i4_start) begin
        i4_sparse_q    <= in_sparse && SPARSE_ON;
        i4_k32_q       <= in_k32;
        i4_a_signed_q  <= in_a_signed_i;
        i4_b_signed_q  <= in_b_signed_i;
        i4_satfinite_q <= in_satfinite_i;
        i4_tag_q       <= in_tag_i;
        i4_a_q         <= in_a_i;
        i4_b_q         <= in_b_i;
        i4_c_q         <= in_c_i[I4CW-1:0];
      end
    end

    // The sparse operand path (SparseEnable), in a clock domain of its own:
    // its copy of B, the metadata, a group counter and each unit's metadata
    // and B column muxes and tcu_sparse_mux run on clk_sp, which ticks only
    // from a sparse instruction's accept through its last issued group.
    // Dense instructions thus never switch it (in silicon) nor evaluate it
    // (in Verilator, which runs logic only when the clock of its inputs
    // ticks). Its sequencer starts with the int4 one and steps with it
    // (same groups, same stall), so in every sparse issue cycle
    // sp_grp_q == i4_grp_q.
    if (SPARSE_ON) begin : g_sp
      logic                         clk_sp, sp_start, sp_busy, sp_issue, sp_done;
      logic [GrpW-1:0]              sp_grp_q;
      logic [BW-1:0]                sp_b_q;
      logic [MetaW-1:0]             i4_meta_q;

      assign sp_start = i4_start && in_sparse;
      tcu_clock_gate u_gate_sp (.clk_i, .en_i(sp_start || sp_busy), .clk_o(clk_sp));

      tcu_slice_seq #(
        .GrpW(GrpW)
      ) u_sp_seq (
        .clk_i  (clk_sp),
        .rst_ni (rst_ni),
        .en_i   (pipe_en),
        .start_i(sp_start),
        .last_i (SPARSE_LAST),
        .busy_o (sp_busy),
        .grp_o  (sp_grp_q),
        .issue_o(sp_issue),
        .done_o (sp_done)
      );

      always_ff @(posedge clk_sp) begin
        if (sp_start) begin
          sp_b_q    <= in_b_i;
          i4_meta_q <= in_meta_i;
        end
      end

      for (genvar u = 0; u < INT4_UNITS; u++) begin : g_unit
        // Sparse: element = slice = group * units + u.
        logic [15:0]       elem;
        logic [B4ColW-1:0] b_col;
        logic [N*4-1:0]    meta;
        // The unit's B, per unit rather than slices of one wide vector
        // (which Verilator assembles as one concatenation of all units).
        logic [I4L*I4-1:0] b_sparse;
        assign elem = 16'(sp_grp_q) * 16'(INT4_UNITS) + 16'(u);
        tcu_word_mux #(.Width(N*4), .Words(16)) u_meta_mux (
          .data_i(i4_meta_q), .sel_i(elem[6:3]), .data_o(meta));
        tcu_word_mux #(.Width(B4ColW), .Words(N)) u_b_mux (
          .data_i(sp_b_q), .sel_i(elem[2:0]), .data_o(b_col));
        tcu_sparse_mux u_sparse_mux (
          .meta_i(meta),
          .b_i   (b_col),
          .b_o   (b_sparse)
        );

        logic unused_elem;
        assign unused_elem = ^elem[15:7];
      end

      logic unused_seq;
      assign unused_seq = ^{sp_issue, sp_done};
    end else begin : g_no_sp
      logic unused_meta;
      assign unused_meta = ^in_meta_i;
    end

    // Sideband alongside the units: group, first/last, mode and tag; and, in
    // a pipe of its own (no wide concatenation), per unit the C element its
    // slice accumulates into.
    localparam int unsigned I4SbW = GrpW + 2 + 1 + 1 + TagW;
    logic [INT4_UNITS*I32-1:0]  i4_c_slots, i4_c;
    logic [I4SbW-1:0]           i4_sb_d, i4_sb_q;
    logic                       i4_c_valid;
    logic [INT4_UNITS-1:0]      i4_valid;
    logic [INT4_UNITS*DotW-1:0] i4_sum;

    for (genvar u = 0; u < INT4_UNITS; u++) begin : g_int4
      // Slice s = group * units + u. Dense k=64: element s/2, half s%2;
      // m8n8k32 and sparse: element s.
      logic [15:0]       slice, elem;
      logic              half, slice_ok;
      logic [3:0]        row;
      logic [2:0]        col;
      logic [4:0]        a_idx;  // 128-bit window of A
      logic [I4L*I4-1:0] b_dense, a_in, b_in;

      assign slice = 16'(i4_grp_q) * 16'(INT4_UNITS) + 16'(u);
      always_comb begin
        if (i4_sparse_q) begin
          elem     = slice;
          half     = 1'b0;
          slice_ok = slice < 16'(SPARSE_SLICES);
        end else if (i4_k32_q) begin
          elem     = slice;
          half     = 1'b0;
          slice_ok = slice < 16'(K32_SLICES);
        end else begin
          elem     = slice >> 1;
          half     = slice[0];
          slice_ok = slice < 16'(K64_SLICES);
        end
      end
      assign row = elem[6:3];
      assign col = elem[2:0];
      // k=64 rows are two windows (halves); k=32 and compressed rows one.
      assign a_idx = (!i4_sparse_q && !i4_k32_q) ? {row, half} : {1'b0, row};
      tcu_word_mux #(.Width(I4L*I4), .Words(AW/(I4L*I4))) u_a_mux (
        .data_i(i4_a_q), .sel_i(a_idx), .data_o(a_in));
      // B's half column: k = 32*half .. 32*half+31 of column col.
      tcu_word_mux #(.Width(I4L*I4), .Words(2*N)) u_b_mux (
        .data_i(i4_b_q), .sel_i({col, half}), .data_o(b_dense));
      tcu_word_mux #(.Width(I32), .Words(16*N)) u_c_mux (
        .data_i(i4_c_q), .sel_i(elem[6:0]), .data_o(i4_c_slots[u*I32 +: I32]));

      if (SPARSE_ON) begin : g_sparse
        assign b_in = i4_sparse_q ? g_sp.g_unit[u].b_sparse : b_dense;
      end else begin : g_dense
        assign b_in = b_dense;
      end

      tcu_int4_dot #(
        .Stages(IntStages)
      ) u_dot (
        .clk_i     (clk_i4),
        .rst_ni    (rst_ni),
        .en_i      (pipe_en),
        // The unit loads only with en_i, so the sequencer's busy stands for
        // its issue (busy && pipe_en) here: valid_i then depends on no
        // input port, and the Verilated model evaluates it with the engine's
        // clock rather than at every input change. (With IntStages = 0 the
        // unit's valid_o is this term; its readers all test pipe_en too.)
        .valid_i   (i4_seq_busy && slice_ok),
        .a_signed_i(i4_a_signed_q),
        .b_signed_i(i4_b_signed_q),
        .a_i       (a_in),
        .b_i       (b_in),
        .valid_o   (i4_valid[u]),
        .sum_o     (i4_sum[u*DotW +: DotW])
      );

      logic unused_elem;
      assign unused_elem = ^elem[15:7];
    end

    assign i4_sb_d = {i4_grp_q, i4_grp_q == '0, i4_done, !i4_sparse_q && !i4_k32_q, i4_satfinite_q,
                      i4_tag_q};

    tcu_pipe_reg #(
      .Width(I4SbW),
      .Depth(IntStages)
    ) u_i4_sb (
      .clk_i  (clk_i4),
      .rst_ni (rst_ni),
      .en_i   (pipe_en),
      .valid_i(i4_issue),
      .data_i (i4_sb_d),
      .valid_o(i4_sb_valid),
      .data_o (i4_sb_q)
    );

    tcu_pipe_reg #(
      .Width(INT4_UNITS * I32),
      .Depth(IntStages)
    ) u_i4_c (
      .clk_i  (clk_i4),
      .rst_ni (rst_ni),
      .en_i   (pipe_en),
      .valid_i(i4_issue),
      .data_i (i4_c_slots),
      .valid_o(i4_c_valid),
      .data_o (i4_c)
    );

    logic            unused_i4_c_valid;  // the same as i4_sb_valid
    logic [GrpW-1:0] i4_grp;
    logic            i4_first, i4_k64, i4_satfinite;
    assign unused_i4_c_valid = i4_c_valid;
    assign {i4_grp, i4_first, i4_last, i4_k64, i4_satfinite, i4_tag} = i4_sb_q;

    // Combine: a dense k=64 element is written at its odd slice (half 1), with
    // the even slice's sum beside it (units >= 2) or from the carry register
    // (one unit: the halves come in consecutive cycles).
    logic [INT4_UNITS*I32-1:0] i4_d;

    if (INT4_UNITS == 1) begin : g_carry
      logic signed [DotW-1:0] carry_q;
      always_ff @(posedge clk_i4) begin
        if (pipe_en && i4_valid[0] && !i4_grp[0]) begin
          carry_q <= i4_sum[0 +: DotW];
        end
      end
    end

    for (genvar u = 0; u < INT4_UNITS; u++) begin : g_int4_acc
      logic signed [DotW-1:0] sum, partner;
      logic signed [DotW:0]   dot;

      assign sum = i4_sum[u*DotW +: DotW];
      if (INT4_UNITS == 1) begin : g_partner_carry
        assign partner = g_carry.carry_q;
      end else if (u % 2 == 1) begin : g_partner_unit
        assign partner = i4_sum[(u-1)*DotW +: DotW];
      end else begin : g_partner_none
        assign partner = '0;
      end
      assign dot = i4_k64 ? (DotW+1)'(sum) + (DotW+1)'(partner) : (DotW+1)'(sum);

      tcu_int4_accumulate #(
        .DotWidth(DotW + 1)
      ) u_acc (
        .satfinite_i(i4_satfinite),
        .c_i        (i4_c[u*I32 +: I32]),
        .dot_i      (dot),
        .d_o        (i4_d[u*I32 +: I32])
      );
    end

    // D buffer: element e's register takes its one source unit's result (a
    // k=64 element at its odd slice 2e+1; m8n8k32 and sparse at slice e).
    // An instruction's first group clears what the previous D left.
    // The buffer is one vector whose elements each process writes in place,
    // so reading it out needs no assembly. (A packed array would say the same;
    // Yosys 0.23 does not read multi-dimensional packed declarations.)
    // Every process tests i4_sb_valid first (with pipe_en, a unit's valid
    // implies it: both follow the issue by IntStages enabled cycles), so the
    // Verilated model merges the 128 tests into one and skips the buffer
    // when no group arrives.
    for (genvar e = 0; e < 16 * N; e++) begin : g_i4_dbuf
      localparam int unsigned S64 = 2 * e + 1;
      localparam int unsigned U64 = S64 % INT4_UNITS;
      localparam int unsigned U1  = e % INT4_UNITS;
      always_ff @(posedge clk_i4) begin
        if (pipe_en && i4_sb_valid) begin
          if (i4_k64 ? i4_valid[U64] && i4_grp == GrpW'(S64 / INT4_UNITS)
                     : i4_valid[U1] && i4_grp == GrpW'(e / INT4_UNITS)) begin
            i4_dbuf[e*I32 +: I32] <= i4_k64 ? i4_d[U64*I32 +: I32] : i4_d[U1*I32 +: I32];
          end else if (i4_first) begin
            i4_dbuf[e*I32 +: I32] <= '0;
          end
        end
      end
    end

    // Owns out_d_o from its last group's arrival until the hand-over (the
    // engine's clock runs through it: the engine is busy until then).
    always_ff @(posedge clk_i4 or negedge rst_ni) begin
      if (!rst_ni) begin
        i4_own_q <= 1'b0;
      end else if (pipe_en && i4_sb_valid && i4_last) begin
        i4_own_q <= 1'b1;
      end else if (pipe_take) begin
        i4_own_q <= 1'b0;
      end
    end

    // MACs issued this cycle (the activity counters).
    always_comb begin
      i4_macs = '0;
      if (i4_done) begin
        i4_macs = i4_sparse_q ? SPARSE_LAST_MACS : i4_k32_q ? K32_LAST_MACS : K64_LAST_MACS;
      end else if (i4_issue) begin
        i4_macs = I4_FULL_MACS;
      end
    end

    // With more units than an instruction has slices, the extra units never
    // receive a valid slice and their results go nowhere.
    logic unused_results;
    assign unused_results = ^i4_d;
  end else begin : g_no_i4
    assign i4_seq_busy = 1'b0;
    assign i4_done     = 1'b0;
    assign i4_sb_valid = 1'b0;
    assign i4_last     = 1'b0;
    assign i4_tag      = '0;
    assign i4_dbuf     = '0;
    assign i4_own_q    = 1'b0;
    assign i4_macs     = '0;

    logic unused_in;
    assign unused_in = ^{in_a_signed_i, in_b_signed_i, in_satfinite_i, in_sparse, in_k32,
                         in_meta_i};
  end

  // ---------------------------------------------------------------------------
  // e2m1 engine
  // ---------------------------------------------------------------------------
  if (E2m1Enable) begin : g_e2
    localparam int unsigned E2SbW = GrpW + 2 + TagW;
    logic                      clk_e2;
    logic                      e2_start, e2_issue;
    logic [GrpW-1:0]           e2_grp_q;
    logic                      e2_scale_4x_q;
    logic [TagW-1:0]           e2_tag_q;
    logic [AW-1:0]             e2_a_q;
    logic [BW-1:0]             e2_b_q;
    logic [E2CW-1:0]           e2_c_q;
    logic [SaW-1:0]            e2_scale_a_q;
    logic [SbW-1:0]            e2_scale_b_q;
    logic [E2SbW-1:0]          e2_sb_q;
    logic [E2M1_UNITS-1:0]     e2_valid;
    logic [E2M1_UNITS*F32-1:0] e2_d;

    tcu_clock_gate u_gate_e2 (.clk_i, .en_i(eng_en[ENG_E2M1]), .clk_o(clk_e2));

    assign e2_start = eng_start[ENG_E2M1];

    tcu_slice_seq #(
      .GrpW(GrpW)
    ) u_e2_seq (
      .clk_i  (clk_e2),
      .rst_ni (rst_ni),
      .en_i   (pipe_en),
      .start_i(e2_start),
      .last_i (in_last_grp),
      .busy_o (e2_seq_busy),
      .grp_o  (e2_grp_q),
      .issue_o(e2_issue),
      .done_o (e2_done)
    );

    always_ff @(posedge clk_e2) begin
      if (e2_start) begin
        e2_scale_4x_q <= in_scale_4x_i;
        e2_tag_q      <= in_tag_i;
        e2_a_q        <= in_a_i;
        e2_b_q        <= in_b_i;
        e2_c_q        <= in_c_i[E2CW-1:0];
        e2_scale_a_q  <= in_scale_a_i;
        e2_scale_b_q  <= in_scale_b_i;
      end
    end

    for (genvar u = 0; u < E2M1_UNITS; u++) begin : g_e2m1
      logic [15:0]       elem;
      logic [3:0]        row;
      logic [2:0]        col;
      logic [K64*E2-1:0] a_row;
      logic [B4ColW-1:0] b_col;
      logic [SbColW-1:0] sa, sb;
      logic [F32-1:0]    c;
      assign elem = 16'(e2_grp_q) * 16'(E2M1_UNITS) + 16'(u);
      assign row  = elem[6:3];
      assign col  = elem[2:0];

      tcu_word_mux #(.Width(K64*E2), .Words(16)) u_a_mux (
        .data_i(e2_a_q), .sel_i(row), .data_o(a_row));
      tcu_word_mux #(.Width(B4ColW), .Words(N)) u_b_mux (
        .data_i(e2_b_q), .sel_i(col), .data_o(b_col));
      tcu_word_mux #(.Width(SbColW), .Words(16)) u_sa_mux (
        .data_i(e2_scale_a_q), .sel_i(row), .data_o(sa));
      tcu_word_mux #(.Width(SbColW), .Words(N)) u_sb_mux (
        .data_i(e2_scale_b_q), .sel_i(col), .data_o(sb));
      tcu_word_mux #(.Width(F32), .Words(16*N)) u_c_mux (
        .data_i(e2_c_q), .sel_i(elem[6:0]), .data_o(c));

      tcu_e2m1_dot #(
        .Stages(E2m1Stages)
      ) u_dot (
        .clk_i     (clk_e2),
        .rst_ni    (rst_ni),
        .en_i      (pipe_en),
        .valid_i   (e2_seq_busy && elem < 16'(E2M1_SLICES)),  // see g_i4's u_dot
        .scale_4x_i(e2_scale_4x_q),
        .a_i       (a_row),
        .b_i       (b_col),
        .scale_a_i (sa),
        .scale_b_i (sb),
        .c_i       (c),
        .valid_o   (e2_valid[u]),
        .d_o       (e2_d[u*F32 +: F32])
      );

      logic unused_elem;
      assign unused_elem = ^elem[15:7];
    end

    tcu_pipe_reg #(
      .Width(E2SbW),
      .Depth(E2m1Stages)
    ) u_e2_sb (
      .clk_i  (clk_e2),
      .rst_ni (rst_ni),
      .en_i   (pipe_en),
      .valid_i(e2_issue),
      .data_i ({e2_grp_q, e2_grp_q == '0, e2_done, e2_tag_q}),
      .valid_o(e2_sb_valid),
      .data_o (e2_sb_q)
    );

    logic [GrpW-1:0] e2_grp;
    logic            e2_first;
    assign {e2_grp, e2_first, e2_last, e2_tag} = e2_sb_q;

    for (genvar e = 0; e < E2M1_SLICES; e++) begin : g_e2_dbuf
      localparam int unsigned U = e % E2M1_UNITS;
      logic wr;
      assign wr = e2_valid[U] && e2_grp == GrpW'(e / E2M1_UNITS);
      always_ff @(posedge clk_e2) begin
        if (pipe_en) begin
          if (wr) begin
            e2_dbuf[e*F32 +: F32] <= e2_d[U*F32 +: F32];
          end else if (e2_sb_valid && e2_first) begin
            e2_dbuf[e*F32 +: F32] <= '0;
          end
        end
      end
    end

    always_ff @(posedge clk_e2 or negedge rst_ni) begin
      if (!rst_ni) begin
        e2_own_q <= 1'b0;
      end else if (pipe_en && e2_sb_valid && e2_last) begin
        e2_own_q <= 1'b1;
      end else if (pipe_take) begin
        e2_own_q <= 1'b0;
      end
    end

    assign e2_macs = e2_done ? E2_LAST_MACS : e2_issue ? E2_FULL_MACS : '0;

    logic unused_results;
    assign unused_results = ^e2_d;
  end else begin : g_no_e2
    assign e2_seq_busy = 1'b0;
    assign e2_done     = 1'b0;
    assign e2_sb_valid = 1'b0;
    assign e2_last     = 1'b0;
    assign e2_tag      = '0;
    assign e2_dbuf     = '0;
    assign e2_own_q    = 1'b0;
    assign e2_macs     = '0;

    logic unused_in;
    assign unused_in = ^{in_scale_4x_i, in_scale_a_i, in_scale_b_i};
  end

  // ---------------------------------------------------------------------------
  // f16 engine
  // ---------------------------------------------------------------------------
  if (F16Enable) begin : g_h
    localparam int unsigned HAW    = 4 * 8 * QK * H16;  // A of four quad pairs
    localparam int unsigned HBW    = 4 * N * B16ColW;
    localparam int unsigned F16SbW = GrpW + 2 + 1 + TagW;
    logic                     clk_h;
    logic                     h_start, h_issue;
    logic [GrpW-1:0]          h_grp_q;
    logic                     h_c_f16_q, h_d_f16_q;
    logic [TagW-1:0]          h_tag_q;
    logic [HAW-1:0]           h_a_q;
    logic [HBW-1:0]           h_b_q;
    logic [CW-1:0]            h_c_q;
    logic [F16SbW-1:0]        h_sb_q;
    logic [F16_UNITS-1:0]     h_valid;
    logic [F16_UNITS*F32-1:0] h_d;

    tcu_clock_gate u_gate_h (.clk_i, .en_i(eng_en[ENG_F16]), .clk_o(clk_h));

    assign h_start = eng_start[ENG_F16];

    tcu_slice_seq #(
      .GrpW(GrpW)
    ) u_h_seq (
      .clk_i  (clk_h),
      .rst_ni (rst_ni),
      .en_i   (pipe_en),
      .start_i(h_start),
      .last_i (in_last_grp),
      .busy_o (h_seq_busy),
      .grp_o  (h_grp_q),
      .issue_o(h_issue),
      .done_o (h_done)
    );

    always_ff @(posedge clk_h) begin
      if (h_start) begin
        h_c_f16_q <= in_c_f16_i;
        h_d_f16_q <= in_d_f16_i;
        h_tag_q   <= in_tag_i;
        h_a_q     <= in_a_i[HAW-1:0];
        h_b_q     <= in_b_i[HBW-1:0];
        h_c_q     <= in_c_i;
      end
    end

    for (genvar u = 0; u < F16_UNITS; u++) begin : g_f16
      // Element e: quad pair e[7:6], row e[5:3], column e[2:0].
      logic [15:0]       elem;
      logic [QK*H16-1:0] a_row, b_col;
      logic [H16-1:0]    c16;
      logic [F32-1:0]    c32, c_in;
      assign elem = 16'(h_grp_q) * 16'(F16_UNITS) + 16'(u);

      tcu_word_mux #(.Width(QK*H16), .Words(4*8)) u_a_mux (
        .data_i(h_a_q), .sel_i(elem[7:3]), .data_o(a_row));
      tcu_word_mux #(.Width(B16ColW), .Words(4*N)) u_b_mux (
        .data_i(h_b_q), .sel_i({elem[7:6], elem[2:0]}), .data_o(b_col));
      tcu_word_mux #(.Width(H16), .Words(4*8*N)) u_c16_mux (
        .data_i(h_c_q[4*8*N*H16-1:0]), .sel_i(elem[7:0]), .data_o(c16));
      tcu_word_mux #(.Width(F32), .Words(4*8*N)) u_c32_mux (
        .data_i(h_c_q), .sel_i(elem[7:0]), .data_o(c32));
      assign c_in = h_c_f16_q ? {{(F32 - H16){1'b0}}, c16} : c32;

      tcu_f16_dot #(
        .FmaStages(FmaStages)
      ) u_dot (
        .clk_i  (clk_h),
        .rst_ni (rst_ni),
        .en_i   (pipe_en),
        .valid_i(h_seq_busy && elem < 16'(F16_SLICES)),  // see g_i4's u_dot
        .a_i    (a_row),
        .b_i    (b_col),
        .c_i    (c_in),
        .c_f16_i(h_c_f16_q),
        .d_f16_i(h_d_f16_q),
        .valid_o(h_valid[u]),
        .d_o    (h_d[u*F32 +: F32])
      );

      logic unused_elem;
      assign unused_elem = ^elem[15:8];
    end

    tcu_pipe_reg #(
      .Width(F16SbW),
      .Depth(F16_LAT)
    ) u_h_sb (
      .clk_i  (clk_h),
      .rst_ni (rst_ni),
      .en_i   (pipe_en),
      .valid_i(h_issue),
      .data_i ({h_grp_q, h_grp_q == '0, h_done, h_d_f16_q, h_tag_q}),
      .valid_o(h_sb_valid),
      .data_o (h_sb_q)
    );

    logic [GrpW-1:0] h_grp;
    logic            h_first, h_d_f16;
    assign {h_grp, h_first, h_last, h_d_f16, h_tag} = h_sb_q;

    // D buffer in 16-bit pieces: piece p is half p%2 of the f32 element p/2,
    // or the f16 element p.
    localparam int unsigned Piece = 16;
    for (genvar p = 0; p < CW / Piece; p++) begin : g_h_dbuf
      localparam int unsigned E32 = p / 2;
      localparam int unsigned P32 = p % 2;
      logic wr32, wr16;
      if (E32 < F16_SLICES) begin : g_h32
        localparam int unsigned U = E32 % F16_UNITS;
        assign wr32 = !h_d_f16 && h_valid[U] && h_grp == GrpW'(E32 / F16_UNITS);
      end else begin : g_no_h32
        assign wr32 = 1'b0;
      end
      if (p < F16_SLICES) begin : g_h16
        localparam int unsigned U = p % F16_UNITS;
        assign wr16 = h_d_f16 && h_valid[U] && h_grp == GrpW'(p / F16_UNITS);
      end else begin : g_no_h16
        assign wr16 = 1'b0;
      end
      always_ff @(posedge clk_h) begin
        if (pipe_en) begin
          if (wr32) begin
            h_dbuf[p*Piece +: Piece] <= h_d[(E32 % F16_UNITS)*F32 + P32*Piece +: Piece];
          end else if (wr16) begin
            h_dbuf[p*Piece +: Piece] <= h_d[(p % F16_UNITS)*F32 +: Piece];
          end else if (h_sb_valid && h_first) begin
            h_dbuf[p*Piece +: Piece] <= '0;
          end
        end
      end
    end

    always_ff @(posedge clk_h or negedge rst_ni) begin
      if (!rst_ni) begin
        h_own_q <= 1'b0;
      end else if (pipe_en && h_sb_valid && h_last) begin
        h_own_q <= 1'b1;
      end else if (pipe_take) begin
        h_own_q <= 1'b0;
      end
    end

    assign h_macs = h_done ? H_LAST_MACS : h_issue ? H_FULL_MACS : '0;

    logic unused_results;
    assign unused_results = ^h_d;
  end else begin : g_no_h
    assign h_seq_busy = 1'b0;
    assign h_done     = 1'b0;
    assign h_sb_valid = 1'b0;
    assign h_last     = 1'b0;
    assign h_tag      = '0;
    assign h_dbuf     = '0;
    assign h_own_q    = 1'b0;
    assign h_macs     = '0;

    logic unused_in;
    assign unused_in = ^{in_c_f16_i, in_d_f16_i, in_c_i[CW-1:CW/2]};  // only f16 uses all of C
  end

  // ---------------------------------------------------------------------------
  // f64 engine
  // ---------------------------------------------------------------------------
  if (F64Enable) begin : g_f
    localparam int unsigned FAW    = 8 * QK * F64;
    localparam int unsigned FBW    = N * B64ColW;
    localparam int unsigned F64SbW = GrpW + 2 + TagW;
    logic                     clk_f;
    logic                     f_start, f_issue;
    logic [GrpW-1:0]          f_grp_q;
    logic [1:0]               f_rnd_q;  // tcu_pkg::roundmode_e
    logic [TagW-1:0]          f_tag_q;
    logic [FAW-1:0]           f_a_q;
    logic [FBW-1:0]           f_b_q;
    logic [FCW-1:0]           f_c_q;
    logic [F64SbW-1:0]        f_sb_q;
    logic [F64_UNITS-1:0]     f_valid;
    logic [F64_UNITS*F64-1:0] f_d;

    tcu_clock_gate u_gate_f (.clk_i, .en_i(eng_en[ENG_F64]), .clk_o(clk_f));

    assign f_start = eng_start[ENG_F64];

    tcu_slice_seq #(
      .GrpW(GrpW)
    ) u_f_seq (
      .clk_i  (clk_f),
      .rst_ni (rst_ni),
      .en_i   (pipe_en),
      .start_i(f_start),
      .last_i (in_last_grp),
      .busy_o (f_seq_busy),
      .grp_o  (f_grp_q),
      .issue_o(f_issue),
      .done_o (f_done)
    );

    always_ff @(posedge clk_f) begin
      if (f_start) begin
        f_rnd_q <= in_rnd_i;
        f_tag_q <= in_tag_i;
        f_a_q   <= in_a_i[FAW-1:0];
        f_b_q   <= in_b_i[FBW-1:0];
        f_c_q   <= in_c_i[FCW-1:0];
      end
    end

    for (genvar u = 0; u < F64_UNITS; u++) begin : g_f64
      logic [15:0]       elem;
      logic [QK*F64-1:0] a_row, b_col;
      logic [F64-1:0]    c;
      assign elem = 16'(f_grp_q) * 16'(F64_UNITS) + 16'(u);

      tcu_word_mux #(.Width(QK*F64), .Words(8)) u_a_mux (
        .data_i(f_a_q), .sel_i(elem[5:3]), .data_o(a_row));
      tcu_word_mux #(.Width(B64ColW), .Words(N)) u_b_mux (
        .data_i(f_b_q), .sel_i(elem[2:0]), .data_o(b_col));
      tcu_word_mux #(.Width(F64), .Words(8*N)) u_c_mux (
        .data_i(f_c_q), .sel_i(elem[5:0]), .data_o(c));

      tcu_f64_dot #(
        .FmaStages(FmaStages)
      ) u_dot (
        .clk_i  (clk_f),
        .rst_ni (rst_ni),
        .en_i   (pipe_en),
        .valid_i(f_seq_busy && elem < 16'(F64_SLICES)),  // see g_i4's u_dot
        .a_i    (a_row),
        .b_i    (b_col),
        .c_i    (c),
        .rnd_i  (f_rnd_q),
        .valid_o(f_valid[u]),
        .d_o    (f_d[u*F64 +: F64])
      );

      logic unused_elem;
      assign unused_elem = ^elem[15:6];
    end

    tcu_pipe_reg #(
      .Width(F64SbW),
      .Depth(F64_LAT)
    ) u_f_sb (
      .clk_i  (clk_f),
      .rst_ni (rst_ni),
      .en_i   (pipe_en),
      .valid_i(f_issue),
      .data_i ({f_grp_q, f_grp_q == '0, f_done, f_tag_q}),
      .valid_o(f_sb_valid),
      .data_o (f_sb_q)
    );

    logic [GrpW-1:0] f_grp;
    logic            f_first;
    assign {f_grp, f_first, f_last, f_tag} = f_sb_q;

    for (genvar e = 0; e < F64_SLICES; e++) begin : g_f_dbuf
      localparam int unsigned U = e % F64_UNITS;
      logic wr;
      assign wr = f_valid[U] && f_grp == GrpW'(e / F64_UNITS);
      always_ff @(posedge clk_f) begin
        if (pipe_en) begin
          if (wr) begin
            f_dbuf[e*F64 +: F64] <= f_d[U*F64 +: F64];
          end else if (f_sb_valid && f_first) begin
            f_dbuf[e*F64 +: F64] <= '0;
          end
        end
      end
    end

    always_ff @(posedge clk_f or negedge rst_ni) begin
      if (!rst_ni) begin
        f_own_q <= 1'b0;
      end else if (pipe_en && f_sb_valid && f_last) begin
        f_own_q <= 1'b1;
      end else if (pipe_take) begin
        f_own_q <= 1'b0;
      end
    end

    assign f_macs = f_done ? F_LAST_MACS : f_issue ? F_FULL_MACS : '0;

    logic unused_results;
    assign unused_results = ^f_d;
  end else begin : g_no_f
    assign f_seq_busy = 1'b0;
    assign f_done     = 1'b0;
    assign f_sb_valid = 1'b0;
    assign f_last     = 1'b0;
    assign f_tag      = '0;
    assign f_dbuf     = '0;
    assign f_own_q    = 1'b0;
    assign f_macs     = '0;

    logic unused_in;
    assign unused_in = ^{in_rnd_i};
  end

  // Only int4 and e2m1 read all of A.
  if (!Int4Enable && !E2m1Enable) begin : g_no_wide_a
    logic unused_a;
    assign unused_a = ^in_a_i[AW-1:AW/2];
  end

  // ---------------------------------------------------------------------------
  // Sequencer status, D ownership and the output
  // ---------------------------------------------------------------------------
  assign eng_seq_busy = {e2_seq_busy, f_seq_busy, h_seq_busy, i4_seq_busy};
  assign eng_seq_done = {e2_done, f_done, h_done, i4_done};

  // One engine delivers at a time (the drain rule). The engine whose last
  // group arrived owns the pipeline's D (pipe_d) until that D leaves
  // (pipe_take); the others show zeros, so pipe_d is the OR of the engines'
  // buffers and D bits above the instruction's D are zero. Each owner bit
  // (<engine>_own_q) lives in its engine's block, behind its engine's clock.
  logic [3:0] eng_last;
  assign eng_last = {e2_sb_valid && e2_last, f_sb_valid && f_last, h_sb_valid && h_last,
                     i4_sb_valid && i4_last};

  // At most one engine owns pipe_d (asserted below): a priority mux with
  // zeros elsewhere equals the OR of the masked buffers.
  logic [CW-1:0] pipe_d;
  always_comb begin
    pipe_d = '0;
    if (i4_own_q) begin
      pipe_d[I4CW-1:0] = i4_dbuf;
    end else if (e2_own_q) begin
      pipe_d[E2CW-1:0] = e2_dbuf;
    end else if (h_own_q) begin
      pipe_d = h_dbuf;
    end else if (f_own_q) begin
      pipe_d[FCW-1:0] = f_dbuf;
    end
  end

  logic            arrive_last;
  logic [TagW-1:0] arrive_tag, pipe_tag_q;
  assign arrive_last = |eng_last;
  assign arrive_tag  = ({TagW{i4_sb_valid}} & i4_tag) | ({TagW{e2_sb_valid}} & e2_tag) |
                       ({TagW{h_sb_valid}} & h_tag) | ({TagW{f_sb_valid}} & f_tag);

  always_ff @(posedge clk_i) begin
    if (pipe_en && arrive_last) begin
      pipe_tag_q <= arrive_tag;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pipe_valid_q <= 1'b0;
    end else if (pipe_en) begin
      pipe_valid_q <= arrive_last;
    end
  end

  // Output skid register: it holds the D shown in a cycle whose output
  // handshake does not happen (out_valid_o && !out_ready_i) until the
  // consumer takes it, and the output shows it meanwhile. Its D and tag copy
  // the pipeline's D in every cycle that D leaves (pipe_take, registers
  // only), whether or not the consumer takes it there: one 8192-bit load per
  // instruction buys that out_ready_i drives nothing but skid_valid_q.
  logic [TagW-1:0] skid_tag_q;
  logic [CW-1:0]   skid_d_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      skid_valid_q <= 1'b0;
    end else begin
      skid_valid_q <= out_valid_o && !out_ready_i;
    end
  end

  always_ff @(posedge clk_i) begin
    if (pipe_take) begin
      skid_tag_q <= pipe_tag_q;
      skid_d_q   <= pipe_d;
    end
  end

  assign out_valid_o = skid_valid_q || pipe_valid_q;
  assign out_tag_o   = skid_valid_q ? skid_tag_q : pipe_tag_q;
  assign out_d_o     = skid_valid_q ? skid_d_q : pipe_d;

  // ---------------------------------------------------------------------------
  // Activity counters
  // ---------------------------------------------------------------------------
  // Per engine, each cycle is busy (an instruction of the engine in flight:
  // from its accept to its D's hand-over), idle (not busy, but the engine's
  // clock runs: the linger), or clock-gated; stalled counts the busy cycles
  // in which the pipelines hold (!pipe_en: the skid full and another D
  // waiting behind it). MACs are the products issued to
  // the units (tcu::issued_macs). A disabled engine counts every cycle gated.
  logic [ActW-1:0] cycles_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cycles_q <= '0;
    end else begin
      cycles_q <= cycles_q + ActW'(1);
    end
  end
  assign act_cycles_o = cycles_q;

  logic [4*MacsW-1:0]  eng_macs;  // engine_e order
  logic [4*ActW-1:0]   act_busy, act_idle, act_stalled, act_gated, act_macs;
  assign eng_macs = {e2_macs, f_macs, h_macs, i4_macs};

  for (genvar e = 0; e < 4; e++) begin : g_act
    if (ENG_ON[e]) begin : g_count
      tcu_activity #(
        .CountW(ActW),
        .MacsW (MacsW)
      ) u_act (
        .clk_i,
        .rst_ni,
        .busy_i   (eng_busy[e]),
        .clk_en_i (eng_en[e]),
        .stall_i  (!pipe_en),
        .macs_i   (eng_macs[e*MacsW +: MacsW]),
        .busy_o   (act_busy[e*ActW +: ActW]),
        .idle_o   (act_idle[e*ActW +: ActW]),
        .stalled_o(act_stalled[e*ActW +: ActW]),
        .gated_o  (act_gated[e*ActW +: ActW]),
        .macs_o   (act_macs[e*ActW +: ActW])
      );
    end else begin : g_off
      assign act_busy[e*ActW +: ActW]    = '0;
      assign act_idle[e*ActW +: ActW]    = '0;
      assign act_stalled[e*ActW +: ActW] = '0;
      assign act_gated[e*ActW +: ActW]   = cycles_q;
      assign act_macs[e*ActW +: ActW]    = '0;

      logic unused_eng;
      assign unused_eng = ^{eng_busy[e], eng_en[e], eng_macs[e*MacsW +: MacsW]};
    end
  end

  assign act_int4_busy_o    = act_busy[ENG_INT4*ActW +: ActW];
  assign act_int4_idle_o    = act_idle[ENG_INT4*ActW +: ActW];
  assign act_int4_stalled_o = act_stalled[ENG_INT4*ActW +: ActW];
  assign act_int4_gated_o   = act_gated[ENG_INT4*ActW +: ActW];
  assign act_int4_macs_o    = act_macs[ENG_INT4*ActW +: ActW];
  assign act_e2m1_busy_o    = act_busy[ENG_E2M1*ActW +: ActW];
  assign act_e2m1_idle_o    = act_idle[ENG_E2M1*ActW +: ActW];
  assign act_e2m1_stalled_o = act_stalled[ENG_E2M1*ActW +: ActW];
  assign act_e2m1_gated_o   = act_gated[ENG_E2M1*ActW +: ActW];
  assign act_e2m1_macs_o    = act_macs[ENG_E2M1*ActW +: ActW];
  assign act_f16_busy_o     = act_busy[ENG_F16*ActW +: ActW];
  assign act_f16_idle_o     = act_idle[ENG_F16*ActW +: ActW];
  assign act_f16_stalled_o  = act_stalled[ENG_F16*ActW +: ActW];
  assign act_f16_gated_o    = act_gated[ENG_F16*ActW +: ActW];
  assign act_f16_macs_o     = act_macs[ENG_F16*ActW +: ActW];
  assign act_f64_busy_o     = act_busy[ENG_F64*ActW +: ActW];
  assign act_f64_idle_o     = act_idle[ENG_F64*ActW +: ActW];
  assign act_f64_stalled_o  = act_stalled[ENG_F64*ActW +: ActW];
  assign act_f64_gated_o    = act_gated[ENG_F64*ActW +: ActW];
  assign act_f64_macs_o     = act_macs[ENG_F64*ActW +: ActW];

`ifndef SYNTHESIS
  // ---------------------------------------------------------------------------
  // Protocol assertions (simulation; Verilator --assert)
  // ---------------------------------------------------------------------------
  // The output holds while out_ready_i is low; a D waiting behind a full
  // skid holds in the pipeline (its valid bit, tag and D); at most one engine
  // delivers or owns pipe_d at a time; the in-flight count never wraps. The
  // held D is copied only in cycles that hold, so these cost nothing
  // otherwise.
  logic            chk_live_q, chk_held_q, chk_pipe_held_q;
  logic [TagW-1:0] chk_tag_q, chk_pipe_tag_q;
  logic [CW-1:0]   chk_d_q, chk_pipe_d_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      chk_live_q      <= 1'b0;
      chk_held_q      <= 1'b0;
      chk_pipe_held_q <= 1'b0;
    end else begin
      chk_live_q      <= 1'b1;
      chk_held_q      <= out_valid_o && !out_ready_i;
      chk_pipe_held_q <= !pipe_en;
    end
  end
  always_ff @(posedge clk_i) begin
    if (out_valid_o && !out_ready_i) begin
      chk_tag_q <= out_tag_o;
      chk_d_q   <= out_d_o;
    end
    if (!pipe_en) begin
      chk_pipe_tag_q <= pipe_tag_q;
      chk_pipe_d_q   <= pipe_d;
    end
  end
  always_ff @(posedge clk_i) begin
    if (chk_live_q) begin
      if (chk_held_q) begin
        assert (out_valid_o && out_tag_o == chk_tag_q && out_d_o == chk_d_q)
          else $error("out_valid_o, out_tag_o or out_d_o changed while out_ready_i was low");
      end
      if (chk_pipe_held_q) begin
        assert (pipe_valid_q && pipe_tag_q == chk_pipe_tag_q && pipe_d == chk_pipe_d_q)
          else $error("the D behind the full skid register changed while the pipelines held");
      end
      assert ($onehot0(eng_last))
        else $error("two engines delivered a last group in one cycle");
      assert ($onehot0({i4_own_q, h_own_q, f_own_q, e2_own_q}))
        else $error("two engines own pipe_d");
      assert (!(accept && in_flight_q == '1))
        else $error("in-flight count overflows");
      assert (!(pipe_valid_q && in_flight_q == '0))
        else $error("a D is valid with no instruction in flight");
      // The C++ side refuses instructions for a disabled engine
      // (tcu::disabled_by); none may arrive here.
      assert (!(accept && !(in_sparse ? SPARSE_ON : ENG_ON[in_engine])))
        else $error("%s (family %0d; Int4Enable=%0d SparseEnable=%0d E2m1Enable=%0d %s=%0d %s=%0d)",
                    "an instruction for an engine this configuration leaves out", in_family_i,
                    Int4Enable, SparseEnable, E2m1Enable, "F16Enable", F16Enable, "F64Enable",
                    F64Enable);
    end
  end
`endif

endmodule
