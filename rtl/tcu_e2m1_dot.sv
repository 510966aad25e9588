// One D element of block-scaled e2m1 mma.m16n8k64 (.kind::mxf4 with
// .scale_vec::2X ue8m0 scales, .kind::mxf4nvf4 with .scale_vec::4X ue4m3),
// bit-exact to the golden e2m1_dot (model/src/e2m1.cpp, MMA-Sim's
// "RTX Blackwell" mma_block_scale):
//
//   - NaN C, or a NaN scale (ue8m0 0xff, ue4m3 0x7f/0xff) among the blocks
//     used, gives 0x7fffffff; an infinite C is returned unchanged.
//   - Each group of 16 consecutive k is an exact e2m1 dot product, in
//     quarters, multiplied by both scale significands (ue8m0 1, ue4m3 read
//     through abs() in eighths), at the sum of the scales' exponents (ue8m0
//     0x00 = 2^-127, a zero ue4m3 at -126); terms are not renormalised.
//   - The four group terms and C (subnormal or zero C at exponent -126) are
//     aligned to the largest of the five exponents, each truncated toward
//     zero to 35 fractional bits below it, and added exactly.
//   - The sum is truncated to f32: subnormals kept, 2^128 and above is Inf,
//     exact zero and anything that truncates to zero is +0.
//
// Operands: a_k = a_i[4k +: 4] (A's row), b_k = b_i[4k +: 4] (B's column),
// k = 0..63; scale byte j (K block j: 16j..16j+15 for 4X, 32j..32j+31 for
// 2X) at scale_a_i[8j +: 8] and scale_b_i[8j +: 8]; 2X uses bytes 0 and 1
// only. c_i and d_o are f32.
//
// Four layers: (0) group dot products, scale decode and C unpack; (1) group
// terms and the alignment exponent; (2) alignment and the exact sum;
// (3) truncation to f32. The Stages pipeline registers are spread evenly
// over them as in tcu_int4_dot (layer l is followed by
// floor((l+1)S/4) - floor(lS/4)). valid_o and d_o follow valid_i exactly
// Stages cycles later, counting only cycles with en_i high; en_i low holds
// every register.
module tcu_e2m1_dot #(
  parameter int unsigned  Stages = 2,
  localparam int unsigned K      = tcu_pkg::E2M1_DOT_LANES,
  localparam int unsigned Blocks = tcu_pkg::E2M1_MAX_BLOCKS,
  localparam int unsigned CodeW  = tcu_pkg::fp_width(tcu_pkg::E2M1),
  localparam int unsigned ScaleW = tcu_pkg::fp_width(tcu_pkg::UE8M0),
  localparam int unsigned Width  = tcu_pkg::fp_width(tcu_pkg::FP32)
) (
  input  logic                     clk_i,
  input  logic                     rst_ni,
  input  logic                     en_i,
  input  logic                     valid_i /* verilator public_flat_rd */,
  input  logic                     scale_4x_i /* verilator public_flat_rd */,
  input  logic [K*CodeW-1:0]       a_i /* verilator public_flat_rd */,
  input  logic [K*CodeW-1:0]       b_i /* verilator public_flat_rd */,
  input  logic [Blocks*ScaleW-1:0] scale_a_i /* verilator public_flat_rd */,
  input  logic [Blocks*ScaleW-1:0] scale_b_i /* verilator public_flat_rd */,
  input  logic [Width-1:0]         c_i /* verilator public_flat_rd */,
  output logic                     valid_o,
  output logic [Width-1:0]         d_o
);

  // ---------------------------------------------------------------------------
  // Widths
  // ---------------------------------------------------------------------------
  localparam int unsigned Man      = tcu_pkg::man_bits(tcu_pkg::FP32);  // 23
  localparam int unsigned ExpF     = tcu_pkg::exp_bits(tcu_pkg::FP32);  // 8
  localparam int unsigned Bias     = tcu_pkg::bias(tcu_pkg::FP32);      // 127
  localparam int unsigned Group    = 16;                // k summed exactly per term
  localparam int unsigned Groups   = K / Group;         // 4 terms
  localparam int unsigned WinFrac  = 35;                // bits kept below the max exponent
  localparam int unsigned TermFrac = 8;                 // quarters times two eighths
  // Magnitude of an e2m1 code in halves: 0..12.
  localparam int unsigned HalvesW  = 4;
  // A group's dot in quarters: |q| <= 16 * 144 = 2304.
  localparam int unsigned QW       = 13;
  // Product of two scale significands in eighths: <= 15 * 15.
  localparam int unsigned SprodW   = 8;
  // Signed exponents: scale sums lie in [-254, 254], the result's in
  // [-161, 267]; also the (non-negative) alignment distances, <= 508.
  localparam int unsigned ExpW     = 10;
  // A term's magnitude, |q| * sprod < 2^20, and C's significand.
  localparam int unsigned TermW    = 20;
  localparam int unsigned CSigW    = Man + 1;
  // Aligned magnitudes: a term's at 35 - 8 = 27 bits left, C's 35 - 23 = 12.
  localparam int unsigned TermAlW  = TermW + WinFrac - TermFrac;
  localparam int unsigned CAlW     = CSigW + WinFrac - Man;
  // The exact sum of four aligned terms and C.
  localparam int unsigned SumW     = TermAlW + 4;
  localparam int unsigned MagW     = SumW - 1;
  localparam int unsigned LzW      = $clog2(MagW);

  localparam logic signed [ExpW-1:0] ZERO_EXP  = ExpW'(-126);  // MMA-Sim's zero
  localparam logic signed [ExpW-1:0] SUB_EXP   = ExpW'(-6);    // ue4m3 subnormal
  localparam logic signed [ExpW-1:0] EXP_MAX   = ExpW'(Bias);      // f32 normal range
  localparam logic signed [ExpW-1:0] EXP_MIN   = ExpW'(1) - ExpW'(Bias);
  localparam logic [ScaleW-1:0]      E8M0_NAN  = '1;
  localparam logic [ScaleW-2:0]      E4M3_NAN  = '1;
  localparam logic [Width-1:0]       POS_INF   = {1'b0, {ExpF{1'b1}}, {Man{1'b0}}};

  // ---------------------------------------------------------------------------
  // Helpers
  // ---------------------------------------------------------------------------
  // e2m1 magnitude in halves (0, 0.5, 1, 1.5, 2, 3, 4, 6 for codes 0..7), one
  // nibble per code: a constant indexed by the code (a shift in simulation,
  // no branches; a 3-input lookup in gates).
  localparam logic [8*HalvesW-1:0] HALVES = {4'd12, 4'd8, 4'd6, 4'd4, 4'd3, 4'd2, 4'd1, 4'd0};

  // ---------------------------------------------------------------------------
  // Layer 0: group dot products, scale decode, C unpack
  // ---------------------------------------------------------------------------
  localparam int unsigned L0W = Groups * (QW + SprodW + ExpW) + 1 + CSigW + ExpW + 2;
  logic [L0W-1:0] l0_d;

  logic [Groups*QW-1:0]     l0_q;
  logic [Groups*SprodW-1:0] l0_sprod;
  logic [Groups*ExpW-1:0]   l0_texp;
  logic [Groups-1:0]        l0_group_nan;

  for (genvar g = 0; g < Groups; g++) begin : g_group
    // Each product is added or subtracted as its sign says, written as a
    // conditional negation (x ^ -s) + s: no data-dependent branch in the
    // simulator's code.
    logic signed [QW-1:0] q;
    always_comb begin
      q = '0;
      for (int unsigned i = g * Group; i < (g + 1) * Group; i++) begin
        q = q + ((QW'(HALVES[a_i[i*CodeW +: CodeW-1]*HalvesW +: HalvesW] *
                      HALVES[b_i[i*CodeW +: CodeW-1]*HalvesW +: HalvesW]) ^
                  {QW{a_i[i*CodeW+CodeW-1] ^ b_i[i*CodeW+CodeW-1]}}) +
                 {{(QW - 1){1'b0}}, a_i[i*CodeW+CodeW-1] ^ b_i[i*CodeW+CodeW-1]});
      end
    end

    // The scale bytes of A (s = 0) and B (s = 1): 2X: group g is in block
    // g/2; 4X: block g. Decoded to {nan, significand in eighths, exponent}.
    logic [1:0]        nan;
    logic [7:0]        eighths;
    logic [2*ExpW-1:0] exp;
    for (genvar s = 0; s < 2; s++) begin : g_scale
      logic [ScaleW-1:0] raw;
      if (s == 0) begin : g_a
        assign raw = scale_4x_i ? scale_a_i[g*ScaleW +: ScaleW] : scale_a_i[(g/2)*ScaleW +: ScaleW];
      end else begin : g_b
        assign raw = scale_4x_i ? scale_b_i[g*ScaleW +: ScaleW] : scale_b_i[(g/2)*ScaleW +: ScaleW];
      end
      always_comb begin
        if (!scale_4x_i) begin
          nan[s]              = raw == E8M0_NAN;
          eighths[4*s +: 4]   = 4'd8;
          exp[ExpW*s +: ExpW] = ExpW'(raw) - ExpW'(Bias);
        end else begin
          // ue4m3 through abs(): bit 7 ignored; exponent bias 7, 3 fraction bits.
          nan[s] = raw[ScaleW-2:0] == E4M3_NAN;
          if (raw[6:3] != 4'd0) begin
            eighths[4*s +: 4]   = {1'b1, raw[2:0]};
            exp[ExpW*s +: ExpW] = ExpW'(raw[6:3]) - ExpW'(7);
          end else if (raw[2:0] != 3'd0) begin
            eighths[4*s +: 4]   = {1'b0, raw[2:0]};
            exp[ExpW*s +: ExpW] = SUB_EXP;
          end else begin
            eighths[4*s +: 4]   = 4'd0;
            exp[ExpW*s +: ExpW] = ZERO_EXP;
          end
        end
      end
    end

    assign l0_q[g*QW +: QW]             = q;
    assign l0_sprod[g*SprodW +: SprodW] = eighths[3:0] * eighths[7:4];
    assign l0_texp[g*ExpW +: ExpW]      = exp[ExpW-1:0] + exp[2*ExpW-1:ExpW];
    // Every block in use is some group's (2X: 0 and 1; 4X: 0..3), so the
    // groups' scales are the NaN check.
    assign l0_group_nan[g]              = |nan;
  end

  // C: sign, significand (hidden bit for normals), exponent (-126 for
  // subnormals and zero).
  logic                   c_sign, c_nan, c_inf;
  logic [CSigW-1:0]       c_mag;
  logic signed [ExpW-1:0] c_exp;
  assign c_sign = c_i[Width-1];
  assign c_inf  = c_i[Width-2:Man] == '1 && c_i[Man-1:0] == '0;
  assign c_nan  = c_i[Width-2:Man] == '1 && c_i[Man-1:0] != '0;
  assign c_mag  = {c_i[Width-2:Man] != '0, c_i[Man-1:0]};
  assign c_exp  = c_i[Width-2:Man] == '0 ? ZERO_EXP : ExpW'(c_i[Width-2:Man]) - ExpW'(Bias);

  assign l0_d = {l0_q, l0_sprod, l0_texp, c_sign, c_mag, c_exp, c_nan | (|l0_group_nan), c_inf};

  logic [L0W-1:0] l0;
  logic           l0_valid;
  tcu_pipe_reg #(
    .Width(L0W),
    .Depth(((1 * Stages) / 4) - 0)
  ) u_reg0 (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .en_i   (en_i),
    .valid_i(valid_i),
    .data_i (l0_d),
    .valid_o(l0_valid),
    .data_o (l0)
  );

  // ---------------------------------------------------------------------------
  // Layer 1: group terms, the alignment exponent and distances
  // ---------------------------------------------------------------------------
  logic [Groups*QW-1:0]     l1_q;
  logic [Groups*SprodW-1:0] l1_sprod;
  logic [Groups*ExpW-1:0]   l1_texp;
  logic                     l1_c_sign, l1_nan, l1_inf;
  logic [CSigW-1:0]         l1_c_mag;
  logic signed [ExpW-1:0]   l1_c_exp;
  assign {l1_q, l1_sprod, l1_texp, l1_c_sign, l1_c_mag, l1_c_exp, l1_nan, l1_inf} = l0;

  logic signed [ExpW-1:0] max_exp;
  always_comb begin
    max_exp = l1_c_exp;
    for (int unsigned g = 0; g < Groups; g++) begin
      if ($signed(l1_texp[g*ExpW +: ExpW]) > max_exp) begin
        max_exp = l1_texp[g*ExpW +: ExpW];
      end
    end
  end

  localparam int unsigned L1W = Groups * (1 + TermW + ExpW) + 1 + CSigW + ExpW + ExpW + 2;
  logic [Groups-1:0]       l1_term_sign;
  logic [Groups*TermW-1:0] l1_term_mag;
  logic [Groups*ExpW-1:0]  l1_term_dist;
  for (genvar g = 0; g < Groups; g++) begin : g_term
    logic signed [QW-1:0] q;
    logic [QW-2:0]        q_mag;
    assign q     = l1_q[g*QW +: QW];
    assign q_mag = q[QW-1] ? (QW-1)'(-q) : q[QW-2:0];
    assign l1_term_sign[g]               = q[QW-1];
    assign l1_term_mag[g*TermW +: TermW] = TermW'(q_mag) * TermW'(l1_sprod[g*SprodW +: SprodW]);
    assign l1_term_dist[g*ExpW +: ExpW]  = max_exp - l1_texp[g*ExpW +: ExpW];
  end

  logic [L1W-1:0] l1_d, l1;
  logic           l1_valid;
  assign l1_d = {l1_term_sign, l1_term_mag, l1_term_dist, l1_c_sign, l1_c_mag,
                 ExpW'(max_exp - l1_c_exp), max_exp, l1_nan, l1_inf};

  tcu_pipe_reg #(
    .Width(L1W),
    .Depth(((2 * Stages) / 4) - ((1 * Stages) / 4))
  ) u_reg1 (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .en_i   (en_i),
    .valid_i(l0_valid),
    .data_i (l1_d),
    .valid_o(l1_valid),
    .data_o (l1)
  );

  // ---------------------------------------------------------------------------
  // Layer 2: alignment (truncating toward zero) and the exact sum
  // ---------------------------------------------------------------------------
  logic [Groups-1:0]       l2_term_sign;
  logic [Groups*TermW-1:0] l2_term_mag;
  logic [Groups*ExpW-1:0]  l2_term_dist;
  logic                    l2_c_sign, l2_nan, l2_inf;
  logic [CSigW-1:0]        l2_c_mag;
  logic [ExpW-1:0]         l2_c_dist;
  logic [ExpW-1:0]         l2_max_exp;
  assign {l2_term_sign, l2_term_mag, l2_term_dist, l2_c_sign, l2_c_mag, l2_c_dist, l2_max_exp,
          l2_nan, l2_inf} = l1;

  logic signed [SumW-1:0] sum;
  always_comb begin
    logic [CAlW-1:0] c_al;
    c_al = {l2_c_mag, {(CAlW - CSigW){1'b0}}} >> l2_c_dist;
    sum  = l2_c_sign ? -(SumW'(c_al)) : SumW'(c_al);
    for (int unsigned g = 0; g < Groups; g++) begin
      logic [TermAlW-1:0] t_al;
      t_al = {l2_term_mag[g*TermW +: TermW], {(TermAlW - TermW){1'b0}}} >> l2_term_dist[g*ExpW +: ExpW];
      sum = sum + ((SumW'(t_al) ^ {SumW{l2_term_sign[g]}}) + SumW'(l2_term_sign[g]));
    end
  end

  localparam int unsigned L2W = SumW + ExpW + 1 + 2;
  logic [L2W-1:0] l2_d, l2;
  logic           l2_valid;
  assign l2_d = {sum, l2_max_exp, l2_c_sign, l2_nan, l2_inf};

  tcu_pipe_reg #(
    .Width(L2W),
    .Depth(((3 * Stages) / 4) - ((2 * Stages) / 4))
  ) u_reg2 (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .en_i   (en_i),
    .valid_i(l1_valid),
    .data_i (l2_d),
    .valid_o(l2_valid),
    .data_o (l2)
  );

  // ---------------------------------------------------------------------------
  // Layer 3: truncation to f32 (golden fixed_to_f32_rz)
  // ---------------------------------------------------------------------------
  logic signed [SumW-1:0] l3_sum;
  logic signed [ExpW-1:0] l3_max_exp;
  logic                   l3_c_sign, l3_nan, l3_inf;
  assign {l3_sum, l3_max_exp, l3_c_sign, l3_nan, l3_inf} = l2;

  logic [MagW-1:0] mag;
  logic            sign;
  assign sign = l3_sum[SumW-1];
  assign mag  = sign ? MagW'(-l3_sum) : l3_sum[MagW-1:0];

  // Leading zeros of the magnitude (MagW when zero).
  logic [LzW:0]            lz;
  logic [$clog2(MagW+1)-1:0] lz_count;
  tcu_lzc #(
    .Width(MagW)
  ) u_lzc (
    .data_i (mag),
    .count_o(lz_count)
  );
  assign lz = (LzW + 1)'(lz_count);

  // The value is mag * 2^(max_exp - 35); its leading one is at exponent
  // e = max_exp - 35 + (MagW - 1 - lz).
  logic signed [ExpW-1:0] res_exp;
  assign res_exp = l3_max_exp - ExpW'(WinFrac) + ExpW'(MagW - 1) - ExpW'(lz);

  // Normalised: the leading one at the top, the f32 fraction below it.
  logic [MagW-1:0] norm;
  logic [Man-1:0]  frac;
  assign norm = mag << lz;
  assign frac = norm[MagW-2 -: Man];

  logic unused_norm;
  assign unused_norm = ^{norm[MagW-1], norm[MagW-Man-2:0]};

  // Subnormal: mag in units of 2^-149 is mag * 2^(max_exp - 35 + 149).
  logic signed [ExpW-1:0] sub_shift;
  logic [Man-1:0]         sub_units;
  assign sub_shift = l3_max_exp - ExpW'(WinFrac) + ExpW'(Bias - 1 + Man);
  assign sub_units = sub_shift[ExpW-1] ? Man'(mag >> (-sub_shift)) : Man'(mag << sub_shift);

  logic [Width-1:0] result;
  always_comb begin
    if (l3_nan) begin
      result = tcu_pkg::F32_CANONICAL_NAN;
    end else if (l3_inf) begin
      result = {l3_c_sign, POS_INF[Width-2:0]};
    end else if (mag == '0) begin
      result = '0;
    end else if (res_exp > EXP_MAX) begin
      result = {sign, POS_INF[Width-2:0]};
    end else if (res_exp >= EXP_MIN) begin
      result = {sign, ExpF'(res_exp + EXP_MAX), frac};
    end else if (sub_units == '0) begin
      result = '0;
    end else begin
      result = {sign, {ExpF{1'b0}}, sub_units};
    end
  end

  tcu_pipe_reg #(
    .Width(Width),
    .Depth(Stages - ((3 * Stages) / 4))
  ) u_reg3 (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .en_i   (en_i),
    .valid_i(l2_valid),
    .data_i (result),
    .valid_o(valid_o),
    .data_o (d_o)
  );

endmodule
