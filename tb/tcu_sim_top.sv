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
  parameter int FmaStages        = 2
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
  // Lane register view: lane l's source word w at [(l*16+w)*32 +: 32],
  // destination word w at [(l*8+w)*32 +: 32]; written only when tracing.
  input  logic [16383:0] lane_src_i,
  input  logic [8191:0]  lane_dst_i
);

  // One scope per lane (g_lane[l].src / .dst) so a waveform viewer lists the
  // lanes' registers one by one.
  for (genvar l = 0; l < 32; l++) begin : g_lane
    /* verilator lint_off UNUSEDSIGNAL */
    logic [15:0][31:0] src;
    logic [7:0][31:0]  dst;
    /* verilator lint_on UNUSEDSIGNAL */
    assign src = lane_src_i[l*512 +: 512];
    assign dst = lane_dst_i[l*256 +: 256];
  end

  tcu_datapath #(
    .Int4MacsPerCycle(Int4MacsPerCycle),
    .E2m1MacsPerCycle(E2m1MacsPerCycle),
    .F16FmasPerCycle (F16FmasPerCycle),
    .F64FmasPerCycle (F64FmasPerCycle),
    .IntStages       (IntStages),
    .E2m1Stages      (E2m1Stages),
    .FmaStages       (FmaStages)
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
    .out_d_o
  );

endmodule
