// The e2m1 engine of tcu_datapath: Units tcu_e2m1_dot, one D element of a
// block-scaled m16n8k64 each. Behind its own gated clock (clk_en_i): the
// operand register loads at start_i, the slice sequencer issues the groups,
// unit u takes element group * Units + u, and the results go into the D
// buffer (d_o), which the engine owns from its last group's arrival until
// pipe_take_i. status_o is the bundle every engine shows the control (tcu_pkg
// STATUS_*). The gated clock, the sequencer, the group pipe, the D buffer,
// ownership and status are its tcu_engine_frame's. Enable = 0 builds nothing:
// status_o and d_o are zero.
module tcu_e2m1_engine #(
  parameter bit          Enable = tcu_pkg::E2m1Enable,
  parameter int unsigned Units  = tcu_pkg::E2m1MacsPerCycle / tcu_pkg::E2M1_DOT_LANES,
  parameter int unsigned Stages = tcu_pkg::E2m1Stages,
  parameter bit          SynthImpl = tcu_pkg::SynthImpl  // 1: the units' synthesis implementations
) (
  input  logic                             clk_i,
  input  logic                             rst_ni,
  input  logic                             clk_en_i,
  input  logic                             pipe_en_i,
  input  logic                             pipe_take_i,
  input  logic                             start_i,
  input  logic [tcu_pkg::DESC_BITS-1:0]    desc_i,
  input  logic [tcu_pkg::A_BITS-1:0]       a_i,
  input  logic [tcu_pkg::B_BITS-1:0]       b_i,
  input  logic [tcu_pkg::M16N8_C_BITS-1:0] c_i,
  input  logic [tcu_pkg::SCALE_A_BITS-1:0] scale_a_i,
  input  logic [tcu_pkg::SCALE_B_BITS-1:0] scale_b_i,
  output logic [tcu_pkg::STATUS_BITS-1:0]  status_o,
  output logic [tcu_pkg::M16N8_C_BITS-1:0] d_o
);

  localparam int unsigned TAG_BITS    = tcu_pkg::TAG_BITS;
  localparam int unsigned MACS_BITS   = tcu_pkg::MACS_BITS;
  localparam int unsigned CODE_BITS   = tcu_pkg::fp_width(tcu_pkg::E2M1);
  localparam int unsigned SCALE_BITS  = tcu_pkg::fp_width(tcu_pkg::UE8M0);
  localparam int unsigned F32_BITS    = tcu_pkg::fp_width(tcu_pkg::FP32);
  localparam int unsigned LANES       = tcu_pkg::E2M1_DOT_LANES;  // k, and MACs of a slice
  localparam int unsigned ROW_BITS    = LANES * CODE_BITS;        // an A row, a B column
  // A row's or a column's scale factors (B's scales arrive column-major).
  localparam int unsigned SCALES_BITS = tcu_pkg::E2M1_MAX_BLOCKS * SCALE_BITS;
  localparam int unsigned SLICES      = tcu_pkg::E2M1_SLICES;
  localparam int unsigned GROUPS      = (SLICES + Units - 1) / Units;
  localparam int unsigned GroupW      = GROUPS > 1 ? $clog2(GROUPS) : 1;

  localparam logic [MACS_BITS-1:0] LAST_GROUP_MACS =
      MACS_BITS'((SLICES - (GROUPS - 1) * Units) * LANES);

  if (Enable) begin : g_engine
    logic                      clk_engine;
    logic                      seq_busy, issue;
    logic [GroupW-1:0]         group_q;
    logic                      scale_4x_q;
    logic [TAG_BITS-1:0]       tag_q;
    logic [tcu_pkg::A_BITS-1:0]       a_q;
    logic [tcu_pkg::B_BITS-1:0]       b_q;
    logic [tcu_pkg::M16N8_C_BITS-1:0] c_q;
    logic [tcu_pkg::SCALE_A_BITS-1:0] scale_a_q;
    logic [tcu_pkg::SCALE_B_BITS-1:0] scale_b_q;
    logic                      arrive;
    logic [GroupW-1:0]         arrive_group;
    logic                      arrive_first, arrive_last;
    logic [Units-1:0]          unit_valid;
    logic [Units*F32_BITS-1:0] unit_d;
    logic                      unused_mode;

    // The gated clock, the sequencer, the group pipe (the group, its first
    // and last flags, the tag), the D buffer (element e: unit e % Units's
    // result in group e / Units), ownership and status.
    tcu_engine_frame #(
      .Units        (Units),
      .Groups       (GROUPS),
      .Latency      (Stages),
      .UnitW        (F32_BITS),
      .Slices       (SLICES),
      .FullGroupMacs(Units * LANES)
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
      .mode_i        (1'b0),
      .last_macs_i   (LAST_GROUP_MACS),
      .unit_valid_i  (unit_valid),
      .unit_d_i      (unit_d),
      .arrive_o      (arrive),
      .arrive_group_o(arrive_group),
      .arrive_first_o(arrive_first),
      .arrive_last_o (arrive_last),
      .arrive_mode_o (unused_mode),
      .d_alt_i       (1'b0),
      .status_o,
      .d_o
    );

    always_ff @(posedge clk_engine) begin
      if (start_i) begin
        scale_4x_q <= desc_i[tcu_pkg::DESC_SCALE_4X];
        tag_q      <= desc_i[tcu_pkg::DESC_TAG +: TAG_BITS];
        a_q        <= a_i;
        b_q        <= b_i;
        c_q        <= c_i;
        scale_a_q  <= scale_a_i;
        scale_b_q  <= scale_b_i;
      end
    end

    for (genvar u = 0; u < Units; u++) begin : g_unit
      logic [15:0]            elem;
      logic [3:0]             row;
      logic [2:0]             col;
      logic [ROW_BITS-1:0]    a_row, b_column;
      logic [SCALES_BITS-1:0] scale_a, scale_b;
      logic [F32_BITS-1:0]    c;
      assign elem = 16'(group_q) * 16'(Units) + 16'(u);
      assign row  = elem[6:3];
      assign col  = elem[2:0];

      tcu_word_mux #(.Width(ROW_BITS), .Words(16), .SynthImpl(SynthImpl)) u_a_mux (
        .data_i(a_q), .sel_i(row), .data_o(a_row));
      tcu_word_mux #(.Width(ROW_BITS), .Words(8), .SynthImpl(SynthImpl)) u_b_mux (
        .data_i(b_q), .sel_i(col), .data_o(b_column));
      tcu_word_mux #(.Width(SCALES_BITS), .Words(16), .SynthImpl(SynthImpl)) u_scale_a_mux (
        .data_i(scale_a_q), .sel_i(row), .data_o(scale_a));
      tcu_word_mux #(.Width(SCALES_BITS), .Words(8), .SynthImpl(SynthImpl)) u_scale_b_mux (
        .data_i(scale_b_q), .sel_i(col), .data_o(scale_b));
      tcu_word_mux #(.Width(F32_BITS), .Words(16*8), .SynthImpl(SynthImpl)) u_c_mux (
        .data_i(c_q), .sel_i(elem[6:0]), .data_o(c));

      tcu_e2m1_dot #(
        .Stages   (Stages),
        .SynthImpl(SynthImpl)
      ) u_dot (
        .clk_i     (clk_engine),
        .rst_ni    (rst_ni),
        .en_i      (pipe_en_i),
        .valid_i   (seq_busy && elem < 16'(SLICES)),  // see tcu_int4_engine's u_dot
        .scale_4x_i(scale_4x_q),
        .a_i       (a_row),
        .b_i       (b_column),
        .scale_a_i (scale_a),
        .scale_b_i (scale_b),
        .c_i       (c),
        .valid_o   (unit_valid[u]),
        .d_o       (unit_d[u*F32_BITS +: F32_BITS])
      );

      logic unused_elem;
      assign unused_elem = ^elem[15:7];
    end

    // The arriving group's information is the frame's (shown in the
    // waveforms); the descriptor's fields between the tag and scale_4x are
    // other engines'.
    logic unused_inputs;
    assign unused_inputs = ^{issue, arrive, arrive_group, arrive_first, arrive_last,
                             desc_i[tcu_pkg::DESC_SCALE_4X-1:tcu_pkg::DESC_FAMILY]};
  end else begin : g_absent
    assign status_o = '0;
    assign d_o      = '0;

    logic unused_inputs;
    assign unused_inputs = ^{clk_i, rst_ni, clk_en_i, pipe_en_i, pipe_take_i, start_i, desc_i,
                             a_i, b_i, c_i, scale_a_i, scale_b_i};
  end

endmodule
