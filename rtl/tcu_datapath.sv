// The tensor-core datapath: one mma instruction per valid/ready handshake,
// operands in matrix order, D in matrix order (docs/ARCHITECTURE.md,
// "Datapath interface"; golden golden_mma).
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
// Each unit count must be a power of two (checked at elaboration).
//
// Pipeline (model/include/tcu/timing.h is the one formula):
//   cycle 0            the accepting handshake: operands into the operand
//                      register, the slice sequencer armed;
//   cycles 1..occ      the sequencer issues group g = 0..occ-1: unit u of the
//                      instruction's engine takes slice g*units + u
//                      (occ = datapath_occupancy = ceil(slices / units));
//   + unit latency     the units' results (IntStages, E2m1Stages,
//                      5 * FmaStages, 4 * FmaStages) are combined
//                      (int4 halves and C) and written into the D buffer;
//   cycle 1+occ+lat    out_valid_o with D and the tag (datapath_latency).
// The operand register is free again in the last issue cycle, so the next
// instruction of the same engine is accepted occ cycles after the previous
// one (fully pipelined), and its first results reach the D buffer in the
// cycle the previous D is handed over.
//
// Restrictions (docs/ARCHITECTURE.md, "Timing"):
//   - An instruction for a different engine than the previous one (int4
//     dense and sparse are one engine) is accepted only once the datapath
//     has drained: no instruction in flight, or the last one handing its D
//     over in that cycle. Engines differ in unit latency, so D would
//     otherwise come out of order or collide in the D buffer.
//   - While out_valid_o && !out_ready_i the whole datapath stalls (every
//     register holds, in_ready_o is low); latencies then grow by the stalled
//     cycles. in_ready_o therefore depends combinationally on out_ready_i,
//     and on in_family_i (the engine check).
// Family codes outside tcu_pkg::family_e are treated as FAM_INT4.
module tcu_datapath #(
  parameter int unsigned Int4MacsPerCycle = 1024,
  parameter int unsigned E2m1MacsPerCycle = 1024,
  parameter int unsigned F16FmasPerCycle  = 256,
  parameter int unsigned F64FmasPerCycle  = 16,
  parameter int unsigned IntStages        = 2,
  parameter int unsigned E2m1Stages       = 2,
  parameter int unsigned FmaStages        = 2
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
  output logic [8191:0] out_d_o
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

  // Dot units per engine (timing.cpp dot_units) and their latencies.
  localparam int unsigned INT4_UNITS = Int4MacsPerCycle / I4L;
  localparam int unsigned E2M1_UNITS = E2m1MacsPerCycle / E2L;
  localparam int unsigned F16_UNITS  = F16FmasPerCycle / QK;
  localparam int unsigned F64_UNITS  = F64FmasPerCycle / QK;
  localparam int unsigned F16_LAT    = 5 * FmaStages;
  localparam int unsigned INT4_LOG   = $clog2(INT4_UNITS);
  localparam int unsigned E2M1_LOG   = $clog2(E2M1_UNITS);
  localparam int unsigned F16_LOG    = $clog2(F16_UNITS);
  localparam int unsigned F64_LOG    = $clog2(F64_UNITS);
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
  localparam int unsigned MAX_GROUPS_IE = K64_GROUPS > E2M1_GROUPS ? K64_GROUPS : E2M1_GROUPS;
  localparam int unsigned MAX_GROUPS_FP = F16_GROUPS > F64_GROUPS ? F16_GROUPS : F64_GROUPS;
  localparam int unsigned MAX_GROUPS    = MAX_GROUPS_IE > MAX_GROUPS_FP ? MAX_GROUPS_IE
                                                                        : MAX_GROUPS_FP;
  localparam int unsigned GrpW          = MAX_GROUPS > 1 ? $clog2(MAX_GROUPS) : 1;

  // Instructions in flight: at most one per occupancy in the latency, plus
  // one; bounded by the longest latency.
  localparam int unsigned MAX_LAT_IE = IntStages > E2m1Stages ? IntStages : E2m1Stages;
  localparam int unsigned MAX_LAT    = MAX_LAT_IE > F16_LAT ? MAX_LAT_IE : F16_LAT;
  localparam int unsigned FlightW    = $clog2(1 + MAX_GROUPS + MAX_LAT + 2);

  localparam logic [GrpW-1:0] K64_LAST    = GrpW'(K64_GROUPS - 1);
  localparam logic [GrpW-1:0] K32_LAST    = GrpW'(K32_GROUPS - 1);
  localparam logic [GrpW-1:0] SPARSE_LAST = GrpW'(SPARSE_GROUPS - 1);
  localparam logic [GrpW-1:0] E2M1_LAST   = GrpW'(E2M1_GROUPS - 1);
  localparam logic [GrpW-1:0] F16_LAST    = GrpW'(F16_GROUPS - 1);
  localparam logic [GrpW-1:0] F64_LAST    = GrpW'(F64_GROUPS - 1);

`ifndef SYNTHESIS
  initial begin
    assert (INT4_UNITS >= 1 && (INT4_UNITS & (INT4_UNITS - 1)) == 0)
      else $fatal(1, "Int4MacsPerCycle / 32 must be a power of two");
    assert (E2M1_UNITS >= 1 && (E2M1_UNITS & (E2M1_UNITS - 1)) == 0)
      else $fatal(1, "E2m1MacsPerCycle / 64 must be a power of two");
    assert (F16_UNITS >= 1 && (F16_UNITS & (F16_UNITS - 1)) == 0)
      else $fatal(1, "F16FmasPerCycle / 4 must be a power of two");
    assert (F64_UNITS >= 1 && (F64_UNITS & (F64_UNITS - 1)) == 0)
      else $fatal(1, "F64FmasPerCycle / 4 must be a power of two");
  end
`endif

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
  // Handshakes, stall, drain rule, slice sequencer
  // ---------------------------------------------------------------------------
  logic               stall, accept, out_fire;
  logic               seq_busy_q, seq_done, issue, seq_free, drained;
  logic [GrpW-1:0]    seq_grp_q, seq_last_q;
  engine_e            last_engine_q;
  logic [FlightW-1:0] in_flight_q;
  logic               out_valid_q;

  assign stall      = out_valid_q && !out_ready_i;
  assign out_fire   = out_valid_q && out_ready_i;
  assign issue      = seq_busy_q && !stall;
  assign seq_done   = issue && seq_grp_q == seq_last_q;
  assign seq_free   = !seq_busy_q || seq_done;
  assign drained    = in_flight_q == '0 || (in_flight_q == FlightW'(1) && out_fire);
  assign in_ready_o = !stall && seq_free && (in_engine == last_engine_q || drained);
  assign accept     = in_valid_i && in_ready_o;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      seq_busy_q    <= 1'b0;
      seq_grp_q     <= '0;
      seq_last_q    <= '0;
      last_engine_q <= ENG_INT4;
      in_flight_q   <= '0;
    end else begin
      if (accept) begin
        seq_busy_q    <= 1'b1;
        seq_grp_q     <= '0;
        seq_last_q    <= in_last_grp;
        last_engine_q <= in_engine;
      end else if (seq_done) begin
        seq_busy_q <= 1'b0;
      end else if (issue) begin
        seq_grp_q <= seq_grp_q + GrpW'(1);
      end
      in_flight_q <= in_flight_q + FlightW'(accept) - FlightW'(out_fire);
    end
  end

  // ---------------------------------------------------------------------------
  // Engine clock gating
  // ---------------------------------------------------------------------------
  // An engine's clock runs from its accept until LINGER cycles after its
  // last instruction left, so every valid bit in its pipelines has shifted
  // out before the clock stops; idle engines keep their state frozen.
  localparam int unsigned LINGER  = MAX_LAT + 2;
  localparam int unsigned LingerW = $clog2(LINGER + 1);
  logic [3:0] eng_busy, eng_en;
  logic       clk_i4, clk_h, clk_f, clk_e2;

  for (genvar e = 0; e < 4; e++) begin : g_gate
    logic [LingerW-1:0] linger_q;
    assign eng_busy[e] = (in_flight_q != '0 && last_engine_q == 2'(e)) ||
                         (accept && in_engine == 2'(e));
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        linger_q <= LingerW'(LINGER);
      end else if (eng_busy[e]) begin
        linger_q <= LingerW'(LINGER);
      end else if (linger_q != '0) begin
        linger_q <= linger_q - LingerW'(1);
      end
    end
    assign eng_en[e] = eng_busy[e] || linger_q != '0;
  end

  tcu_clock_gate u_gate_i4 (.clk_i, .en_i(eng_en[ENG_INT4]), .clk_o(clk_i4));
  tcu_clock_gate u_gate_h  (.clk_i, .en_i(eng_en[ENG_F16]),  .clk_o(clk_h));
  tcu_clock_gate u_gate_f  (.clk_i, .en_i(eng_en[ENG_F64]),  .clk_o(clk_f));
  tcu_clock_gate u_gate_e2 (.clk_i, .en_i(eng_en[ENG_E2M1]), .clk_o(clk_e2));

  // ---------------------------------------------------------------------------
  // Operand register (no reset: loaded on every accept)
  // ---------------------------------------------------------------------------
  engine_e                   op_engine_q;
  logic                      op_sparse_q, op_k32_q, op_a_signed_q, op_b_signed_q;
  logic                      op_satfinite_q, op_c_f16_q, op_d_f16_q, op_scale_4x_q;
  logic [1:0]                op_rnd_q;  // tcu_pkg::roundmode_e
  logic [TagW-1:0]           op_tag_q;
  logic [AW-1:0]             op_a_q;
  logic [BW-1:0]             op_b_q;
  logic [CW-1:0]             op_c_q;
  logic [MetaW-1:0]          op_meta_q;
  logic [SaW-1:0]            op_scale_a_q;
  logic [SbW-1:0]            op_scale_b_q;

  always_ff @(posedge clk_i) begin
    if (accept) begin
      op_engine_q    <= in_engine;
      op_sparse_q    <= in_sparse;
      op_k32_q       <= in_k32;
      op_a_signed_q  <= in_a_signed_i;
      op_b_signed_q  <= in_b_signed_i;
      op_satfinite_q <= in_satfinite_i;
      op_c_f16_q     <= in_c_f16_i;
      op_d_f16_q     <= in_d_f16_i;
      op_scale_4x_q  <= in_scale_4x_i;
      op_rnd_q       <= in_rnd_i;
      op_tag_q       <= in_tag_i;
      op_a_q         <= in_a_i;
      op_b_q         <= in_b_i;
      op_c_q         <= in_c_i;
      op_meta_q      <= in_meta_i;
      op_scale_a_q   <= in_scale_a_i;
      op_scale_b_q   <= in_scale_b_i;
    end
  end

  logic seq_first;
  assign seq_first = seq_grp_q == '0;

  // B's columns, gathered once: int4/e2m1 column c (64 nibbles, k-major) at
  // b4_cols[c*256 +: 256]; e2m1 scale_b column c (4 bytes, block-major) at
  // sb_cols[c*32 +: 32]; f16 (batch, column) at b16_cols[(batch*8+c)*64 +: 64];
  // f64 column c at b64_cols[c*256 +: 256].
  localparam int unsigned B4ColW  = K64 * I4;
  localparam int unsigned SbColW  = E2B * SCW;
  localparam int unsigned B16ColW = QK * H16;
  localparam int unsigned B64ColW = QK * F64;
  logic [N*B4ColW-1:0]    b4_cols;
  logic [N*SbColW-1:0]    sb_cols;
  logic [4*N*B16ColW-1:0] b16_cols;
  logic [N*B64ColW-1:0]   b64_cols;
  for (genvar c = 0; c < N; c++) begin : g_bcol
    for (genvar k = 0; k < K64; k++) begin : g_b4
      assign b4_cols[c*B4ColW + k*I4 +: I4] = op_b_q[(k*N + c)*I4 +: I4];
    end
    for (genvar j = 0; j < E2B; j++) begin : g_sb
      assign sb_cols[c*SbColW + j*SCW +: SCW] = op_scale_b_q[(j*N + c)*SCW +: SCW];
    end
    for (genvar k = 0; k < QK; k++) begin : g_b64
      assign b64_cols[c*B64ColW + k*F64 +: F64] = op_b_q[(k*N + c)*F64 +: F64];
    end
    for (genvar bt = 0; bt < 4; bt++) begin : g_b16
      for (genvar k = 0; k < QK; k++) begin : g_k
        assign b16_cols[(bt*N + c)*B16ColW + k*H16 +: H16] =
            op_b_q[((bt*QK + k)*N + c)*H16 +: H16];
      end
    end
  end

  // ---------------------------------------------------------------------------
  // int4 engine
  // ---------------------------------------------------------------------------
  // Sideband alongside the units: group, first/last, mode, and per unit the
  // C element its slice accumulates into.
  localparam int unsigned I4SbW = GrpW + 2 + 1 + 1 + TagW + INT4_UNITS * I32;
  logic                    i4_issue;
  logic [INT4_UNITS*I32-1:0] i4_c_slots;
  logic [I4SbW-1:0]        i4_sb_d, i4_sb_q;
  logic                    i4_sb_valid;
  logic [INT4_UNITS-1:0]   i4_valid;
  logic [INT4_UNITS*DotW-1:0] i4_sum;

  assign i4_issue = issue && op_engine_q == ENG_INT4;

  for (genvar u = 0; u < INT4_UNITS; u++) begin : g_int4
    // Slice s = group * units + u. Dense k=64: element s/2, half s%2;
    // m8n8k32 and sparse: element s.
    logic [15:0]   slice, elem;
    logic          half, slice_ok;
    logic [3:0]    row;
    logic [2:0]    col;
    logic [4:0]    a_idx;  // 128-bit window of A
    logic [B4ColW-1:0] b_col;
    logic [N*4-1:0]    meta;
    logic [I4L*I4-1:0] b_dense, b_sparse, a_in, b_in;

    // Units are a power of two: the slice is {group, u}.
    assign slice = (16'(seq_grp_q) << INT4_LOG) | 16'(u);
    always_comb begin
      if (op_sparse_q) begin
        elem     = slice;
        half     = 1'b0;
        slice_ok = slice < 16'(SPARSE_SLICES);
      end else if (op_k32_q) begin
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
    assign a_idx = (!op_sparse_q && !op_k32_q) ? {row, half} : {1'b0, row};
    tcu_word_mux #(.Width(I4L*I4), .Words(AW/(I4L*I4))) u_a_mux (
      .data_i(op_a_q), .sel_i(a_idx), .data_o(a_in));
    tcu_word_mux #(.Width(B4ColW), .Words(N)) u_b_mux (
      .data_i(b4_cols), .sel_i(col), .data_o(b_col));
    tcu_word_mux #(.Width(N*4), .Words(16)) u_meta_mux (
      .data_i(op_meta_q), .sel_i(row), .data_o(meta));
    tcu_word_mux #(.Width(I32), .Words(16*N)) u_c_mux (
      .data_i(op_c_q[16*N*I32-1:0]), .sel_i(elem[6:0]), .data_o(i4_c_slots[u*I32 +: I32]));
    assign b_dense = half ? b_col[I4L*I4 +: I4L*I4] : b_col[0 +: I4L*I4];

    tcu_sparse_mux u_sparse_mux (
      .meta_i(meta),
      .b_i   (b_col),
      .b_o   (b_sparse)
    );
    assign b_in = op_sparse_q ? b_sparse : b_dense;

    tcu_int4_dot #(
      .Stages(IntStages)
    ) u_dot (
      .clk_i     (clk_i4),
      .rst_ni    (rst_ni),
      .en_i      (!stall),
      .valid_i   (i4_issue && slice_ok),
      .a_signed_i(op_a_signed_q),
      .b_signed_i(op_b_signed_q),
      .a_i       (a_in),
      .b_i       (b_in),
      .valid_o   (i4_valid[u]),
      .sum_o     (i4_sum[u*DotW +: DotW])
    );

    logic unused_elem;
    assign unused_elem = ^elem[15:7];
  end

  assign i4_sb_d = {seq_grp_q, seq_first, seq_done, !op_sparse_q && !op_k32_q, op_satfinite_q,
                    op_tag_q, i4_c_slots};

  tcu_pipe_reg #(
    .Width(I4SbW),
    .Depth(IntStages)
  ) u_i4_sb (
    .clk_i  (clk_i4),
    .rst_ni (rst_ni),
    .en_i   (!stall),
    .valid_i(i4_issue),
    .data_i (i4_sb_d),
    .valid_o(i4_sb_valid),
    .data_o (i4_sb_q)
  );

  logic [GrpW-1:0]           i4_grp;
  logic                      i4_first, i4_last, i4_k64, i4_satfinite;
  logic [TagW-1:0]           i4_tag;
  logic [INT4_UNITS*I32-1:0] i4_c;
  assign {i4_grp, i4_first, i4_last, i4_k64, i4_satfinite, i4_tag, i4_c} = i4_sb_q;

  // Combine: a dense k=64 element is written at its odd slice (half 1), with
  // the even slice's sum beside it (units >= 2) or from the carry register
  // (one unit: the halves come in consecutive cycles).
  logic [INT4_UNITS*I32-1:0] i4_d;

  if (INT4_UNITS == 1) begin : g_carry
    logic signed [DotW-1:0] carry_q;
    always_ff @(posedge clk_i) begin
      if (!stall && i4_valid[0] && !i4_grp[0]) begin
        carry_q <= i4_sum[0 +: DotW];
      end
    end
  end

  for (genvar u = 0; u < INT4_UNITS; u++) begin : g_int4_acc
    logic signed [DotW-1:0]   sum, partner;
    logic signed [DotW:0]     dot;

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


  // ---------------------------------------------------------------------------
  // e2m1 engine
  // ---------------------------------------------------------------------------
  localparam int unsigned E2SbW = GrpW + 2 + TagW;
  logic                       e2_issue, e2_sb_valid;
  logic [E2SbW-1:0]           e2_sb_q;
  logic [E2M1_UNITS-1:0]      e2_valid;
  logic [E2M1_UNITS*F32-1:0]  e2_d;

  assign e2_issue = issue && op_engine_q == ENG_E2M1;

  for (genvar u = 0; u < E2M1_UNITS; u++) begin : g_e2m1
    logic [15:0]         elem;
    logic [3:0]          row;
    logic [2:0]          col;
    logic [K64*E2-1:0]   a_row;
    logic [B4ColW-1:0]   b_col;
    logic [SbColW-1:0]   sa, sb;
    logic [F32-1:0]      c;
    assign elem = (16'(seq_grp_q) << E2M1_LOG) | 16'(u);
    assign row  = elem[6:3];
    assign col  = elem[2:0];

    tcu_word_mux #(.Width(K64*E2), .Words(16)) u_a_mux (
      .data_i(op_a_q), .sel_i(row), .data_o(a_row));
    tcu_word_mux #(.Width(B4ColW), .Words(N)) u_b_mux (
      .data_i(b4_cols), .sel_i(col), .data_o(b_col));
    tcu_word_mux #(.Width(SbColW), .Words(16)) u_sa_mux (
      .data_i(op_scale_a_q), .sel_i(row), .data_o(sa));
    tcu_word_mux #(.Width(SbColW), .Words(N)) u_sb_mux (
      .data_i(sb_cols), .sel_i(col), .data_o(sb));
    tcu_word_mux #(.Width(F32), .Words(16*N)) u_c_mux (
      .data_i(op_c_q[16*N*F32-1:0]), .sel_i(elem[6:0]), .data_o(c));

    tcu_e2m1_dot #(
      .Stages(E2m1Stages)
    ) u_dot (
      .clk_i     (clk_e2),
      .rst_ni    (rst_ni),
      .en_i      (!stall),
      .valid_i   (e2_issue && elem < 16'(E2M1_SLICES)),
      .scale_4x_i(op_scale_4x_q),
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
    .en_i   (!stall),
    .valid_i(e2_issue),
    .data_i ({seq_grp_q, seq_first, seq_done, op_tag_q}),
    .valid_o(e2_sb_valid),
    .data_o (e2_sb_q)
  );

  logic [GrpW-1:0] e2_grp;
  logic            e2_first, e2_last;
  logic [TagW-1:0] e2_tag;
  assign {e2_grp, e2_first, e2_last, e2_tag} = e2_sb_q;

  // ---------------------------------------------------------------------------
  // f16 engine
  // ---------------------------------------------------------------------------
  localparam int unsigned F16SbW = GrpW + 2 + 1 + TagW;
  logic                      h_issue, h_sb_valid;
  logic [F16SbW-1:0]         h_sb_q;
  logic [F16_UNITS-1:0]      h_valid;
  logic [F16_UNITS*F32-1:0]  h_d;

  assign h_issue = issue && op_engine_q == ENG_F16;

  for (genvar u = 0; u < F16_UNITS; u++) begin : g_f16
    // Element e: quad pair e[7:6], row e[5:3], column e[2:0].
    logic [15:0]        elem;
    logic [QK*H16-1:0]  a_row, b_col;
    logic [H16-1:0]     c16;
    logic [F32-1:0]     c32, c_in;
    assign elem = (16'(seq_grp_q) << F16_LOG) | 16'(u);

    tcu_word_mux #(.Width(QK*H16), .Words(4*8)) u_a_mux (
      .data_i(op_a_q[4*8*QK*H16-1:0]), .sel_i(elem[7:3]), .data_o(a_row));
    tcu_word_mux #(.Width(B16ColW), .Words(4*N)) u_b_mux (
      .data_i(b16_cols), .sel_i({elem[7:6], elem[2:0]}), .data_o(b_col));
    tcu_word_mux #(.Width(H16), .Words(4*8*N)) u_c16_mux (
      .data_i(op_c_q[4*8*N*H16-1:0]), .sel_i(elem[7:0]), .data_o(c16));
    tcu_word_mux #(.Width(F32), .Words(4*8*N)) u_c32_mux (
      .data_i(op_c_q), .sel_i(elem[7:0]), .data_o(c32));
    assign c_in = op_c_f16_q ? {{(F32 - H16){1'b0}}, c16} : c32;

    tcu_f16_dot #(
      .FmaStages(FmaStages)
    ) u_dot (
      .clk_i  (clk_h),
      .rst_ni (rst_ni),
      .en_i   (!stall),
      .valid_i(h_issue && elem < 16'(F16_SLICES)),
      .a_i    (a_row),
      .b_i    (b_col),
      .c_i    (c_in),
      .c_f16_i(op_c_f16_q),
      .d_f16_i(op_d_f16_q),
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
    .en_i   (!stall),
    .valid_i(h_issue),
    .data_i ({seq_grp_q, seq_first, seq_done, op_d_f16_q, op_tag_q}),
    .valid_o(h_sb_valid),
    .data_o (h_sb_q)
  );

  logic [GrpW-1:0] h_grp;
  logic            h_first, h_last, h_d_f16;
  logic [TagW-1:0] h_tag;
  assign {h_grp, h_first, h_last, h_d_f16, h_tag} = h_sb_q;

  // ---------------------------------------------------------------------------
  // f64 engine
  // ---------------------------------------------------------------------------
  localparam int unsigned F64SbW = GrpW + 2 + TagW;
  logic                      f_issue, f_sb_valid;
  logic [F64SbW-1:0]         f_sb_q;
  logic [F64_UNITS-1:0]      f_valid;
  logic [F64_UNITS*F64-1:0]  f_d;

  assign f_issue = issue && op_engine_q == ENG_F64;

  for (genvar u = 0; u < F64_UNITS; u++) begin : g_f64
    logic [15:0]        elem;
    logic [QK*F64-1:0]  a_row, b_col;
    logic [F64-1:0]     c;
    assign elem = (16'(seq_grp_q) << F64_LOG) | 16'(u);

    tcu_word_mux #(.Width(QK*F64), .Words(8)) u_a_mux (
      .data_i(op_a_q[8*QK*F64-1:0]), .sel_i(elem[5:3]), .data_o(a_row));
    tcu_word_mux #(.Width(B64ColW), .Words(N)) u_b_mux (
      .data_i(b64_cols), .sel_i(elem[2:0]), .data_o(b_col));
    tcu_word_mux #(.Width(F64), .Words(8*N)) u_c_mux (
      .data_i(op_c_q[8*N*F64-1:0]), .sel_i(elem[5:0]), .data_o(c));

    tcu_f64_dot #(
      .FmaStages(FmaStages)
    ) u_dot (
      .clk_i  (clk_f),
      .rst_ni (rst_ni),
      .en_i   (!stall),
      .valid_i(f_issue && elem < 16'(F64_SLICES)),
      .a_i    (a_row),
      .b_i    (b_col),
      .c_i    (c),
      .rnd_i  (op_rnd_q),
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
    .en_i   (!stall),
    .valid_i(f_issue),
    .data_i ({seq_grp_q, seq_first, seq_done, op_tag_q}),
    .valid_o(f_sb_valid),
    .data_o (f_sb_q)
  );

  logic [GrpW-1:0] f_grp;
  logic            f_first, f_last;
  logic [TagW-1:0] f_tag;
  assign {f_grp, f_first, f_last, f_tag} = f_sb_q;

  // ---------------------------------------------------------------------------
  // D buffer and the output
  // ---------------------------------------------------------------------------
  // One engine delivers at a time (the drain rule). A group's first arrival
  // clears what the previous D left; every unit result is written at its
  // element's place in C's packing with the D type's width.
  logic [CW-1:0]   dbuf_d, dbuf_q;
  logic            arrive_first, arrive_last;
  logic [TagW-1:0] arrive_tag;

  assign arrive_first = (i4_sb_valid && i4_first) || (e2_sb_valid && e2_first) ||
                        (h_sb_valid && h_first) || (f_sb_valid && f_first);
  assign arrive_last  = (i4_sb_valid && i4_last) || (e2_sb_valid && e2_last) ||
                        (h_sb_valid && h_last) || (f_sb_valid && f_last);
  assign arrive_tag   = ({TagW{i4_sb_valid}} & i4_tag) | ({TagW{e2_sb_valid}} & e2_tag) |
                        ({TagW{h_sb_valid}} & h_tag) | ({TagW{f_sb_valid}} & f_tag);

  // The D buffer in 16-bit pieces, each with its one possible source per
  // engine and mode (so every write has a constant place): the 32-bit element
  // h/2 (int4, e2m1, f16 with f32 D), the f16 element h, or a quarter of the
  // f64 element h/4. A source writes when its unit's result is valid and its
  // engine's group is the one whose slice holds that element.
  localparam int unsigned Piece = 16;
  for (genvar h = 0; h < CW / Piece; h++) begin : g_dbuf
    localparam int unsigned E32 = h / 2;  // 32-bit element
    localparam int unsigned P32 = h % 2;
    localparam int unsigned E64 = h / 4;  // f64 element
    localparam int unsigned P64 = h % 4;

    logic             wr_i4, wr_e2, wr_h32, wr_h16, wr_f;
    logic [Piece-1:0] d_i4, d_e2, d_h32, d_h16, d_f;

    // int4: a k=64 element at its odd slice 2e+1; m8n8k32 and sparse at e.
    if (E32 < 16 * N) begin : g_i4
      localparam int unsigned S64 = 2 * E32 + 1;
      localparam int unsigned U64 = S64 % INT4_UNITS;
      localparam int unsigned U1  = E32 % INT4_UNITS;
      assign wr_i4 = i4_k64 ? i4_valid[U64] && i4_grp == GrpW'(S64 / INT4_UNITS)
                            : i4_valid[U1] && i4_grp == GrpW'(E32 / INT4_UNITS);
      assign d_i4  = i4_k64 ? i4_d[U64*I32 + P32*Piece +: Piece]
                            : i4_d[U1*I32 + P32*Piece +: Piece];
    end else begin : g_no_i4
      assign wr_i4 = 1'b0;
      assign d_i4  = '0;
    end

    if (E32 < E2M1_SLICES) begin : g_e2
      localparam int unsigned U = E32 % E2M1_UNITS;
      assign wr_e2 = e2_valid[U] && e2_grp == GrpW'(E32 / E2M1_UNITS);
      assign d_e2  = e2_d[U*F32 + P32*Piece +: Piece];
    end else begin : g_no_e2
      assign wr_e2 = 1'b0;
      assign d_e2  = '0;
    end

    if (E32 < F16_SLICES) begin : g_h32
      localparam int unsigned U = E32 % F16_UNITS;
      assign wr_h32 = !h_d_f16 && h_valid[U] && h_grp == GrpW'(E32 / F16_UNITS);
      assign d_h32  = h_d[U*F32 + P32*Piece +: Piece];
    end else begin : g_no_h32
      assign wr_h32 = 1'b0;
      assign d_h32  = '0;
    end

    if (h < F16_SLICES) begin : g_h16
      localparam int unsigned U = h % F16_UNITS;
      assign wr_h16 = h_d_f16 && h_valid[U] && h_grp == GrpW'(h / F16_UNITS);
      assign d_h16  = h_d[U*F32 +: H16];
    end else begin : g_no_h16
      assign wr_h16 = 1'b0;
      assign d_h16  = '0;
    end

    if (E64 < F64_SLICES) begin : g_f
      localparam int unsigned U = E64 % F64_UNITS;
      assign wr_f = f_valid[U] && f_grp == GrpW'(E64 / F64_UNITS);
      assign d_f  = f_d[U*F64 + P64*Piece +: Piece];
    end else begin : g_no_f
      assign wr_f = 1'b0;
      assign d_f  = '0;
    end

    assign dbuf_d[h*Piece +: Piece] = wr_i4        ? d_i4  :
                                      wr_e2        ? d_e2  :
                                      wr_h32       ? d_h32 :
                                      wr_h16       ? d_h16 :
                                      wr_f         ? d_f   :
                                      arrive_first ? '0    : dbuf_q[h*Piece +: Piece];
  end

  // With more units than an engine has slices (a family given more MACs or
  // FMAs per cycle than its largest instruction uses), the extra units never
  // receive a valid slice and their results go nowhere.
  logic unused_results;
  assign unused_results = ^{i4_d, e2_d, h_d, f_d};

  logic [TagW-1:0] out_tag_q;

  always_ff @(posedge clk_i) begin
    if (!stall) begin
      dbuf_q <= dbuf_d;
      if (arrive_last) begin
        out_tag_q <= arrive_tag;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      out_valid_q <= 1'b0;
    end else if (!stall) begin
      out_valid_q <= arrive_last;
    end
  end

  assign out_valid_o = out_valid_q;
  assign out_tag_o   = out_tag_q;
  assign out_d_o     = dbuf_q;

endmodule
