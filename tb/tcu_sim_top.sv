// Simulation top: tcu_core (the operand routing network and the datapath),
// driven by the SystemC warp front-end with lane-order register words and
// writing lane-order D words back. Beside the core's ports it shows, for the
// front-end's scoreboard, the handshakes between the router and the datapath
// and what crosses them (obs_*): the matrix-order operands the router hands
// over and the D it takes. What crosses is registered at the edge that takes
// it (obs_hand_*: at an accepting edge; obs_out_d_o: at each edge ending a
// cycle with out_valid), so that the simulator copies the wide nets only
// then rather than at every evaluation; the handshakes are combinational.
// (Waveforms show the nets themselves inside u_core.) Not synthesized.
module tcu_sim_top #(
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
  input  logic                          in_start_i,
  output logic                          in_start_ready_o,
  input  logic [2:0]                    in_family_i,
  input  logic                          in_a_signed_i,
  input  logic                          in_b_signed_i,
  input  logic                          in_satfinite_i,
  input  logic                          in_k32_i,
  input  logic [1:0]                    in_rnd_i,
  input  logic                          in_a_row_i,
  input  logic                          in_b_row_i,
  input  logic                          in_c_f16_i,
  input  logic                          in_d_f16_i,
  input  logic                          in_scale_4x_i,
  input  logic                          in_sparsity_i,
  input  logic [1:0]                    in_byte_id_a_i,
  input  logic                          in_thread_id_a_i,
  input  logic [1:0]                    in_byte_id_b_i,
  input  logic [1:0]                    in_thread_id_b_i,
  input  logic [15:0]                   in_tag_i,
  // ---- its source register words (slot s at [s*width +: width]) ----------
  input  logic [WordsPerCycle-1:0]      in_word_valid_i,
  input  logic [3*WordsPerCycle-1:0]    in_word_op_i,
  input  logic [5*WordsPerCycle-1:0]    in_word_lane_i,
  input  logic [3*WordsPerCycle-1:0]    in_word_reg_i,
  input  logic [32*WordsPerCycle-1:0]   in_word_data_i,
  input  logic                          in_last_i,
  // ---- destination register words -----------------------------------------
  output logic                          wb_valid_o,
  input  logic                          wb_ready_i,
  output logic                          wb_last_o,
  output logic [15:0]                   wb_tag_o,
  output logic [DWordsPerCycle-1:0]     wb_word_valid_o,
  output logic [5*DWordsPerCycle-1:0]   wb_word_lane_o,
  output logic [3*DWordsPerCycle-1:0]   wb_word_reg_o,
  output logic [32*DWordsPerCycle-1:0]  wb_word_data_o,
  // ---- the datapath's activity counters (rtl/tcu_activity.sv) -------------
  output logic [47:0]                   act_cycles_o,
  output logic [47:0]                   act_int4_busy_o,
  output logic [47:0]                   act_int4_idle_o,
  output logic [47:0]                   act_int4_stalled_o,
  output logic [47:0]                   act_int4_gated_o,
  output logic [47:0]                   act_int4_macs_o,
  output logic [47:0]                   act_e2m1_busy_o,
  output logic [47:0]                   act_e2m1_idle_o,
  output logic [47:0]                   act_e2m1_stalled_o,
  output logic [47:0]                   act_e2m1_gated_o,
  output logic [47:0]                   act_e2m1_macs_o,
  output logic [47:0]                   act_f16_busy_o,
  output logic [47:0]                   act_f16_idle_o,
  output logic [47:0]                   act_f16_stalled_o,
  output logic [47:0]                   act_f16_gated_o,
  output logic [47:0]                   act_f16_macs_o,
  output logic [47:0]                   act_f64_busy_o,
  output logic [47:0]                   act_f64_idle_o,
  output logic [47:0]                   act_f64_stalled_o,
  output logic [47:0]                   act_f64_gated_o,
  output logic [47:0]                   act_f64_macs_o,
  // ---- observation: router -> datapath (at the datapath's input) -----------
  output logic                          obs_dp_valid_o,
  output logic                          obs_dp_ready_o,
  output logic [15:0]                   obs_dp_tag_o,
  // what the last accepting edge took (registered at that edge)
  output logic [2:0]                    obs_hand_family_o,
  output logic [8:0]                    obs_hand_flags_o,  // {a_signed, b_signed, satfinite, k32, rnd, c_f16, d_f16, scale_4x}
  output logic [15:0]                   obs_hand_tag_o,
  output logic [4095:0]                 obs_hand_a_o,
  output logic [2047:0]                 obs_hand_b_o,
  output logic [8191:0]                 obs_hand_c_o,
  output logic [511:0]                  obs_hand_meta_o,
  output logic [511:0]                  obs_hand_scale_a_o,
  output logic [255:0]                  obs_hand_scale_b_o,
  // ---- observation: datapath -> router (D) --------------------------------
  output logic                          obs_d_valid_o,
  output logic                          obs_d_ready_o,
  output logic [15:0]                   obs_d_tag_o,
  output logic [8191:0]                 obs_out_d_o  // out_d_o at the last edge with out_valid
);

  // The core's internal nets, by hierarchical reference: the core itself
  // has no such ports.
  assign obs_dp_valid_o = u_core.dp_valid;
  assign obs_dp_ready_o = u_core.rt_dp_ready;
  assign obs_dp_tag_o   = u_core.dp_tag;
  assign obs_d_valid_o  = u_core.d_valid;
  assign obs_d_ready_o  = u_core.d_ready;
  assign obs_d_tag_o    = u_core.d_tag;

  // Each behind its own clock gate: Verilator then evaluates the copies
  // (and the top's port copies after them) only at the edges that take.
  logic clk_hand, clk_out;
  tcu_clock_gate u_gate_hand (
    .clk_i,
    .en_i (u_core.dp_valid && u_core.rt_dp_ready),
    .clk_o(clk_hand)
  );
  tcu_clock_gate u_gate_out (
    .clk_i,
    .en_i (u_core.d_valid),
    .clk_o(clk_out)
  );
  always_ff @(posedge clk_hand) begin
    obs_hand_family_o  <= u_core.dp_family;
    obs_hand_flags_o   <= {u_core.dp_a_signed, u_core.dp_b_signed, u_core.dp_satfinite,
                           u_core.dp_k32, u_core.dp_rnd, u_core.dp_c_f16, u_core.dp_d_f16,
                           u_core.dp_scale_4x};
    obs_hand_tag_o     <= u_core.dp_tag;
    obs_hand_a_o       <= u_core.dp_a;
    obs_hand_b_o       <= u_core.dp_b;
    obs_hand_c_o       <= u_core.dp_c;
    obs_hand_meta_o    <= u_core.dp_meta;
    obs_hand_scale_a_o <= u_core.dp_scale_a;
    obs_hand_scale_b_o <= u_core.dp_scale_b;
  end
  always_ff @(posedge clk_out) begin
    obs_out_d_o <= u_core.d;
  end

  tcu_core #(
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
    .WordsPerCycle   (WordsPerCycle),
    .DWordsPerCycle  (DWordsPerCycle),
    .GatherBypass    (GatherBypass),
    .SynthImpl       (SynthImpl)
  ) u_core (
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
    .wb_valid_o,
    .wb_ready_i,
    .wb_last_o,
    .wb_tag_o,
    .wb_word_valid_o,
    .wb_word_lane_o,
    .wb_word_reg_o,
    .wb_word_data_o,
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
