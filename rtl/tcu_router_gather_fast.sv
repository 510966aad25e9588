// tcu_operand_router's gather buffer, the fast simulation implementation
// (same ports and function as tcu_router_gather_synth at every rising
// edge). Verilator evaluates logic fed by the core's inputs at every eval()
// (two a cycle) and again after each clock edge, so the placements are
// computed only where a word is written, and cheaply: per-slot indexed
// part-select writes (at most 64 loop iterations).
// Simulation flow only: scripts/synth.sh and tcu_tools.phys do not read this file.
module tcu_router_gather_fast #(
  parameter int unsigned WordsPerCycle = tcu_pkg::WordsPerCycle,
  parameter bit          GatherBypass  = tcu_pkg::GatherBypass,
  // For tcu-formal only (the simulation keeps both at 1):
  // PlaceTable 0 places every word by a tcu_frag_layout instance per slot on
  // the descriptor, the AND-OR form's cells (the table's A, B and C entries
  // equal its hit and positions by the layout-class lemma; the metadata and
  // scales are frag_place on the descriptor either way), so the proof can
  // cut both forms at those cells; BypassLatch 0 holds the bypass latch open
  // (combinational), the phase in which a register reads it.
  parameter bit          PlaceTable    = 1'b1,
  parameter bit          BypassLatch   = 1'b1
) (
  input  logic                                           clk_i,
  input  logic                                           take_start_i, // clear the buffer first
  input  logic                                           beat_i,       // place this cycle's words
  input  logic                                           show_next_i,  // the bypassed last beat
  input  logic [tcu_pkg::FRAG_DESC_W-1:0]                desc_i,       // frag_place's descriptor
  input  logic [WordsPerCycle-1:0]                       in_word_valid_i,
  input  logic [tcu_pkg::OPERAND_BITS*WordsPerCycle-1:0] in_word_op_i,
  input  logic [tcu_pkg::LANE_BITS*WordsPerCycle-1:0]    in_word_lane_i,
  input  logic [tcu_pkg::REG_BITS*WordsPerCycle-1:0]     in_word_reg_i,
  input  logic [tcu_pkg::WORD_BITS*WordsPerCycle-1:0]    in_word_data_i,
  output logic [tcu_pkg::A_BITS-1:0]                     dp_a_o,
  output logic [tcu_pkg::B_BITS-1:0]                     dp_b_o,
  output logic [tcu_pkg::C_BITS-1:0]                     dp_c_o,
  output logic [tcu_pkg::META_BITS-1:0]                  dp_meta_o,
  output logic [tcu_pkg::SCALE_A_BITS-1:0]               dp_scale_a_o,
  output logic [tcu_pkg::SCALE_B_BITS-1:0]               dp_scale_b_o
);

  // The operand buffer.
  logic [4095:0] a_q;
  logic [2047:0] b_q;
  logic [8191:0] c_q;
  logic [511:0]  meta_q, sa_q;
  logic [255:0]  sb_q;

  // Simulation. Verilator evaluates logic fed by the core's inputs at every
  // eval() (two a cycle) and again after each clock edge, so the placements
  // are computed only where a word is written, and cheaply:
  // - A, B and C words are placed by a table of tcu_pkg::frag_place's
  //   results (hit, lo_pos, hi_pos), indexed by layout class, operand, lane
  //   and register word and filled once from frag_place at time 0; the
  //   metadata and scale words, whose placement depends on the selectors and
  //   whose value frag_place shifts, are placed by frag_place itself.
  // - With the bypass, dp_*_o are a latch open while clk_i is low: the
  //   buffer with the last beat_i written over it, computed once a cycle (in
  //   the low phase, after the inputs have changed) instead of at every
  //   eval. A register capturing dp_*_o at the rising edge sees what the
  //   combinational path of the synthesis description gives, provided the
  //   inputs settle while clk_i is low (they change after the rising edge
  //   and are evaluated with clk_i low before the next, as every driver in
  //   this project does: systemc/datapath_model.h); waveforms show dp_*_o
  //   changing at the falling edge. The buffer then takes dp_*_o at the
  //   edge (a copy) instead of placing the last beat_i again.
  localparam int unsigned PW   = tcu_pkg::FRAG_PLACE_W;
  localparam int unsigned PosW = tcu_pkg::FRAG_POS_W;
  // Fields of a placement {hit, lo_pos, hi_pos, split, word}.
  localparam int unsigned HIT = PW - 1;
  localparam int unsigned LO  = PW - 1 - PosW;      // lo_pos's lsb
  localparam int unsigned HI  = PW - 1 - 2 * PosW;  // hi_pos's lsb
  localparam int unsigned EntryW = 1 + 2 * PosW;    // {hit, lo_pos, hi_pos}
  localparam int unsigned RomIdxW = 4 + 2 + 5 + 3;  // {class, op, lane, reg}

  // Layout classes (tcu_pkg::frag_layout_class): the descriptor fields the
  // A, B and C placements depend on.
  logic [3:0] place_class;
  assign place_class = tcu_pkg::frag_layout_class(desc_i[tcu_pkg::FRAG_DESC_W-1 -: 7]);

  // The table's entry at index {class, op, lane, register}: frag_place at
  // the class's descriptor.
  function automatic logic [EntryW-1:0] class_place(logic [RomIdxW-1:0] idx);
    logic [PW-1:0] p;
    p = tcu_pkg::frag_place(tcu_pkg::frag_class_desc(idx[13:10]), {1'b0, idx[9:8]}, idx[7:3],
                            idx[2:0], 32'd0);
    class_place = {p[HIT], p[LO +: PosW], p[HI +: PosW]};
  endfunction

  logic [EntryW-1:0] place_rom [2**RomIdxW];
  logic [PW-1:0]     layout_place [WordsPerCycle];  // PlaceTable 0: each slot's tcu_frag_layout
  if (PlaceTable) begin : g_table
    initial begin
      for (int unsigned i = 0; i < 2**RomIdxW; i++) place_rom[i] = class_place(RomIdxW'(i));
    end
    for (genvar s = 0; s < WordsPerCycle; s++) begin : g_no_layout
      assign layout_place[s] = '0;
    end
  end else begin : g_layout
    for (genvar s = 0; s < WordsPerCycle; s++) begin : g_slot
      tcu_frag_layout u_layout (
        .family_i     (desc_i[15:13]),
        .k32_i        (desc_i[12]),
        .a_row_i      (desc_i[11]),
        .b_row_i      (desc_i[10]),
        .acc_f16_i    (desc_i[9]),
        .scale_4x_i   (desc_i[8]),
        .sparsity_i   (desc_i[7]),
        .byte_id_a_i  (desc_i[6:5]),
        .thread_id_a_i(desc_i[4]),
        .byte_id_b_i  (desc_i[3:2]),
        .thread_id_b_i(desc_i[1:0]),
        .op_i         (in_word_op_i[3*s +: 3]),
        .lane_i       (in_word_lane_i[5*s +: 5]),
        .reg_i        (in_word_reg_i[3*s +: 3]),
        .word_i       (in_word_data_i[32*s +: 32]),
        .hit_o        (layout_place[s][HIT]),
        .lo_pos_o     (layout_place[s][LO +: PosW]),
        .hi_pos_o     (layout_place[s][HI +: PosW]),
        .split_o      (layout_place[s][32]),
        .word_o       (layout_place[s][31:0])
      );
    end
  end

  // Slot s's placement as frag_place packs it (split is not used here).
  function automatic logic [PW-1:0] place_slot(int unsigned s);
    logic [2:0]        op;
    logic [4:0]        lane;
    logic [2:0]        reg_idx;
    logic [31:0]       word;
    logic [EntryW-1:0] e;
    op      = in_word_op_i[3*s +: 3];
    lane    = in_word_lane_i[5*s +: 5];
    reg_idx = in_word_reg_i[3*s +: 3];
    word    = in_word_data_i[32*s +: 32];
    if (!in_word_valid_i[s]) begin
      place_slot = '0;
    end else if (op <= tcu_pkg::OP_C) begin
      e          = PlaceTable ? place_rom[{place_class, op[1:0], lane, reg_idx}]
                              : layout_place[s][PW-1 -: EntryW];
      place_slot = {e, 1'b0, word};
    end else if (!PlaceTable) begin
      place_slot = layout_place[s];
    end else begin
      place_slot = tcu_pkg::frag_place(desc_i, op, lane, reg_idx, word);
    end
  endfunction

  always_ff @(posedge clk_i) begin
    logic [PW-1:0] p;
    if (take_start_i) begin
      a_q    <= '0;
      b_q    <= '0;
      c_q    <= '0;
      meta_q <= '0;
      sa_q   <= '0;
      sb_q   <= '0;
    end
    if (show_next_i) begin
      a_q    <= dp_a_o;
      b_q    <= dp_b_o;
      c_q    <= dp_c_o;
      meta_q <= dp_meta_o;
      sa_q   <= dp_scale_a_o;
      sb_q   <= dp_scale_b_o;
    end else if (beat_i) begin
      for (int unsigned s = 0; s < WordsPerCycle; s++) begin
        p = place_slot(s);
        if (p[HIT]) begin
          unique case (in_word_op_i[3*s +: 3])
            tcu_pkg::OP_A: begin
              a_q[{p[LO +: 8], 4'h0} +: 16] <= p[15:0];
              a_q[{p[HI +: 8], 4'h0} +: 16] <= p[31:16];
            end
            tcu_pkg::OP_B: begin
              b_q[{p[LO +: 7], 4'h0} +: 16] <= p[15:0];
              b_q[{p[HI +: 7], 4'h0} +: 16] <= p[31:16];
            end
            tcu_pkg::OP_C:       c_q[{p[LO + 1 +: 8], 5'h00} +: 32] <= p[31:0];
            tcu_pkg::OP_META:    meta_q[{p[LO + 1 +: 4], 5'h00} +: 32] <= p[31:0];
            tcu_pkg::OP_SCALE_A: sa_q[{p[LO + 1 +: 4], 5'h00} +: 32] <= p[31:0];
            tcu_pkg::OP_SCALE_B: sb_q[{p[LO + 1 +: 3], 5'h00} +: 32] <= p[31:0];
            default: ;
          endcase
        end
      end
    end
  end

  if (GatherBypass) begin : g_bypass
    // show_next_i implies no start this cycle (collect_q), so no clear.
    always_latch begin
      logic [PW-1:0] p;
      if (!clk_i || !BypassLatch) begin
        dp_a_o       = a_q;
        dp_b_o       = b_q;
        dp_c_o       = c_q;
        dp_meta_o    = meta_q;
        dp_scale_a_o = sa_q;
        dp_scale_b_o = sb_q;
        if (show_next_i) begin
          for (int unsigned s = 0; s < WordsPerCycle; s++) begin
            p = place_slot(s);
            if (p[HIT]) begin
              unique case (in_word_op_i[3*s +: 3])
                tcu_pkg::OP_A: begin
                  dp_a_o[{p[LO +: 8], 4'h0} +: 16] = p[15:0];
                  dp_a_o[{p[HI +: 8], 4'h0} +: 16] = p[31:16];
                end
                tcu_pkg::OP_B: begin
                  dp_b_o[{p[LO +: 7], 4'h0} +: 16] = p[15:0];
                  dp_b_o[{p[HI +: 7], 4'h0} +: 16] = p[31:16];
                end
                tcu_pkg::OP_C:       dp_c_o[{p[LO + 1 +: 8], 5'h00} +: 32] = p[31:0];
                tcu_pkg::OP_META:    dp_meta_o[{p[LO + 1 +: 4], 5'h00} +: 32] = p[31:0];
                tcu_pkg::OP_SCALE_A: dp_scale_a_o[{p[LO + 1 +: 4], 5'h00} +: 32] = p[31:0];
                tcu_pkg::OP_SCALE_B: dp_scale_b_o[{p[LO + 1 +: 3], 5'h00} +: 32] = p[31:0];
                default: ;
              endcase
            end
          end
        end
      end
    end
  end else begin : g_no_bypass
    assign dp_a_o       = a_q;
    assign dp_b_o       = b_q;
    assign dp_c_o       = c_q;
    assign dp_meta_o    = meta_q;
    assign dp_scale_a_o = sa_q;
    assign dp_scale_b_o = sb_q;
  end

endmodule
