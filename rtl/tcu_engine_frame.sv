// What every engine of tcu_datapath shares around its units: the gated
// clock (clk_o, from clk_en_i), the slice sequencer, the group pipe, the D
// buffer, the ownership of D and the status bundle. The engine holds the
// operand register and the units: unit u of group g takes slice
// g * Units + u, and its result arrives Latency enabled cycles after the
// issue (unit_valid_i, unit_d_i), when the group pipe delivers the group's
// information (arrive_*_o): the group, its first and last flags, the
// instruction's ModeW mode bits (mode_i) and its tag (tag_i; both held by
// the engine from start_i on).
//
// D buffer (d_o): Pieces pieces of PieceW bits. In the direct layout piece p
// is slice p's result (its low PieceW bits); with AltLayout, while d_alt_i
// is high (the arriving group's), piece p is piece p % AltPieces of slice
// (p / AltPieces) * AltSliceStep + AltSliceStep - 1 (the int4 engine's k=64
// elements: the odd slice of two; the f16 engine's f32 elements: two
// pieces a slice). Slices outside 0..Slices-1 write nothing. An
// instruction's first group clears what the previous D left. The buffer is
// one vector whose pieces each process writes in place, so reading it out
// needs no assembly (a packed array would say the same; Yosys 0.23 does not
// read multi-dimensional packed declarations). Every process tests arrive
// first (with pipe_en_i, a unit's valid implies it: both follow the issue
// by Latency enabled cycles), so the Verilated model merges the tests into
// one and skips the buffer when no group arrives.
//
// The engine owns the pipelines' D from its last group's arrival until
// pipe_take_i (the engine's clock runs through it: the engine is busy until
// then). status_o is the bundle every engine shows the control (tcu_pkg
// STATUS_*): the MACs issued this cycle are FullGroupMacs a group and
// last_macs_i the instruction's last group.
module tcu_engine_frame #(
  parameter int unsigned  Units         = 1,
  parameter int unsigned  Groups        = 1,      // the most groups an instruction issues
  parameter int unsigned  Latency       = 1,      // a unit's, in enabled cycles
  parameter int unsigned  ModeW         = 0,      // mode bits carried with each group
  parameter int unsigned  UnitW         = 32,     // a unit's result
  parameter int unsigned  Slices        = 1,      // the slices the D buffer takes
  parameter int unsigned  PieceW        = UnitW,  // the D buffer's granule
  parameter int unsigned  Pieces        = Slices,
  parameter bit           AltLayout     = 1'b0,
  parameter int unsigned  AltSliceStep  = 1,
  parameter int unsigned  AltPieces     = 1,
  parameter int unsigned  FullGroupMacs = 0,      // a group's that keeps every unit busy
  localparam int unsigned GroupW        = Groups > 1 ? $clog2(Groups) : 1,
  localparam int unsigned ModeBits      = ModeW > 0 ? ModeW : 1
) (
  input  logic                            clk_i,
  input  logic                            rst_ni,
  input  logic                            clk_en_i,
  input  logic                            pipe_en_i,
  input  logic                            pipe_take_i,
  input  logic                            start_i,
  input  logic [GroupW-1:0]               last_group_i,  // the instruction's, at start_i
  output logic                            clk_o,
  output logic                            busy_o,        // the sequencer's
  output logic [GroupW-1:0]               group_o,
  output logic                            issue_o,
  input  logic [tcu_pkg::TAG_BITS-1:0]    tag_i,
  input  logic [ModeBits-1:0]             mode_i,
  input  logic [tcu_pkg::MACS_BITS-1:0]   last_macs_i,
  input  logic [Units-1:0]                unit_valid_i,
  input  logic [Units*UnitW-1:0]          unit_d_i,
  output logic                            arrive_o,
  output logic [GroupW-1:0]               arrive_group_o,
  output logic                            arrive_first_o,
  output logic                            arrive_last_o,
  output logic [ModeBits-1:0]             arrive_mode_o,
  input  logic                            d_alt_i,
  output logic [tcu_pkg::STATUS_BITS-1:0] status_o,
  output logic [Pieces*PieceW-1:0]        d_o
);

  localparam int unsigned TAG_BITS  = tcu_pkg::TAG_BITS;
  localparam int unsigned MACS_BITS = tcu_pkg::MACS_BITS;
  localparam int unsigned InfoW     = GroupW + 2 + ModeW + TAG_BITS;

  logic                 done, own_q;
  logic [InfoW-1:0]     info, info_q;
  logic [TAG_BITS-1:0]  arrive_tag;
  logic [MACS_BITS-1:0] macs;

  tcu_clock_gate u_gate (.clk_i, .en_i(clk_en_i), .clk_o);

  tcu_slice_seq #(
    .GrpW(GroupW)
  ) u_seq (
    .clk_i  (clk_o),
    .rst_ni (rst_ni),
    .en_i   (pipe_en_i),
    .start_i(start_i),
    .last_i (last_group_i),
    .busy_o (busy_o),
    .grp_o  (group_o),
    .issue_o(issue_o),
    .done_o (done)
  );

  // What travels alongside the units, Latency deep.
  if (ModeW > 0) begin : g_mode
    assign info = {group_o, group_o == '0, done, mode_i, tag_i};
    assign {arrive_group_o, arrive_first_o, arrive_last_o, arrive_mode_o, arrive_tag} = info_q;
  end else begin : g_no_mode
    assign info = {group_o, group_o == '0, done, tag_i};
    assign {arrive_group_o, arrive_first_o, arrive_last_o, arrive_tag} = info_q;
    assign arrive_mode_o = '0;

    logic unused_mode;
    assign unused_mode = ^mode_i;
  end

  tcu_pipe_reg #(
    .Width(InfoW),
    .Depth(Latency)
  ) u_group_pipe (
    .clk_i  (clk_o),
    .rst_ni (rst_ni),
    .en_i   (pipe_en_i),
    .valid_i(issue_o),
    .data_i (info),
    .valid_o(arrive_o),
    .data_o (info_q)
  );

  // Each piece's write condition is written inside its process (not as a
  // wire) and picks the layout first, so the Verilated model tests one
  // source a piece, and only when a group arrives.
  for (genvar p = 0; p < Pieces; p++) begin : g_d_buffer
    localparam int unsigned UNIT      = p % Units;
    localparam int unsigned ALT_SLICE = (p / AltPieces) * AltSliceStep + AltSliceStep - 1;
    localparam int unsigned ALT_UNIT  = ALT_SLICE % Units;
    localparam int unsigned ALT_PIECE = p % AltPieces;
    localparam bit          DIRECT    = p < Slices;
    localparam bit          ALT       = AltLayout && ALT_SLICE < Slices;
    localparam int unsigned GROUP     = DIRECT ? p / Units : 0;
    localparam int unsigned ALT_GROUP = ALT ? ALT_SLICE / Units : 0;
    always_ff @(posedge clk_o) begin
      if (pipe_en_i && arrive_o) begin
        if (AltLayout && d_alt_i
            ? ALT && unit_valid_i[ALT_UNIT] && arrive_group_o == GroupW'(ALT_GROUP)
            : DIRECT && unit_valid_i[UNIT] && arrive_group_o == GroupW'(GROUP)) begin
          d_o[p*PieceW +: PieceW] <= AltLayout && d_alt_i
                                     ? unit_d_i[ALT_UNIT*UnitW + ALT_PIECE*PieceW +: PieceW]
                                     : unit_d_i[UNIT*UnitW +: PieceW];
        end else if (arrive_first_o) begin
          d_o[p*PieceW +: PieceW] <= '0;
        end
      end
    end
  end

  always_ff @(posedge clk_o or negedge rst_ni) begin
    if (!rst_ni) begin
      own_q <= 1'b0;
    end else if (pipe_en_i && arrive_o && arrive_last_o) begin
      own_q <= 1'b1;
    end else if (pipe_take_i) begin
      own_q <= 1'b0;
    end
  end

  assign macs     = done ? last_macs_i : issue_o ? MACS_BITS'(FullGroupMacs) : '0;
  assign status_o = {macs, arrive_tag, own_q, arrive_last_o, arrive_o, done, busy_o};

  // Units beyond an instruction's slices deliver nothing (and the f16
  // engine's f16 D reads a unit's low half alone).
  logic unused_unit_d;
  assign unused_unit_d = ^unit_d_i;

endmodule
