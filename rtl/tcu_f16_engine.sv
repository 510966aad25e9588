// The f16 engine of tcu_datapath: Units tcu_f16_dot, one D element of one
// m8n8k4 quad pair each (.f16 or .f32 C and D). Behind its own gated clock
// (clk_en_i): the operand register loads at start_i, the slice sequencer
// issues the groups, unit u takes element group * Units + u, and the results
// go into the D buffer (d_o), which the engine owns from its last group's
// arrival until pipe_take_i. status_o is the bundle every engine shows the
// control (tcu_pkg STATUS_*). The gated clock, the sequencer, the group pipe,
// the D buffer, ownership and status are its tcu_engine_frame's. Enable = 0
// builds nothing: status_o and d_o are zero.
module tcu_f16_engine #(
  parameter bit          Enable    = tcu_pkg::F16Enable,
  parameter int unsigned Units     = tcu_pkg::F16FmasPerCycle / tcu_pkg::F16_DOT_LANES,
  parameter int unsigned FmaStages = tcu_pkg::FmaStages,
  parameter bit          SynthImpl = tcu_pkg::SynthImpl  // 1: the units' synthesis implementations
) (
  input  logic                              clk_i,
  input  logic                              rst_ni,
  input  logic                              clk_en_i,
  input  logic                              pipe_en_i,
  input  logic                              pipe_take_i,
  input  logic                              start_i,
  input  logic [tcu_pkg::DESC_BITS-1:0]     desc_i,
  input  logic [tcu_pkg::M8N8K4_A_BITS-1:0] a_i,
  input  logic [tcu_pkg::B_BITS-1:0]        b_i,
  input  logic [tcu_pkg::C_BITS-1:0]        c_i,
  output logic [tcu_pkg::STATUS_BITS-1:0]   status_o,
  output logic [tcu_pkg::D_BITS-1:0]        d_o
);

  localparam int unsigned TAG_BITS    = tcu_pkg::TAG_BITS;
  localparam int unsigned MACS_BITS   = tcu_pkg::MACS_BITS;
  localparam int unsigned F16_BITS    = tcu_pkg::fp_width(tcu_pkg::FP16);
  localparam int unsigned F32_BITS    = tcu_pkg::fp_width(tcu_pkg::FP32);
  localparam int unsigned DOT_K       = tcu_pkg::F16_DOT_LANES;  // and FMAs of a slice
  localparam int unsigned ROW_BITS    = DOT_K * F16_BITS;    // an A row, a B column
  localparam int unsigned SLICES      = tcu_pkg::F16_SLICES;  // 4 quad pairs x 8 x 8
  localparam int unsigned GROUPS      = (SLICES + Units - 1) / Units;
  localparam int unsigned GroupW      = GROUPS > 1 ? $clog2(GROUPS) : 1;
  localparam int unsigned LATENCY     = 5 * FmaStages;  // tcu_f16_dot's
  localparam int unsigned PIECE_BITS  = 16;  // D buffer granule: an f16, half an f32

  localparam logic [MACS_BITS-1:0] LAST_GROUP_MACS =
      MACS_BITS'((SLICES - (GROUPS - 1) * Units) * DOT_K);

  if (Enable) begin : g_engine
    logic                      clk_engine;
    logic                      seq_busy, issue;
    logic [GroupW-1:0]         group_q;
    logic                      c_f16_q, d_f16_q;
    logic [TAG_BITS-1:0]       tag_q;
    logic [tcu_pkg::M8N8K4_A_BITS-1:0] a_q;
    logic [tcu_pkg::B_BITS-1:0]        b_q;
    logic [tcu_pkg::C_BITS-1:0]        c_q;
    logic                      arrive;
    logic [GroupW-1:0]         arrive_group;
    logic                      arrive_first, arrive_last, arrive_d_f16;
    logic [Units-1:0]          unit_valid;
    logic [Units*F32_BITS-1:0] unit_d;

    // The gated clock, the sequencer, the group pipe (the group, its first
    // and last flags, D's type, the tag), ownership, status and the D buffer
    // in 16-bit pieces: piece p is the f16 element p (the unit's low half),
    // or, for an f32 D, half p % 2 of the f32 element p / 2.
    tcu_engine_frame #(
      .Units        (Units),
      .Groups       (GROUPS),
      .Latency      (LATENCY),
      .ModeW        (1),
      .UnitW        (F32_BITS),
      .Slices       (SLICES),
      .PieceW       (PIECE_BITS),
      .Pieces       (8192 / PIECE_BITS),
      .AltLayout    (1'b1),
      .AltPieces    (F32_BITS / PIECE_BITS),
      .FullGroupMacs(Units * DOT_K)
    ) u_frame (
      .clk_i,
      .rst_ni,
      .clk_en_i,
      .pipe_en_i,
      .pipe_take_i,
      .start_i,
      .last_group_i  (GroupW'(GROUPS - 1)),
      .clk_o         (clk_engine),
      .busy_o        (seq_busy),
      .group_o       (group_q),
      .issue_o       (issue),
      .tag_i         (tag_q),
      .mode_i        (d_f16_q),
      .last_macs_i   (LAST_GROUP_MACS),
      .unit_valid_i  (unit_valid),
      .unit_d_i      (unit_d),
      .arrive_o      (arrive),
      .arrive_group_o(arrive_group),
      .arrive_first_o(arrive_first),
      .arrive_last_o (arrive_last),
      .arrive_mode_o (arrive_d_f16),
      .d_alt_i       (!arrive_d_f16),
      .status_o,
      .d_o
    );

    always_ff @(posedge clk_engine) begin
      if (start_i) begin
        c_f16_q <= desc_i[tcu_pkg::DESC_C_F16];
        d_f16_q <= desc_i[tcu_pkg::DESC_D_F16];
        tag_q   <= desc_i[tcu_pkg::DESC_TAG +: TAG_BITS];
        a_q     <= a_i;
        b_q     <= b_i;
        c_q     <= c_i;
      end
    end

    // The units. Synthesis form (SynthImpl = 1): tcu_f16_dot, its operands
    // chosen from the operand register.
    for (genvar u = 0; u < (SynthImpl ? Units : 0); u++) begin : g_unit
      // Element e: quad pair e[7:6], row e[5:3], column e[2:0].
      logic [15:0]          elem;
      logic [ROW_BITS-1:0]  a_row, b_column;
      logic [F16_BITS-1:0]  c16;
      logic [F32_BITS-1:0]  c32, c;
      assign elem = 16'(group_q) * 16'(Units) + 16'(u);

      tcu_word_mux #(.Width(ROW_BITS), .Words(4*8), .SynthImpl(SynthImpl)) u_a_mux (
        .data_i(a_q), .sel_i(elem[7:3]), .data_o(a_row));
      tcu_word_mux #(.Width(ROW_BITS), .Words(4*8), .SynthImpl(SynthImpl)) u_b_mux (
        .data_i(b_q), .sel_i({elem[7:6], elem[2:0]}), .data_o(b_column));
      tcu_word_mux #(.Width(F16_BITS), .Words(4*8*8), .SynthImpl(SynthImpl)) u_c16_mux (
        .data_i(c_q[4*8*8*F16_BITS-1:0]), .sel_i(elem[7:0]), .data_o(c16));
      tcu_word_mux #(.Width(F32_BITS), .Words(4*8*8), .SynthImpl(SynthImpl)) u_c32_mux (
        .data_i(c_q), .sel_i(elem[7:0]), .data_o(c32));
      assign c = c_f16_q ? {{(F32_BITS - F16_BITS){1'b0}}, c16} : c32;

      tcu_f16_dot #(
        .FmaStages(FmaStages),
        .SynthImpl(SynthImpl)
      ) u_dot (
        .clk_i  (clk_engine),
        .rst_ni (rst_ni),
        .en_i   (pipe_en_i),
        .valid_i(seq_busy && elem < 16'(SLICES)),  // see tcu_int4_engine's u_dot
        .a_i    (a_row),
        .b_i    (b_column),
        .c_i    (c),
        .c_f16_i(c_f16_q),
        .d_f16_i(d_f16_q),
        .valid_o(unit_valid[u]),
        .d_o    (unit_d[u*F32_BITS +: F32_BITS])
      );

      logic unused_elem;
      assign unused_elem = ^elem[15:8];
    end

    // Fast form (SynthImpl = 0): the operand records (tcu_f16_fast_operands,
    // registers loaded with the operand register: every A row's and B
    // column's f16 elements and every C element widened and classified once
    // an instruction; A's record of row r, element k is r * DOT_K + k, B's
    // likewise by column, C's record e) and each unit's chain
    // (tcu_f16_fast_unit around tcu_f16_fast_chain, proven equal to
    // tcu_f16_dot_synth with tcu_f16_fast_operands in front of it as
    // tcu_f16_dot_fast), which widens and classifies nothing. The unit
    // instances are g_unit[u].u_dot in both forms; the fast unit's a_i, b_i,
    // c_i and c_f16_i are the unit's operands as tcu_f16_dot takes them, for
    // the waveform and tcu_tools.phys.workload.
    if (!SynthImpl) begin : g_fast
      localparam int unsigned OpW = 64;  // tcu_f16_fast_operands's record
      logic [SLICES/8*DOT_K*OpW-1:0] a_op, b_op;
      logic [SLICES*OpW-1:0]         c_op;
      tcu_f16_fast_operands #(
        .Count     (SLICES / 8 * DOT_K),
        .InW       (F16_BITS),
        .Registered(1'b1)
      ) u_a_op (
        .clk_i (clk_engine),
        .load_i(start_i),
        .f16_i (1'b1),
        .word_i(a_i),
        .op_o  (a_op)
      );
      tcu_f16_fast_operands #(
        .Count     (SLICES / 8 * DOT_K),
        .InW       (F16_BITS),
        .Registered(1'b1)
      ) u_b_op (
        .clk_i (clk_engine),
        .load_i(start_i),
        .f16_i (1'b1),
        .word_i(b_i),
        .op_o  (b_op)
      );
      tcu_f16_fast_operands #(
        .Count     (SLICES),
        .InW       (F32_BITS),
        .Registered(1'b1)
      ) u_c_op (
        .clk_i (clk_engine),
        .load_i(start_i),
        .f16_i (desc_i[tcu_pkg::DESC_C_F16]),
        .word_i(c_i),
        .op_o  (c_op)
      );

      for (genvar u = 0; u < Units; u++) begin : g_unit
        logic [15:0]          elem;
        logic [ROW_BITS-1:0]  a_row, b_column;
        logic [F16_BITS-1:0]  c16;
        logic [F32_BITS-1:0]  c32, c;
        assign elem = 16'(group_q) * 16'(Units) + 16'(u);

        tcu_word_mux #(.Width(ROW_BITS), .Words(4*8), .SynthImpl(1'b0)) u_a_mux (
          .data_i(a_q), .sel_i(elem[7:3]), .data_o(a_row));
        tcu_word_mux #(.Width(ROW_BITS), .Words(4*8), .SynthImpl(1'b0)) u_b_mux (
          .data_i(b_q), .sel_i({elem[7:6], elem[2:0]}), .data_o(b_column));
        tcu_word_mux #(.Width(F16_BITS), .Words(4*8*8), .SynthImpl(1'b0)) u_c16_mux (
          .data_i(c_q[4*8*8*F16_BITS-1:0]), .sel_i(elem[7:0]), .data_o(c16));
        tcu_word_mux #(.Width(F32_BITS), .Words(4*8*8), .SynthImpl(1'b0)) u_c32_mux (
          .data_i(c_q), .sel_i(elem[7:0]), .data_o(c32));
        assign c = c_f16_q ? {{(F32_BITS - F16_BITS){1'b0}}, c16} : c32;

        tcu_f16_fast_unit #(.FmaStages(FmaStages)) u_dot (
          .clk_i  (clk_engine),
          .rst_ni (rst_ni),
          .en_i   (pipe_en_i),
          .valid_i(seq_busy && elem < 16'(SLICES)),  // see tcu_int4_engine's u_dot
          .a_i    (a_row),
          .b_i    (b_column),
          .c_i    (c),
          .c_f16_i(c_f16_q),
          .d_f16_i(d_f16_q),
          .a_op_i (a_op[elem[7:3]*DOT_K*OpW +: DOT_K*OpW]),
          .b_op_i (b_op[{elem[7:6], elem[2:0]}*DOT_K*OpW +: DOT_K*OpW]),
          .c_op_i (c_op[elem[7:0]*OpW +: OpW]),
          .valid_o(unit_valid[u]),
          .d_o    (unit_d[u*F32_BITS +: F32_BITS])
        );

        logic unused_elem;
        assign unused_elem = ^elem[15:8];
      end
    end

    // The arriving group's information is the frame's (shown in the
    // waveforms); the descriptor's fields between the tag and C's type are
    // other engines'.
    logic unused_inputs;
    assign unused_inputs = ^{issue, arrive, arrive_group, arrive_first, arrive_last,
                             desc_i[tcu_pkg::DESC_C_F16-1:tcu_pkg::DESC_FAMILY],
                             desc_i[tcu_pkg::DESC_SCALE_4X]};
  end else begin : g_absent
    assign status_o = '0;
    assign d_o      = '0;

    logic unused_inputs;
    assign unused_inputs = ^{clk_i, rst_ni, clk_en_i, pipe_en_i, pipe_take_i, start_i, desc_i,
                             a_i, b_i, c_i};
  end

endmodule
