// The int4 engine of tcu_datapath: Units tcu_int4_dot (32-wide) for dense
// (m16n8k64, m8n8k32) and, with SparseEnable, sparse (mma.sp m16n8k64)
// instructions. A dense k=64 D element is two 32-wide halves (slices 2e and
// 2e+1) added together, an m8n8k32 or sparse element one slice (sparse
// through a tcu_sparse_mux per unit); tcu_int4_accumulate adds C (wrap or
// .satfinite).
//
// Behind its own gated clock (clk_en_i, from tcu_datapath_ctrl): the operand
// register loads at start_i, the slice sequencer issues the instruction's
// groups, unit u takes slice group * Units + u, and the results go into the D
// buffer (d_o), which the engine owns from its last group's arrival until
// pipe_take_i. status_o is the bundle every engine shows the control (tcu_pkg
// STATUS_*). The gated clock, the sequencer, the group pipe, the D buffer,
// ownership and status are its tcu_engine_frame's. Enable = 0 builds nothing:
// status_o and d_o are zero.
module tcu_int4_engine #(
  parameter bit          Enable       = tcu_pkg::Int4Enable,
  parameter bit          SparseEnable = tcu_pkg::SparseEnable,
  parameter int unsigned Units        = tcu_pkg::Int4MacsPerCycle / tcu_pkg::INT4_DOT_LANES,
  parameter int unsigned Stages       = tcu_pkg::IntStages,
  parameter bit          SynthImpl    = tcu_pkg::SynthImpl  // 1: the units' synthesis implementations
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
  input  logic [tcu_pkg::META_BITS-1:0]    meta_i,
  output logic [tcu_pkg::STATUS_BITS-1:0]  status_o,
  output logic [tcu_pkg::M16N8_C_BITS-1:0] d_o
);

  localparam int unsigned TAG_BITS    = tcu_pkg::TAG_BITS;
  localparam int unsigned MACS_BITS   = tcu_pkg::MACS_BITS;
  localparam int unsigned CODE_BITS   = tcu_pkg::INT4_BITS;
  localparam int unsigned ACC_BITS    = tcu_pkg::INT32_BITS;
  localparam int unsigned LANES       = tcu_pkg::INT4_DOT_LANES;
  localparam int unsigned SUM_BITS    = tcu_pkg::INT4_DOT_WIDTH;
  localparam int unsigned HALF_BITS   = LANES * CODE_BITS;  // one unit's A or B operand
  localparam int unsigned COLUMN_BITS = 2 * HALF_BITS;      // a B column of k = 64
  localparam int unsigned ELEMENTS    = 16 * 8;             // of D (m16n8)

  localparam int unsigned K64_SLICES    = tcu_pkg::INT4_K64_SLICES;
  localparam int unsigned K32_SLICES    = tcu_pkg::INT4_K32_SLICES;
  localparam int unsigned SPARSE_SLICES = tcu_pkg::INT4_SPARSE_SLICES;
  localparam int unsigned K64_GROUPS    = (K64_SLICES + Units - 1) / Units;
  localparam int unsigned K32_GROUPS    = (K32_SLICES + Units - 1) / Units;
  localparam int unsigned SPARSE_GROUPS = (SPARSE_SLICES + Units - 1) / Units;
  localparam int unsigned GroupW        = K64_GROUPS > 1 ? $clog2(K64_GROUPS) : 1;

  // MACs a group issues: every group but the last keeps all units busy; the
  // last holds the remaining slices (32 products each, sparse included: the
  // 32 stored, non-zero elements of a row).
  localparam logic [MACS_BITS-1:0] K64_LAST_MACS     =
      MACS_BITS'((K64_SLICES - (K64_GROUPS - 1) * Units) * LANES);
  localparam logic [MACS_BITS-1:0] K32_LAST_MACS     =
      MACS_BITS'((K32_SLICES - (K32_GROUPS - 1) * Units) * LANES);
  localparam logic [MACS_BITS-1:0] SPARSE_LAST_MACS  =
      MACS_BITS'((SPARSE_SLICES - (SPARSE_GROUPS - 1) * Units) * LANES);

  if (Enable) begin : g_engine
    logic                  clk_engine;
    logic                  start_sparse, start_k32;
    logic [GroupW-1:0]     last_group;
    logic                  seq_busy, issue;
    logic [GroupW-1:0]     group_q;
    logic                  sparse_q, k32_q, a_signed_q, b_signed_q, satfinite_q;
    logic [TAG_BITS-1:0]   tag_q;
    logic [tcu_pkg::A_BITS-1:0]       a_q;
    logic [tcu_pkg::B_BITS-1:0]       b_q;
    logic [tcu_pkg::M16N8_C_BITS-1:0] c_q;
    logic [MACS_BITS-1:0]  last_macs;
    logic                  arrive;
    logic [GroupW-1:0]     arrive_group;
    logic                  arrive_first, arrive_last, arrive_k64, arrive_satfinite;
    logic [Units-1:0]      unit_valid;
    logic [Units*ACC_BITS-1:0] unit_d;  // a result per unit, C accumulated

    // The gated clock, the sequencer, the group pipe (the group, its first
    // and last flags, the mode and the tag), ownership, status and the D
    // buffer: element e's register takes its one source unit's result, a
    // k=64 element at its odd slice 2e+1 (the alternative layout),
    // m8n8k32 and sparse at slice e.
    tcu_engine_frame #(
      .Units        (Units),
      .Groups       (K64_GROUPS),
      .Latency      (Stages),
      .ModeW        (2),
      .UnitW        (ACC_BITS),
      .Slices       (K64_SLICES),
      .Pieces       (ELEMENTS),
      .AltLayout    (1'b1),
      .AltSliceStep (2),
      .FullGroupMacs(Units * LANES)
    ) u_frame (
      .clk_i,
      .rst_ni,
      .clk_en_i,
      .pipe_en_i,
      .pipe_take_i,
      .start_i,
      .last_group_i  (last_group),
      .clk_o         (clk_engine),
      .busy_o        (seq_busy),
      .group_o       (group_q),
      .issue_o       (issue),
      .tag_i         (tag_q),
      .mode_i        ({!sparse_q && !k32_q, satfinite_q}),
      .last_macs_i   (last_macs),
      .unit_valid_i  (unit_valid),
      .unit_d_i      (unit_d),
      .arrive_o      (arrive),
      .arrive_group_o(arrive_group),
      .arrive_first_o(arrive_first),
      .arrive_last_o (arrive_last),
      .arrive_mode_o ({arrive_k64, arrive_satfinite}),
      .d_alt_i       (arrive_k64),
      .status_o,
      .d_o
    );

    // Sparse: the family says so; m8n8k32: a dense instruction's k32 bit.
    assign start_sparse = SparseEnable &&
                          desc_i[tcu_pkg::DESC_FAMILY +: 3] == tcu_pkg::FAM_INT4_SPARSE;
    assign start_k32    = !start_sparse && desc_i[tcu_pkg::DESC_K32];
    assign last_group   = start_sparse ? GroupW'(SPARSE_GROUPS - 1)
                        : start_k32    ? GroupW'(K32_GROUPS - 1) : GroupW'(K64_GROUPS - 1);

    always_ff @(posedge clk_engine) begin
      if (start_i) begin
        sparse_q    <= start_sparse;
        k32_q       <= start_k32;
        a_signed_q  <= desc_i[tcu_pkg::DESC_A_SIGNED];
        b_signed_q  <= desc_i[tcu_pkg::DESC_B_SIGNED];
        satfinite_q <= desc_i[tcu_pkg::DESC_SATFINITE];
        tag_q       <= desc_i[tcu_pkg::DESC_TAG +: TAG_BITS];
        a_q         <= a_i;
        b_q         <= b_i;
        c_q         <= c_i;
      end
    end

    // The sparse operand path (SparseEnable), in a clock domain of its own:
    // its copy of B, the metadata, a group counter and each unit's metadata
    // and B column muxes and tcu_sparse_mux run on clk_sparse, which ticks
    // only from a sparse instruction's accept through its last issued group.
    // Dense instructions thus never switch it (in silicon) nor evaluate it
    // (in Verilator, which runs logic only when the clock of its inputs
    // ticks). Its sequencer starts with the engine's and steps with it
    // (same groups, same stall), so in every sparse issue cycle
    // sparse_group_q == group_q.
    if (SparseEnable) begin : g_sparse_path
      logic              clk_sparse, sparse_start, sparse_busy, sparse_issue, sparse_done;
      logic [GroupW-1:0] sparse_group_q;
      logic [tcu_pkg::B_BITS-1:0]    sparse_b_q;
      logic [tcu_pkg::META_BITS-1:0] meta_q;

      assign sparse_start = start_i && start_sparse;
      tcu_clock_gate u_gate (.clk_i, .en_i(sparse_start || sparse_busy), .clk_o(clk_sparse));

      tcu_slice_seq #(
        .GrpW(GroupW)
      ) u_seq (
        .clk_i  (clk_sparse),
        .rst_ni (rst_ni),
        .en_i   (pipe_en_i),
        .start_i(sparse_start),
        .last_i (GroupW'(SPARSE_GROUPS - 1)),
        .busy_o (sparse_busy),
        .grp_o  (sparse_group_q),
        .issue_o(sparse_issue),
        .done_o (sparse_done)
      );

      always_ff @(posedge clk_sparse) begin
        if (sparse_start) begin
          sparse_b_q <= b_i;
          meta_q     <= meta_i;
        end
      end

      for (genvar u = 0; u < Units; u++) begin : g_sparse_unit
        // Sparse: element = slice = group * Units + u.
        logic [15:0]            elem;
        logic [COLUMN_BITS-1:0] b_column;
        logic [8*4-1:0]         meta;
        // The unit's B, per unit rather than slices of one wide vector
        // (which Verilator assembles as one concatenation of all units).
        logic [HALF_BITS-1:0]   b_sparse;
        assign elem = 16'(sparse_group_q) * 16'(Units) + 16'(u);
        tcu_word_mux #(.Width(8*4), .Words(16), .SynthImpl(SynthImpl)) u_meta_mux (
          .data_i(meta_q), .sel_i(elem[6:3]), .data_o(meta));
        tcu_word_mux #(.Width(COLUMN_BITS), .Words(8), .SynthImpl(SynthImpl)) u_b_mux (
          .data_i(sparse_b_q), .sel_i(elem[2:0]), .data_o(b_column));
        tcu_sparse_mux u_sparse_mux (
          .meta_i(meta),
          .b_i   (b_column),
          .b_o   (b_sparse)
        );

        logic unused_elem;
        assign unused_elem = ^elem[15:7];
      end

      logic unused_seq;
      assign unused_seq = ^{sparse_issue, sparse_done};

`ifndef SYNTHESIS
      // The sparse sequencer steps with the engine's, as the comment above
      // states: busy only while the engine's is, on the same group (a
      // sequencer that ran on would keep clk_sparse ticking for nothing).
      always_ff @(posedge clk_i) begin
        if (rst_ni && sparse_busy) begin
          assert (seq_busy && sparse_group_q == group_q)
            else $error("the sparse sequencer is busy off the engine's group");
        end
      end
`endif
    end else begin : g_dense_only
      logic unused_meta;
      assign unused_meta = ^meta_i;
    end

    // What travels alongside the units, Stages deep, in a pipe of its own
    // beside the frame's group pipe (no wide concatenation): per unit the C
    // element its slice accumulates into.
    logic [Units*ACC_BITS-1:0] c_issued, c_arrived;
    logic                      c_arrive;
    logic [Units*SUM_BITS-1:0] unit_sum;

    for (genvar u = 0; u < Units; u++) begin : g_unit
      // Slice s = group * Units + u. Dense k=64: element s/2, half s%2;
      // m8n8k32 and sparse: element s.
      logic [15:0]          slice, elem;
      logic                 half, slice_ok;
      logic [3:0]           row;
      logic [2:0]           col;
      logic [4:0]           a_window;  // 128-bit window of A
      logic [HALF_BITS-1:0] b_dense, a_in, b_in;

      assign slice = 16'(group_q) * 16'(Units) + 16'(u);
      always_comb begin
        if (sparse_q) begin
          elem     = slice;
          half     = 1'b0;
          slice_ok = slice < 16'(SPARSE_SLICES);
        end else if (k32_q) begin
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
      assign a_window = (!sparse_q && !k32_q) ? {row, half} : {1'b0, row};
      tcu_word_mux #(.Width(HALF_BITS), .Words(4096/HALF_BITS), .SynthImpl(SynthImpl)) u_a_mux (
        .data_i(a_q), .sel_i(a_window), .data_o(a_in));
      // B's half column: k = 32*half .. 32*half+31 of column col.
      tcu_word_mux #(.Width(HALF_BITS), .Words(2*8), .SynthImpl(SynthImpl)) u_b_mux (
        .data_i(b_q), .sel_i({col, half}), .data_o(b_dense));
      tcu_word_mux #(.Width(ACC_BITS), .Words(ELEMENTS), .SynthImpl(SynthImpl)) u_c_mux (
        .data_i(c_q), .sel_i(elem[6:0]), .data_o(c_issued[u*ACC_BITS +: ACC_BITS]));

      if (SparseEnable) begin : g_sparse_b
        assign b_in = sparse_q ? g_sparse_path.g_sparse_unit[u].b_sparse : b_dense;
      end else begin : g_dense_b
        assign b_in = b_dense;
      end

      tcu_int4_dot #(
        .Stages   (Stages),
        .SynthImpl(SynthImpl)
      ) u_dot (
        .clk_i     (clk_engine),
        .rst_ni    (rst_ni),
        .en_i      (pipe_en_i),
        // The unit loads only with en_i, so the sequencer's busy stands for
        // its issue (busy && pipe_en_i) here: valid_i then depends on no
        // input port, and the Verilated model evaluates it with the engine's
        // clock rather than at every input change. (With Stages = 0 the
        // unit's valid_o is this term; its readers all test pipe_en_i too.)
        .valid_i   (seq_busy && slice_ok),
        .a_signed_i(a_signed_q),
        .b_signed_i(b_signed_q),
        .a_i       (a_in),
        .b_i       (b_in),
        .valid_o   (unit_valid[u]),
        .sum_o     (unit_sum[u*SUM_BITS +: SUM_BITS])
      );

      logic unused_elem;
      assign unused_elem = ^elem[15:7];
    end

    tcu_pipe_reg #(
      .Width(Units * ACC_BITS),
      .Depth(Stages)
    ) u_c_pipe (
      .clk_i  (clk_engine),
      .rst_ni (rst_ni),
      .en_i   (pipe_en_i),
      .valid_i(issue),
      .data_i (c_issued),
      .valid_o(c_arrive),
      .data_o (c_arrived)
    );

    logic unused_c_arrive;  // the same as arrive
    assign unused_c_arrive = c_arrive;

    // Combine: a dense k=64 element is written at its odd slice (half 1), with
    // the even slice's sum beside it (Units >= 2) or from the carry register
    // (one unit: the halves come in consecutive cycles).
    if (Units == 1) begin : g_carry
      logic signed [SUM_BITS-1:0] carry_q;
      always_ff @(posedge clk_engine) begin
        if (pipe_en_i && unit_valid[0] && !arrive_group[0]) begin
          carry_q <= unit_sum[0 +: SUM_BITS];
        end
      end
    end

    for (genvar u = 0; u < Units; u++) begin : g_accumulate
      logic signed [SUM_BITS-1:0] sum, partner;
      logic signed [SUM_BITS:0]   dot;

      assign sum = unit_sum[u*SUM_BITS +: SUM_BITS];
      if (Units == 1) begin : g_partner_carry
        assign partner = g_carry.carry_q;
      end else if (u % 2 == 1) begin : g_partner_unit
        assign partner = unit_sum[(u-1)*SUM_BITS +: SUM_BITS];
      end else begin : g_partner_none
        assign partner = '0;
      end
      assign dot = arrive_k64 ? (SUM_BITS+1)'(sum) + (SUM_BITS+1)'(partner)
                              : (SUM_BITS+1)'(sum);

      tcu_int4_accumulate #(
        .DotWidth(SUM_BITS + 1)
      ) u_acc (
        .satfinite_i(arrive_satfinite),
        .c_i        (c_arrived[u*ACC_BITS +: ACC_BITS]),
        .dot_i      (dot),
        .d_o        (unit_d[u*ACC_BITS +: ACC_BITS])
      );
    end

    // MACs of the instruction's last group (the activity counters).
    assign last_macs = sparse_q ? SPARSE_LAST_MACS : k32_q ? K32_LAST_MACS : K64_LAST_MACS;

    // The arriving group's information is the frame's (shown in the
    // waveforms; the group read by the carry alone); the descriptor's other
    // fields are other engines'.
    logic unused_inputs;
    assign unused_inputs = ^{arrive, arrive_group, arrive_first, arrive_last,
                             desc_i[tcu_pkg::DESC_RND +: 2], desc_i[tcu_pkg::DESC_C_F16],
                             desc_i[tcu_pkg::DESC_D_F16], desc_i[tcu_pkg::DESC_SCALE_4X]};
  end else begin : g_absent
    assign status_o = '0;
    assign d_o      = '0;

    logic unused_inputs;
    assign unused_inputs = ^{clk_i, rst_ni, clk_en_i, pipe_en_i, pipe_take_i, start_i, desc_i,
                             a_i, b_i, c_i, meta_i};
  end

endmodule
