// The tensor core as a warp's register file sees it (docs/architecture.md,
// "Operand routing network", "The core"): tcu_operand_router in front of
// tcu_datapath. Lane-order 32-bit register words go in (each tagged with its
// operand, lane and register), the router places them in matrix order and
// hands the instruction to the datapath; D comes back out as lane-order
// destination register words.
//
// The router needs each D's descriptor (family, m8n8k32, D .f16) to scatter
// it. D returns in issue order (the datapath never reorders), so a FIFO of
// the accepted instructions' descriptors, pushed at the datapath's input
// handshake and popped when the router takes a D, supplies it: the lanes'
// side is self-contained. The FIFO holds DESC_DEPTH descriptors, more than
// the instructions the datapath can hold (one accept every two cycles at
// most, since an instruction has at least two beats of words, against the
// longest datapath latency); were it full, the datapath's input would wait.
//
// Parameters: tcu_datapath's and tcu_operand_router's, passed through.
// Timing: the router's (tcu_operand_router.sv) plus the datapath's; with
// GatherBypass = 1 and WordsPerCycle = DWordsPerCycle = the front-end's
// register words per cycle an isolated instruction takes timing.h
// instruction_latency().
module tcu_core #(
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
  parameter int unsigned WordsPerCycle    = tcu_pkg::WordsPerCycle,
  parameter int unsigned DWordsPerCycle   = tcu_pkg::DWordsPerCycle,
  parameter bit          GatherBypass     = tcu_pkg::GatherBypass,
  // 1: the units' synthesis implementations, 0: the fast simulation ones
  // (tcu-formal proves them equal); an implementation choice, not a
  // configuration parameter of the model.
  parameter bit          SynthImpl        = tcu_pkg::SynthImpl
) (
  input  logic                          clk_i,
  input  logic                          rst_ni,
  // ---- an instruction: its start and descriptor ---------------------------
  input  logic                                       in_start_i,
  output logic                                       in_start_ready_o,
  input  logic [tcu_pkg::FAMILY_BITS-1:0]            in_family_i,
  input  logic                                       in_a_signed_i,
  input  logic                                       in_b_signed_i,
  input  logic                                       in_satfinite_i,
  input  logic                                       in_k32_i,
  input  logic [tcu_pkg::ROUNDING_BITS-1:0]          in_rnd_i,
  input  logic                                       in_a_row_i,
  input  logic                                       in_b_row_i,
  input  logic                                       in_c_f16_i,
  input  logic                                       in_d_f16_i,
  input  logic                                       in_scale_4x_i,
  input  logic                                       in_sparsity_i,
  input  logic [tcu_pkg::SCALE_BYTE_ID_BITS-1:0]     in_byte_id_a_i,
  input  logic                                       in_thread_id_a_i,
  input  logic [tcu_pkg::SCALE_BYTE_ID_BITS-1:0]     in_byte_id_b_i,
  input  logic [tcu_pkg::SCALE_THREAD_ID_B_BITS-1:0] in_thread_id_b_i,
  input  logic [tcu_pkg::TAG_BITS-1:0]               in_tag_i,
  // ---- its source register words (slot s at [s*width +: width]) ----------
  input  logic [WordsPerCycle-1:0]                       in_word_valid_i,
  input  logic [tcu_pkg::OPERAND_BITS*WordsPerCycle-1:0] in_word_op_i,
  input  logic [tcu_pkg::LANE_BITS*WordsPerCycle-1:0]    in_word_lane_i,
  input  logic [tcu_pkg::REG_BITS*WordsPerCycle-1:0]     in_word_reg_i,
  input  logic [tcu_pkg::WORD_BITS*WordsPerCycle-1:0]    in_word_data_i,
  input  logic                                           in_last_i,
  // ---- destination register words -----------------------------------------
  output logic                                         wb_valid_o,
  input  logic                                         wb_ready_i,
  output logic                                         wb_last_o,
  output logic [tcu_pkg::TAG_BITS-1:0]                 wb_tag_o,
  output logic [DWordsPerCycle-1:0]                    wb_word_valid_o,
  output logic [tcu_pkg::LANE_BITS*DWordsPerCycle-1:0] wb_word_lane_o,
  output logic [tcu_pkg::REG_BITS*DWordsPerCycle-1:0]  wb_word_reg_o,
  output logic [tcu_pkg::WORD_BITS*DWordsPerCycle-1:0] wb_word_data_o,
  // ---- the datapath's activity counters (rtl/tcu_activity.sv) -------------
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

  localparam int unsigned DESC_DEPTH = 64;  // D descriptors (a power of two)
  localparam int unsigned PtrW       = $clog2(DESC_DEPTH);

  // Router -> datapath
  logic          dp_valid, dp_ready, rt_dp_ready, dp_fire;
  logic [2:0]    dp_family;
  logic          dp_a_signed, dp_b_signed, dp_satfinite, dp_k32, dp_c_f16, dp_d_f16;
  logic          dp_scale_4x;
  logic [1:0]    dp_rnd;
  logic [15:0]   dp_tag;
  logic [4095:0] dp_a;
  logic [2047:0] dp_b;
  logic [8191:0] dp_c;
  logic [511:0]  dp_meta, dp_scale_a;
  logic [255:0]  dp_scale_b;
  // Datapath -> router
  logic          d_valid, d_ready, d_take;
  logic [15:0]   d_tag;
  logic [8191:0] d;
  logic [4:0]    d_desc;  // {family, k32, d_f16} of the D on d

  // ---------------------------------------------------------------------------
  // D descriptors, in issue order
  // ---------------------------------------------------------------------------
  logic [4:0]    desc_mem [DESC_DEPTH];
  logic [PtrW:0] desc_wr_q, desc_rd_q;
  logic          desc_full;

  assign desc_full   = (desc_wr_q - desc_rd_q) == (PtrW + 1)'(DESC_DEPTH);
  assign rt_dp_ready = dp_ready && !desc_full;
  assign dp_fire     = dp_valid && rt_dp_ready;
  assign d_take      = d_valid && d_ready;
  assign d_desc      = desc_mem[desc_rd_q[PtrW-1:0]];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      desc_wr_q <= '0;
      desc_rd_q <= '0;
    end else begin
      if (dp_fire) desc_wr_q <= desc_wr_q + 1'b1;
      if (d_take) desc_rd_q <= desc_rd_q + 1'b1;
    end
  end

  always_ff @(posedge clk_i) begin
    if (dp_fire) desc_mem[desc_wr_q[PtrW-1:0]] <= {dp_family, dp_k32, dp_d_f16};
  end

  tcu_operand_router #(
    .WordsPerCycle (WordsPerCycle),
    .DWordsPerCycle(DWordsPerCycle),
    .GatherBypass  (GatherBypass),
    .SynthImpl     (SynthImpl)
  ) u_router (
    .clk_i,
    .rst_ni,
    .in_start_i,
    .in_start_ready_o,
    .in_family_i,
    .in_a_signed_i,
    .in_b_signed_i,
    .in_satfinite_i,
    .in_k32_i,
    .in_rnd_i,
    .in_a_row_i,
    .in_b_row_i,
    .in_c_f16_i,
    .in_d_f16_i,
    .in_scale_4x_i,
    .in_sparsity_i,
    .in_byte_id_a_i,
    .in_thread_id_a_i,
    .in_byte_id_b_i,
    .in_thread_id_b_i,
    .in_tag_i,
    .in_word_valid_i,
    .in_word_op_i,
    .in_word_lane_i,
    .in_word_reg_i,
    .in_word_data_i,
    .in_last_i,
    .dp_valid_o    (dp_valid),
    .dp_ready_i    (rt_dp_ready),
    .dp_family_o   (dp_family),
    .dp_a_signed_o (dp_a_signed),
    .dp_b_signed_o (dp_b_signed),
    .dp_satfinite_o(dp_satfinite),
    .dp_k32_o      (dp_k32),
    .dp_rnd_o      (dp_rnd),
    .dp_c_f16_o    (dp_c_f16),
    .dp_d_f16_o    (dp_d_f16),
    .dp_scale_4x_o (dp_scale_4x),
    .dp_tag_o      (dp_tag),
    .dp_a_o        (dp_a),
    .dp_b_o        (dp_b),
    .dp_c_o        (dp_c),
    .dp_meta_o     (dp_meta),
    .dp_scale_a_o  (dp_scale_a),
    .dp_scale_b_o  (dp_scale_b),
    .d_valid_i     (d_valid),
    .d_ready_o     (d_ready),
    .d_tag_i       (d_tag),
    .d_i           (d),
    .d_family_i    (d_desc[4:2]),
    .d_k32_i       (d_desc[1]),
    .d_f16_i       (d_desc[0]),
    .wb_valid_o,
    .wb_ready_i,
    .wb_last_o,
    .wb_tag_o,
    .wb_word_valid_o,
    .wb_word_lane_o,
    .wb_word_reg_o,
    .wb_word_data_o
  );

  tcu_datapath #(
    .Int4MacsPerCycle(Int4MacsPerCycle),
    .E2m1MacsPerCycle(E2m1MacsPerCycle),
    .F16FmasPerCycle (F16FmasPerCycle),
    .F64FmasPerCycle (F64FmasPerCycle),
    .IntStages       (IntStages),
    .E2m1Stages      (E2m1Stages),
    .FmaStages       (FmaStages),
    .Int4Enable      (Int4Enable),
    .SparseEnable    (SparseEnable),
    .E2m1Enable      (E2m1Enable),
    .F16Enable       (F16Enable),
    .F64Enable       (F64Enable),
    .SynthImpl       (SynthImpl)
  ) u_datapath (
    .clk_i,
    .rst_ni,
    .in_valid_i    (dp_valid && !desc_full),
    .in_ready_o    (dp_ready),
    .in_family_i   (dp_family),
    .in_a_signed_i (dp_a_signed),
    .in_b_signed_i (dp_b_signed),
    .in_satfinite_i(dp_satfinite),
    .in_k32_i      (dp_k32),
    .in_rnd_i      (dp_rnd),
    .in_c_f16_i    (dp_c_f16),
    .in_d_f16_i    (dp_d_f16),
    .in_scale_4x_i (dp_scale_4x),
    .in_tag_i      (dp_tag),
    .in_a_i        (dp_a),
    .in_b_i        (dp_b),
    .in_c_i        (dp_c),
    .in_meta_i     (dp_meta),
    .in_scale_a_i  (dp_scale_a),
    .in_scale_b_i  (dp_scale_b),
    .out_valid_o   (d_valid),
    .out_ready_i   (d_ready),
    .out_tag_o     (d_tag),
    .out_d_o       (d),
    .act_cycles_o,
    .act_int4_busy_o,
    .act_int4_idle_o,
    .act_int4_stalled_o,
    .act_int4_gated_o,
    .act_int4_macs_o,
    .act_e2m1_busy_o,
    .act_e2m1_idle_o,
    .act_e2m1_stalled_o,
    .act_e2m1_gated_o,
    .act_e2m1_macs_o,
    .act_f16_busy_o,
    .act_f16_idle_o,
    .act_f16_stalled_o,
    .act_f16_gated_o,
    .act_f16_macs_o,
    .act_f64_busy_o,
    .act_f64_idle_o,
    .act_f64_stalled_o,
    .act_f64_gated_o,
    .act_f64_macs_o
  );

endmodule
