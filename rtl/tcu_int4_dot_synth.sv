// tcu_int4_dot's synthesis implementation (what Yosys maps; area figures):
// 32 multipliers of 5-bit signed operands (the code with its sign or a zero
// above it) feed a binary adder tree, one bit wider per level, with the
// Stages registers spread evenly over the six layers (products, five adder
// levels) as tcu_int4_dot describes. Each layer is a task over module-level
// arrays of narrow terms, run inside the always_ff of the first register
// after it, under its load enable. Same ports, parameters and timing as
// tcu_int4_dot; proven equal to tcu_int4_dot_fast by tcu-formal.
module tcu_int4_dot_synth #(
  parameter int unsigned  Stages = tcu_pkg::IntStages,
  localparam int unsigned Lanes  = tcu_pkg::INT4_DOT_LANES,
  localparam int unsigned Bits   = tcu_pkg::INT4_BITS,
  localparam int unsigned SumW   = tcu_pkg::INT4_DOT_WIDTH
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  input  logic                   en_i,
  input  logic                   valid_i /* verilator public_flat_rd */,
  input  logic                   a_signed_i /* verilator public_flat_rd */,
  input  logic                   b_signed_i /* verilator public_flat_rd */,
  input  logic [Lanes*Bits-1:0]  a_i /* verilator public_flat_rd */,
  input  logic [Lanes*Bits-1:0]  b_i /* verilator public_flat_rd */,
  output logic                   valid_o,
  output logic signed [SumW-1:0] sum_o
);

  localparam int unsigned ProdW  = tcu_pkg::INT4_PROD_WIDTH;
  localparam int unsigned Layers = $clog2(Lanes) + 1;  // the products, five adder levels

  // Layer l has T<l> = Lanes >> l terms of W<l> = ProdW + l signed bits.
  localparam int unsigned T0 = Lanes, T1 = Lanes / 2, T2 = Lanes / 4, T3 = Lanes / 8;
  localparam int unsigned T4 = Lanes / 16;
  localparam int unsigned W0 = ProdW, W1 = ProdW + 1, W2 = ProdW + 2, W3 = ProdW + 3;
  localparam int unsigned W4 = ProdW + 4, W5 = ProdW + 5;

  // Registers after layer l (R<l>).
  localparam int unsigned R0 = (1 * Stages) / Layers;
  localparam int unsigned R1 = (2 * Stages) / Layers - (1 * Stages) / Layers;
  localparam int unsigned R2 = (3 * Stages) / Layers - (2 * Stages) / Layers;
  localparam int unsigned R3 = (4 * Stages) / Layers - (3 * Stages) / Layers;
  localparam int unsigned R4 = (5 * Stages) / Layers - (4 * Stages) / Layers;
  localparam int unsigned R5 = Stages - (5 * Stages) / Layers;

  // Each layer's terms: s<l> its logic's output, f<l> the first register
  // after it, r<l> the last one (when there are several). The next layer
  // reads s<l>, f<l> or r<l>, whichever ends the boundary; the others are
  // tied to zero.
  logic signed [W0-1:0] s0 [T0], f0 [T0], r0 [T0];
  logic signed [W1-1:0] s1 [T1], f1 [T1], r1 [T1];
  logic signed [W2-1:0] s2 [T2], f2 [T2], r2 [T2];
  logic signed [W3-1:0] s3 [T3], f3 [T3], r3 [T3];
  logic signed [W4-1:0] s4 [T4], f4 [T4], r4 [T4];
  logic signed [W5-1:0] s5;

  // The layer variables are combinational temporaries: each is written with
  // blocking assignments by the one block that runs its layer (the always_ff
  // of the first register after it, or the always_comb for Stages = 0).
  /* verilator lint_off BLKSEQ */

  // Layer 0: the products of the 5-bit signed operands (the code with its
  // sign or a zero above it), written as code - 16 * sign: the low W0 bits
  // of the product of the two's complement values are those of the signed
  // product, and the Verilated code needs no sign extensions.
  task automatic layer0();
    for (int unsigned k = 0; k < T0; k++) begin
      s0[k] = W0'(32'($signed({a_signed_i & a_i[k*Bits+Bits-1], a_i[k*Bits +: Bits]})) *
                  32'($signed({b_signed_i & b_i[k*Bits+Bits-1], b_i[k*Bits +: Bits]})));
    end
  endtask

  // Layers 1..5: pairwise sums of the previous layer's terms.
  task automatic layer1();
    for (int unsigned t = 0; t < T1; t++) begin
      s1[t] = (R0 == 0) ? W1'(s0[2*t]) + W1'(s0[2*t+1])
            : (R0 == 1) ? W1'(f0[2*t]) + W1'(f0[2*t+1])
                        : W1'(r0[2*t]) + W1'(r0[2*t+1]);
    end
  endtask

  task automatic layer2();
    for (int unsigned t = 0; t < T2; t++) begin
      s2[t] = (R1 == 0) ? W2'(s1[2*t]) + W2'(s1[2*t+1])
            : (R1 == 1) ? W2'(f1[2*t]) + W2'(f1[2*t+1])
                        : W2'(r1[2*t]) + W2'(r1[2*t+1]);
    end
  endtask

  task automatic layer3();
    for (int unsigned t = 0; t < T3; t++) begin
      s3[t] = (R2 == 0) ? W3'(s2[2*t]) + W3'(s2[2*t+1])
            : (R2 == 1) ? W3'(f2[2*t]) + W3'(f2[2*t+1])
                        : W3'(r2[2*t]) + W3'(r2[2*t+1]);
    end
  endtask

  task automatic layer4();
    for (int unsigned t = 0; t < T4; t++) begin
      s4[t] = (R3 == 0) ? W4'(s3[2*t]) + W4'(s3[2*t+1])
            : (R3 == 1) ? W4'(f3[2*t]) + W4'(f3[2*t+1])
                        : W4'(r3[2*t]) + W4'(r3[2*t+1]);
    end
  endtask

  task automatic layer5();
    s5 = (R4 == 0) ? W5'(s4[0]) + W5'(s4[1])
       : (R4 == 1) ? W5'(f4[0]) + W5'(f4[1])
                   : W5'(r4[0]) + W5'(r4[1]);
  endtask

  // ---------------------------------------------------------------------------
  // Registers, and the blocks that run the layers
  // ---------------------------------------------------------------------------
  // Boundary l's valid bit (the previous one's when it has no register), and
  // the first layer the block of its first register runs (F<l>: the one
  // after the last registered boundary before it).
  logic            bv0, bv1, bv2, bv3, bv4;
  localparam int unsigned F1 = (R0 > 0) ? 1 : 0;
  localparam int unsigned F2 = (R1 > 0) ? 2 : F1;
  localparam int unsigned F3 = (R2 > 0) ? 3 : F2;
  localparam int unsigned F4 = (R3 > 0) ? 4 : F3;
  localparam int unsigned F5 = (R4 > 0) ? 5 : F4;

  if (Stages == 0) begin : g_comb
    always_comb begin
      layer0();
      layer1();
      layer2();
      layer3();
      layer4();
      layer5();
    end
    assign valid_o = valid_i;
    assign sum_o   = s5;

    // No registers: the clock, reset, enable and boundary valid bits go
    // unused.
    logic unused_ctrl;
    assign unused_ctrl = ^{clk_i, rst_ni, en_i, bv4};
  end

  // ---- after layer 0 --------------------------------------------------------
  if (R0 > 0) begin : g_b0
    logic v_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) v_q <= 1'b0;
      else if (en_i) v_q <= valid_i;
    end
    always_ff @(posedge clk_i) begin
      if (en_i && valid_i) begin
        layer0();
        for (int unsigned t = 0; t < T0; t++) f0[t] <= s0[t];
      end
    end
    if (R0 > 1) begin : g_more
      logic [T0*W0-1:0] first, last;
      for (genvar t = 0; t < T0; t++) begin : g_term
        assign first[t*W0 +: W0] = f0[t];
        assign r0[t]             = last[t*W0 +: W0];
      end
      tcu_pipe_reg #(.Width(T0*W0), .Depth(R0 - 1)) u_more (
        .clk_i, .rst_ni, .en_i, .valid_i(v_q), .data_i(first), .valid_o(bv0), .data_o(last));
    end else begin : g_one
      assign bv0 = v_q;
      for (genvar t = 0; t < T0; t++) begin : g_term
        assign r0[t] = '0;
      end
    end
  end else begin : g_b0_none
    assign bv0 = valid_i;
    for (genvar t = 0; t < T0; t++) begin : g_term
      assign f0[t] = '0;
      assign r0[t] = '0;
    end
  end

  // ---- after layer 1 --------------------------------------------------------
  if (R1 > 0) begin : g_b1
    logic v_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) v_q <= 1'b0;
      else if (en_i) v_q <= bv0;
    end
    always_ff @(posedge clk_i) begin
      if (en_i && bv0) begin
        if (F1 == 0) layer0();
        layer1();
        for (int unsigned t = 0; t < T1; t++) f1[t] <= s1[t];
      end
    end
    if (R1 > 1) begin : g_more
      logic [T1*W1-1:0] first, last;
      for (genvar t = 0; t < T1; t++) begin : g_term
        assign first[t*W1 +: W1] = f1[t];
        assign r1[t]             = last[t*W1 +: W1];
      end
      tcu_pipe_reg #(.Width(T1*W1), .Depth(R1 - 1)) u_more (
        .clk_i, .rst_ni, .en_i, .valid_i(v_q), .data_i(first), .valid_o(bv1), .data_o(last));
    end else begin : g_one
      assign bv1 = v_q;
      for (genvar t = 0; t < T1; t++) begin : g_term
        assign r1[t] = '0;
      end
    end
  end else begin : g_b1_none
    assign bv1 = bv0;
    for (genvar t = 0; t < T1; t++) begin : g_term
      assign f1[t] = '0;
      assign r1[t] = '0;
    end
  end

  // ---- after layer 2 --------------------------------------------------------
  if (R2 > 0) begin : g_b2
    logic v_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) v_q <= 1'b0;
      else if (en_i) v_q <= bv1;
    end
    always_ff @(posedge clk_i) begin
      if (en_i && bv1) begin
        if (F2 == 0) layer0();
        if (F2 <= 1) layer1();
        layer2();
        for (int unsigned t = 0; t < T2; t++) f2[t] <= s2[t];
      end
    end
    if (R2 > 1) begin : g_more
      logic [T2*W2-1:0] first, last;
      for (genvar t = 0; t < T2; t++) begin : g_term
        assign first[t*W2 +: W2] = f2[t];
        assign r2[t]             = last[t*W2 +: W2];
      end
      tcu_pipe_reg #(.Width(T2*W2), .Depth(R2 - 1)) u_more (
        .clk_i, .rst_ni, .en_i, .valid_i(v_q), .data_i(first), .valid_o(bv2), .data_o(last));
    end else begin : g_one
      assign bv2 = v_q;
      for (genvar t = 0; t < T2; t++) begin : g_term
        assign r2[t] = '0;
      end
    end
  end else begin : g_b2_none
    assign bv2 = bv1;
    for (genvar t = 0; t < T2; t++) begin : g_term
      assign f2[t] = '0;
      assign r2[t] = '0;
    end
  end

  // ---- after layer 3 --------------------------------------------------------
  if (R3 > 0) begin : g_b3
    logic v_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) v_q <= 1'b0;
      else if (en_i) v_q <= bv2;
    end
    always_ff @(posedge clk_i) begin
      if (en_i && bv2) begin
        if (F3 == 0) layer0();
        if (F3 <= 1) layer1();
        if (F3 <= 2) layer2();
        layer3();
        for (int unsigned t = 0; t < T3; t++) f3[t] <= s3[t];
      end
    end
    if (R3 > 1) begin : g_more
      logic [T3*W3-1:0] first, last;
      for (genvar t = 0; t < T3; t++) begin : g_term
        assign first[t*W3 +: W3] = f3[t];
        assign r3[t]             = last[t*W3 +: W3];
      end
      tcu_pipe_reg #(.Width(T3*W3), .Depth(R3 - 1)) u_more (
        .clk_i, .rst_ni, .en_i, .valid_i(v_q), .data_i(first), .valid_o(bv3), .data_o(last));
    end else begin : g_one
      assign bv3 = v_q;
      for (genvar t = 0; t < T3; t++) begin : g_term
        assign r3[t] = '0;
      end
    end
  end else begin : g_b3_none
    assign bv3 = bv2;
    for (genvar t = 0; t < T3; t++) begin : g_term
      assign f3[t] = '0;
      assign r3[t] = '0;
    end
  end

  // ---- after layer 4 --------------------------------------------------------
  if (R4 > 0) begin : g_b4
    logic v_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) v_q <= 1'b0;
      else if (en_i) v_q <= bv3;
    end
    always_ff @(posedge clk_i) begin
      if (en_i && bv3) begin
        if (F4 == 0) layer0();
        if (F4 <= 1) layer1();
        if (F4 <= 2) layer2();
        if (F4 <= 3) layer3();
        layer4();
        for (int unsigned t = 0; t < T4; t++) f4[t] <= s4[t];
      end
    end
    if (R4 > 1) begin : g_more
      logic [T4*W4-1:0] first, last;
      for (genvar t = 0; t < T4; t++) begin : g_term
        assign first[t*W4 +: W4] = f4[t];
        assign r4[t]             = last[t*W4 +: W4];
      end
      tcu_pipe_reg #(.Width(T4*W4), .Depth(R4 - 1)) u_more (
        .clk_i, .rst_ni, .en_i, .valid_i(v_q), .data_i(first), .valid_o(bv4), .data_o(last));
    end else begin : g_one
      assign bv4 = v_q;
      for (genvar t = 0; t < T4; t++) begin : g_term
        assign r4[t] = '0;
      end
    end
  end else begin : g_b4_none
    assign bv4 = bv3;
    for (genvar t = 0; t < T4; t++) begin : g_term
      assign f4[t] = '0;
      assign r4[t] = '0;
    end
  end

  // ---- after layer 5: the output (R5 >= 1 for Stages >= 1) ------------------
  if (Stages > 0) begin : g_b5
    logic                   v_q;
    logic signed [W5-1:0]   f5;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) v_q <= 1'b0;
      else if (en_i) v_q <= bv4;
    end
    always_ff @(posedge clk_i) begin
      if (en_i && bv4) begin
        if (F5 == 0) layer0();
        if (F5 <= 1) layer1();
        if (F5 <= 2) layer2();
        if (F5 <= 3) layer3();
        if (F5 <= 4) layer4();
        layer5();
        f5 <= s5;
      end
    end
    tcu_pipe_reg #(.Width(W5), .Depth(R5 - 1)) u_more (
      .clk_i, .rst_ni, .en_i, .valid_i(v_q), .data_i(f5), .valid_o(valid_o), .data_o(sum_o));
  end
  /* verilator lint_on BLKSEQ */

endmodule
