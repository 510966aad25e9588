// Simulation top: the datapath plus a view of the warp's lane registers, so
// a waveform shows the fragments the SystemC front-end gathers and the D
// registers it scatters back. Not synthesized.
module tcu_sim_top #(
  parameter int Int4MacsPerCycle = 1024,
  parameter int E2m1MacsPerCycle = 1024,
  parameter int F16FmasPerCycle  = 256,
  parameter int F64FmasPerCycle  = 16,
  parameter int IntStages        = 2,
  parameter int E2m1Stages       = 2,
  parameter int FmaStages        = 2,
  parameter bit Int4Enable       = 1'b1,
  parameter bit SparseEnable     = 1'b1,
  parameter bit E2m1Enable       = 1'b1,
  parameter bit F16Enable        = 1'b1,
  parameter bit F64Enable        = 1'b1
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
  // The datapath's activity counters (rtl/tcu_activity.sv)
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
  output logic [47:0]   act_f64_macs_o,
  // Lane register view, for waveforms: lane l's source word w at
  // lane_src_i[(l*16+w)*32 +: 32], destination word w at
  // lane_dst_i[(l*8+w)*32 +: 32], captured at a clock edge with its write
  // strobe high. The view registers sit behind their own clock gate, so a
  // run that never writes them (no trace) never evaluates them.
  input  logic           lane_src_we_i,
  input  logic [16383:0] lane_src_i,
  input  logic           lane_dst_we_i,
  input  logic [8191:0]  lane_dst_i
);

  logic clk_view;
  tcu_clock_gate u_view_gate (.clk_i, .en_i(lane_src_we_i | lane_dst_we_i), .clk_o(clk_view));

  // One scope per lane (g_lane[l].src / .dst) so a waveform viewer lists the
  // lanes' registers one by one.
  for (genvar l = 0; l < 32; l++) begin : g_lane
    /* verilator lint_off UNUSEDSIGNAL */
    logic [15:0][31:0] src;
    logic [7:0][31:0]  dst;
    /* verilator lint_on UNUSEDSIGNAL */
    always_ff @(posedge clk_view) begin
      if (lane_src_we_i) begin
        src <= lane_src_i[l*512 +: 512];
      end
      if (lane_dst_we_i) begin
        dst <= lane_dst_i[l*256 +: 256];
      end
    end
  end

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
    .F64Enable       (F64Enable)
  ) u_datapath (
    .clk_i,
    .rst_ni,
    .in_valid_i,
    .in_ready_o,
    .in_family_i,
    .in_a_signed_i,
    .in_b_signed_i,
    .in_satfinite_i,
    .in_k32_i,
    .in_rnd_i,
    .in_c_f16_i,
    .in_d_f16_i,
    .in_scale_4x_i,
    .in_tag_i,
    .in_a_i,
    .in_b_i,
    .in_c_i,
    .in_meta_i,
    .in_scale_a_i,
    .in_scale_b_i,
    .out_valid_o,
    .out_ready_i,
    .out_tag_o,
    .out_d_o,
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
