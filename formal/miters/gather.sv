// The router's gather pair (kinds slang, cut and blast): each form behind
// the router's rules (tcu_operand_router), as eq_gather with Fast = 0
// (tcu_router_gather_synth, synthesis; the driver's eq_gold) and Fast = 1
// (tcu_router_gather_fast, fast; its eq_gate): a start is taken
// only when not collecting; a beat with the start and in every collecting
// cycle; the bypass only in a collecting cycle's last beat; one word per tag
// a beat (a word whose tag an earlier slot of the beat carries is dropped:
// what the router asserts of its driver). The proof cuts their registers
// (the operand buffers g_form.u_gather.*_q, the same in both forms) and proves, for
// every buffer value and input, equal outputs and equal next buffers.
//
// The fast form is read with each slot placed by a tcu_frag_layout instance
// instead of its table (PlaceTable = 0: equal to the table's entries by the
// layout-class lemma) and its bypass latch held open (BypassLatch = 0: the
// phase in which the datapath's registers read it; the latch's timing is the
// driver discipline, docs/architecture.md).
//
// Beats picks the inputs: 0 all; 1 the bypass's beats alone (collecting,
// last); 2 the others (no bypass). 1 and 2 together are all (the bypass's
// beats and the rest load the buffers from different logic: apart, each
// miter is about the size of the miter without the bypass).
//
// Cut = 1 (kind cut): the layout lemmas' conclusions about each slot's
// tcu_frag_layout cells (the cells both forms place by, which the proof cuts)
// hold the gather: every word has its operand's shape (layout_shape: the
// gather stops where one has not), and valid words of one operand, whose
// tags differ, are placed apart (layout_apart), so no unit of a port is
// written by two (ok_*_o: per unit of each operand port, A and B a 16-bit
// half, C, the metadata and the scales a 32-bit word; kind cut compares the
// unit's bits where it is high). Both hold for every input, so neither takes
// anything away; once the cells are cut, they are what the proof may use.
// Cut = 0: ok_*_o all high.
//
// Plant = 1 flips bit 0 of the fast form's A operand output wherever the
// last slot's word is valid.

// The router's rules and the cut's constraints, shared by both forms.
module eq_gather_rules #(
  parameter int unsigned WordsPerCycle = 1,
  parameter bit          GatherBypass  = 1'b1,
  parameter int unsigned Beats         = 0,
  parameter bit          Cut           = 1'b0
) (
  input  logic                            start_i, collect_i, last_i,
  input  logic [tcu_pkg::FRAG_DESC_W-1:0] desc_i,
  input  logic [WordsPerCycle-1:0]        in_word_valid_i,
  input  logic [3*WordsPerCycle-1:0]      in_word_op_i,
  input  logic [5*WordsPerCycle-1:0]      in_word_lane_i,
  input  logic [3*WordsPerCycle-1:0]      in_word_reg_i,
  input  logic [32*WordsPerCycle-1:0]     in_word_data_i,
  output logic                            take_start_o, beat_o, show_next_o,
  output logic [WordsPerCycle-1:0]        valid_o,
  output logic [255:0]                    ok_a_o,
  output logic [127:0]                    ok_b_o,
  output logic [255:0]                    ok_c_o,
  output logic [15:0]                     ok_meta_o,
  output logic [15:0]                     ok_scale_a_o,
  output logic [7:0]                      ok_scale_b_o
);
  localparam int unsigned W = WordsPerCycle;
  logic collect, last, rules_hold;
  assign collect      = Beats == 1 || collect_i;
  assign last         = Beats == 1 || last_i;
  assign take_start_o = rules_hold && start_i && !collect;
  assign beat_o       = rules_hold && (take_start_o || collect);
  assign show_next_o  = rules_hold && Beats != 2 && GatherBypass && collect && last;
  logic [W-1:0] valid;
  for (genvar s = 0; s < W; s++) begin : g_valid
    logic [W-1:0] same;
    for (genvar t = 0; t < W; t++) begin : g_earlier
      if (t < s) begin : g_before
        assign same[t] = in_word_valid_i[t] &&
                         in_word_op_i[3*t +: 3] == in_word_op_i[3*s +: 3] &&
                         in_word_lane_i[5*t +: 5] == in_word_lane_i[5*s +: 5] &&
                         in_word_reg_i[3*t +: 3] == in_word_reg_i[3*s +: 3];
      end else begin : g_after
        assign same[t] = 1'b0;
      end
    end
    assign valid[s] = in_word_valid_i[s] && same == '0;
  end
  assign valid_o = valid;
  if (Cut) begin : g_cut
    logic       hit [W];
    logic [8:0] lo [W], hi [W];
    logic       split [W];
    logic [31:0] word [W];
    logic [W-1:0] shape_ok;
    logic [W-1:0] is_a, is_b, is_c, is_meta, is_sa, is_sb;
    for (genvar s = 0; s < W; s++) begin : g_rec
      logic [2:0] op;
      assign op = in_word_op_i[3*s +: 3];
      tcu_frag_layout u_layout (
        .family_i(desc_i[15:13]), .k32_i(desc_i[12]), .a_row_i(desc_i[11]), .b_row_i(desc_i[10]),
        .acc_f16_i(desc_i[9]), .scale_4x_i(desc_i[8]), .sparsity_i(desc_i[7]),
        .byte_id_a_i(desc_i[6:5]), .thread_id_a_i(desc_i[4]), .byte_id_b_i(desc_i[3:2]),
        .thread_id_b_i(desc_i[1:0]), .op_i(in_word_op_i[3*s +: 3]),
        .lane_i(in_word_lane_i[5*s +: 5]), .reg_i(in_word_reg_i[3*s +: 3]),
        .word_i(in_word_data_i[32*s +: 32]), .hit_o(hit[s]), .lo_pos_o(lo[s]),
        .hi_pos_o(hi[s]), .split_o(split[s]), .word_o(word[s]));
      assign shape_ok[s] = !hit[s] ||
                           eq_shape_pkg::shape_ok(op, lo[s], hi[s], split[s], word[s],
                                                  in_word_data_i[32*s +: 32]);
      assign is_a[s]    = valid[s] && hit[s] && op == tcu_pkg::OP_A;
      assign is_b[s]    = valid[s] && hit[s] && op == tcu_pkg::OP_B;
      assign is_c[s]    = valid[s] && hit[s] && op == tcu_pkg::OP_C;
      assign is_meta[s] = valid[s] && hit[s] && op == tcu_pkg::OP_META;
      assign is_sa[s]   = valid[s] && hit[s] && op == tcu_pkg::OP_SCALE_A;
      assign is_sb[s]   = valid[s] && hit[s] && op == tcu_pkg::OP_SCALE_B;
    end
    assign rules_hold = &shape_ok;
    // At most one writer per unit: w & (w - 1) == 0.
    for (genvar h = 0; h < 256; h++) begin : g_unit256
      logic [W-1:0] wa, wc;
      for (genvar s = 0; s < W; s++) begin : g_slot
        assign wa[s] = is_a[s] && (lo[s][7:0] == 8'(h) || hi[s][7:0] == 8'(h));
        assign wc[s] = is_c[s] && lo[s][8:1] == 8'(h);
      end
      assign ok_a_o[h] = (wa & (wa - 1'b1)) == '0;
      assign ok_c_o[h] = (wc & (wc - 1'b1)) == '0;
    end
    for (genvar h = 0; h < 128; h++) begin : g_unit128
      logic [W-1:0] wb;
      for (genvar s = 0; s < W; s++) begin : g_slot
        assign wb[s] = is_b[s] && (lo[s][6:0] == 7'(h) || hi[s][6:0] == 7'(h));
      end
      assign ok_b_o[h] = (wb & (wb - 1'b1)) == '0;
    end
    for (genvar h = 0; h < 16; h++) begin : g_unit16
      logic [W-1:0] wm, wsa, wsb;
      for (genvar s = 0; s < W; s++) begin : g_slot
        assign wm[s]  = is_meta[s] && lo[s][4:1] == 4'(h);
        assign wsa[s] = is_sa[s] && lo[s][4:1] == 4'(h);
        assign wsb[s] = is_sb[s] && lo[s][3:1] == 3'(h % 8);
      end
      assign ok_meta_o[h]    = (wm & (wm - 1'b1)) == '0;
      assign ok_scale_a_o[h] = (wsa & (wsa - 1'b1)) == '0;
      if (h < 8) begin : g_sb
        assign ok_scale_b_o[h] = (wsb & (wsb - 1'b1)) == '0;
      end
    end
  end else begin : g_no_cut
    assign rules_hold   = 1'b1;
    assign ok_a_o       = '1;
    assign ok_b_o       = '1;
    assign ok_c_o       = '1;
    assign ok_meta_o    = '1;
    assign ok_scale_a_o = '1;
    assign ok_scale_b_o = '1;
  end
endmodule

// One form behind the rules: Fast = 0 the synthesis form
// (tcu_router_gather_synth), 1 the fast form (tcu_router_gather_fast). Both
// place the form in g_form.u_gather, so the two elaborations' registers
// carry the same names (the driver reads the module once per form and names
// the two eq_gold and eq_gate). Plant applies to the fast form.
module eq_gather #(
  parameter bit          Fast          = 1'b0,
  parameter int unsigned WordsPerCycle = 1,
  parameter bit          GatherBypass  = 1'b1,
  parameter int unsigned Beats         = 0,
  parameter bit          Cut           = 1'b0,
  parameter bit          Plant         = 1'b0
) (
  input  logic                            clk_i,
  input  logic                            start_i, collect_i, last_i,
  input  logic [tcu_pkg::FRAG_DESC_W-1:0] desc_i,
  input  logic [WordsPerCycle-1:0]        in_word_valid_i,
  input  logic [3*WordsPerCycle-1:0]      in_word_op_i,
  input  logic [5*WordsPerCycle-1:0]      in_word_lane_i,
  input  logic [3*WordsPerCycle-1:0]      in_word_reg_i,
  input  logic [32*WordsPerCycle-1:0]     in_word_data_i,
  output logic [4095:0]                   dp_a_o,
  output logic [2047:0]                   dp_b_o,
  output logic [8191:0]                   dp_c_o,
  output logic [511:0]                    dp_meta_o,
  output logic [511:0]                    dp_scale_a_o,
  output logic [255:0]                    dp_scale_b_o,
  output logic [255:0]                    ok_a_o,
  output logic [127:0]                    ok_b_o,
  output logic [255:0]                    ok_c_o,
  output logic [15:0]                     ok_meta_o,
  output logic [15:0]                     ok_scale_a_o,
  output logic [7:0]                      ok_scale_b_o
);
  localparam int unsigned W = WordsPerCycle;
  logic take_start, beat, show_next;
  logic [W-1:0] valid;
  logic [4095:0] dp_a;
  eq_gather_rules #(.WordsPerCycle(W), .GatherBypass(GatherBypass), .Beats(Beats), .Cut(Cut))
    u_rules (.start_i, .collect_i, .last_i, .desc_i, .in_word_valid_i, .in_word_op_i,
             .in_word_lane_i, .in_word_reg_i, .in_word_data_i, .take_start_o(take_start),
             .beat_o(beat), .show_next_o(show_next), .valid_o(valid), .ok_a_o, .ok_b_o, .ok_c_o,
             .ok_meta_o, .ok_scale_a_o, .ok_scale_b_o);
  if (Fast) begin : g_form
    tcu_router_gather_fast #(
      .WordsPerCycle(W), .GatherBypass(GatherBypass), .PlaceTable(1'b0), .BypassLatch(1'b0)
    ) u_gather (
      .clk_i, .take_start_i(take_start), .beat_i(beat), .show_next_i(show_next), .desc_i,
      .in_word_valid_i(valid), .in_word_op_i, .in_word_lane_i, .in_word_reg_i, .in_word_data_i,
      .dp_a_o(dp_a), .dp_b_o, .dp_c_o, .dp_meta_o, .dp_scale_a_o, .dp_scale_b_o);
  end else begin : g_form
    tcu_router_gather_synth #(.WordsPerCycle(W), .GatherBypass(GatherBypass)) u_gather (
      .clk_i, .take_start_i(take_start), .beat_i(beat), .show_next_i(show_next), .desc_i,
      .in_word_valid_i(valid), .in_word_op_i, .in_word_lane_i, .in_word_reg_i, .in_word_data_i,
      .dp_a_o(dp_a), .dp_b_o, .dp_c_o, .dp_meta_o, .dp_scale_a_o, .dp_scale_b_o);
  end
  assign dp_a_o = Fast && Plant ? dp_a ^ 4096'(in_word_valid_i[W-1]) : dp_a;
endmodule
