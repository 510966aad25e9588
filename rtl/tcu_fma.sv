// IEEE 754 fused multiply-add: result_o = round(a_i * b_i + c_i), one
// rounding, in the rounding mode rnd_i (RNE, RTZ, RDN, RUP). Subnormal inputs
// and outputs are handled in full; overflow gives Inf or the largest finite
// value as the mode says; an exact zero result is +0, or -0 in RDN, except
// that a sum of two zeros of the same sign keeps that sign.
//
// NaN results (CanonicalNan):
//   1: every NaN result is the canonical pattern {0, all ones} (0x7fffffff
//      for FP32, tcu_pkg::F32_CANONICAL_NAN), as the f16 path needs.
//   0: the DMMA rules of the f64 path: a NaN operand comes out quieted with
//      its sign and payload, B's NaN first, then C's, then A's; an invalid
//      operation without a NaN operand (Inf * 0, Inf - Inf) gives the default
//      NaN (tcu_pkg::F64_DEFAULT_NAN for FP64).
//
// Timing: valid_o and result_o appear exactly Stages cycles after valid_i
// (combinational for Stages = 0), counting only cycles with en_i high; with
// en_i low every register holds. aux_i travels alongside, unchanged.
//
// Datapath (P = precision = ManBits + 1), one fixed-point window:
//   stage 1: classify, P x P multiply, align the addend against the product
//            (product at bits [2P+2:3]; the addend anywhere from just above
//            the product to below it, bits shifted out kept as a sticky bit
//            at bit 0);
//   stage 2: add or subtract, absolute value, leading-zero count, the
//            normalisation shift (capped so subnormal results stay on the
//            2^(1-bias) grid);
//   stage 3: shift, round, overflow, specials.
// Registers sit after stage 1 (Stages >= 2), after stage 2 (Stages >= 3) and
// at the output (the rest, at least one for Stages >= 1); registers beyond
// three are at the output, for retiming.
module tcu_fma #(
  parameter tcu_pkg::fp_format_e Format       = tcu_pkg::FP64,
  parameter int unsigned         Stages       = 2,
  parameter bit                  CanonicalNan = 1'b0,
  parameter int unsigned         AuxWidth     = 1,
  localparam int unsigned        Width        = tcu_pkg::fp_width(Format)
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  input  logic                en_i,
  input  logic                valid_i,
  input  logic [Width-1:0]    a_i,
  input  logic [Width-1:0]    b_i,
  input  logic [Width-1:0]    c_i,
  input  tcu_pkg::roundmode_e rnd_i,
  input  logic [AuxWidth-1:0] aux_i,
  output logic                valid_o,
  output logic [Width-1:0]    result_o,
  output logic [AuxWidth-1:0] aux_o
);

  // ---------------------------------------------------------------------------
  // Widths, from the format table
  // ---------------------------------------------------------------------------
  localparam int unsigned ExpBits = tcu_pkg::exp_bits(Format);
  localparam int unsigned ManBits = tcu_pkg::man_bits(Format);
  localparam int unsigned Bias    = tcu_pkg::bias(Format);
  localparam int unsigned Prec    = ManBits + 1;
  // Internal exponents, two's complement (compared with $signed): product
  // exponents reach about 3 * 2^(ExpBits-1), window exponents -(Prec+2).
  localparam int unsigned ExpW    = ExpBits + 3;
  localparam int unsigned ProdW   = 2 * Prec;
  // Aligned addend, window bits [AddW:1]; window bit 0 is its sticky bit.
  localparam int unsigned AddW    = 3 * Prec + 4;
  // Magnitude of the sum (window bits [MagW-1:0]), and the signed sum.
  localparam int unsigned MagW    = 3 * Prec + 6;
  localparam int unsigned SumW    = MagW + 1;
  localparam int unsigned ShamtW  = $clog2(AddW + 1);
  localparam int unsigned StickyW = $clog2(Prec + 1);
  localparam int unsigned LzcW    = $clog2(MagW + 1);
  localparam int unsigned RndW    = 2;

  localparam int unsigned Cut1Regs = (Stages >= 2) ? 1 : 0;
  localparam int unsigned Cut2Regs = (Stages >= 3) ? 1 : 0;
  localparam int unsigned OutRegs  = Stages - Cut1Regs - Cut2Regs;

  // ---------------------------------------------------------------------------
  // Constants
  // ---------------------------------------------------------------------------
  localparam logic [Width-1:0] CANONICAL_NAN =
      (Format == tcu_pkg::FP32) ? Width'(tcu_pkg::F32_CANONICAL_NAN)
                                : {1'b0, {(Width - 1){1'b1}}};
  localparam logic [Width-1:0] DEFAULT_NAN =
      (Format == tcu_pkg::FP64) ? Width'(tcu_pkg::F64_DEFAULT_NAN)
                                : {1'b1, {ExpBits{1'b1}}, 1'b1, {(ManBits - 1){1'b0}}};
  localparam logic [Width-1:0] QUIET_BIT = {{(ExpBits + 1){1'b0}}, 1'b1, {(ManBits - 1){1'b0}}};
  localparam logic [Width-2:0] INF_MAG = {{ExpBits{1'b1}}, {ManBits{1'b0}}};
  localparam logic [Width-2:0] MAX_MAG = {{(ExpBits - 1){1'b1}}, 1'b0, {ManBits{1'b1}}};
  localparam logic [ExpW-1:0] EXP_ALL_ONES = ExpW'((1 << ExpBits) - 1);
  // Product and addend exponents differ by ANCHOR_DIFF or more: the addend's
  // LSB is above the window's product field and the product only counts as
  // sticky, so the window is anchored at the addend instead.
  localparam logic [ExpW-1:0] ANCHOR_DIFF   = ExpW'(Prec + 3);
  // Exponent difference at or below which the whole addend is shifted out.
  localparam logic [ExpW-1:0] SATURATE_DIFF = ExpW'(-(2 * Prec + 1));
  // Product exponent of a zero product: low enough to anchor at the addend.
  localparam logic [ExpW-1:0] ZERO_PROD_EXP = ExpW'(-(Prec + 2));
  localparam logic [ShamtW-1:0] STICKY_SHAMT = ShamtW'(2 * Prec + 4);

  // ===========================================================================
  // Stage 1: classify, multiply, align
  // ===========================================================================
  logic               sign_a, sign_b, sign_c;
  logic [ExpBits-1:0] exp_a, exp_b, exp_c;
  logic [ManBits-1:0] man_a, man_b, man_c;
  assign {sign_a, exp_a, man_a} = a_i;
  assign {sign_b, exp_b, man_b} = b_i;
  assign {sign_c, exp_c, man_c} = c_i;

  logic a_zero, b_zero;
  logic a_inf, b_inf, c_inf;
  logic a_nan, b_nan, c_nan;
  assign a_zero = (exp_a == '0) && (man_a == '0);
  assign b_zero = (exp_b == '0) && (man_b == '0);
  assign a_inf  = (&exp_a) && (man_a == '0);
  assign b_inf  = (&exp_b) && (man_b == '0);
  assign c_inf  = (&exp_c) && (man_c == '0);
  assign a_nan  = (&exp_a) && (man_a != '0);
  assign b_nan  = (&exp_b) && (man_b != '0);
  assign c_nan  = (&exp_c) && (man_c != '0);

  // Significands with the hidden bit; subnormals sit at exponent 1.
  logic [Prec-1:0] sig_a, sig_b, sig_c;
  assign sig_a = {exp_a != '0, man_a};
  assign sig_b = {exp_b != '0, man_b};
  assign sig_c = {exp_c != '0, man_c};

  logic [ExpW-1:0] ea, eb, ec;
  assign ea = (exp_a == '0) ? ExpW'(1) : ExpW'(exp_a);
  assign eb = (exp_b == '0) ? ExpW'(1) : ExpW'(exp_b);
  assign ec = (exp_c == '0) ? ExpW'(1) : ExpW'(exp_c);

  logic             sign_p, eff_sub;
  logic [ProdW-1:0] prod;
  assign sign_p  = sign_a ^ sign_b;
  assign eff_sub = sign_p ^ sign_c;
  assign prod    = ProdW'(sig_a) * ProdW'(sig_b);

  // Biased product exponent ep: the product is prod * 2^(ep - Bias - 2*ManBits).
  logic [ExpW-1:0] ep, diff;
  assign ep   = (a_zero || b_zero) ? ZERO_PROD_EXP : ea + eb - ExpW'(Bias);
  assign diff = ec - ep;

  // Addend shift and the window's exponent: window bit i weighs
  // 2^(i - 3 + frame_exp - Bias - 2*ManBits).
  logic [ShamtW-1:0] shamt;
  logic [ExpW-1:0]   frame_exp;
  always_comb begin
    if ($signed(diff) >= $signed(ANCHOR_DIFF)) begin
      shamt     = '0;
      frame_exp = ec - ANCHOR_DIFF;
    end else if ($signed(diff) <= $signed(SATURATE_DIFF)) begin
      shamt     = ShamtW'(AddW);
      frame_exp = ep;
    end else begin
      shamt     = ShamtW'(ANCHOR_DIFF - diff);
      frame_exp = ep;
    end
  end

  logic [AddW-1:0]    add_hi;
  logic [StickyW-1:0] sticky_bits;
  logic               add_sticky;
  assign add_hi      = {sig_c, {(AddW - Prec){1'b0}}} >> shamt;
  // The addend bits shifted below window bit 1: its lowest shamt - (2P+4).
  assign sticky_bits = (shamt > STICKY_SHAMT) ? StickyW'(shamt - STICKY_SHAMT) : '0;
  assign add_sticky  = |(sig_c & ~({Prec{1'b1}} << sticky_bits));

  // Special operands decide the result on their own.
  logic             any_nan, invalid, special;
  logic [Width-1:0] special_result;
  assign any_nan = a_nan || b_nan || c_nan;
  assign invalid = (a_inf && b_zero) || (b_inf && a_zero) ||
                   ((a_inf || b_inf) && c_inf && eff_sub);
  assign special = any_nan || a_inf || b_inf || c_inf;
  always_comb begin
    if (any_nan) begin
      if (CanonicalNan) special_result = CANONICAL_NAN;
      else if (b_nan)   special_result = b_i | QUIET_BIT;
      else if (c_nan)   special_result = c_i | QUIET_BIT;
      else              special_result = a_i | QUIET_BIT;
    end else if (invalid) begin
      special_result = CanonicalNan ? CANONICAL_NAN : DEFAULT_NAN;
    end else if (a_inf || b_inf) begin
      special_result = {sign_p, INF_MAG};
    end else begin
      special_result = {sign_c, INF_MAG};
    end
  end

  // ---- register cut 1 -------------------------------------------------------
  localparam int unsigned Cut1W = ProdW + AddW + 1 + 1 + 1 + ExpW + 1 + Width + RndW + AuxWidth;
  logic [Cut1W-1:0] cut1_d, cut1_q;
  logic             cut1_valid_q;
  assign cut1_d = {prod, add_hi, add_sticky, eff_sub, sign_p, frame_exp, special,
                   special_result, rnd_i, aux_i};

  if (Cut1Regs != 0) begin : g_cut1
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        cut1_valid_q <= 1'b0;
      end else if (en_i) begin
        cut1_valid_q <= valid_i;
      end
    end
    always_ff @(posedge clk_i) begin
      if (en_i && valid_i) begin
        cut1_q <= cut1_d;
      end
    end
  end else begin : g_no_cut1
    assign cut1_valid_q = valid_i;
    assign cut1_q       = cut1_d;
  end

  // ===========================================================================
  // Stage 2: add, absolute value, leading zeros, normalisation shift
  // ===========================================================================
  logic [ProdW-1:0]    s2_prod;
  logic [AddW-1:0]     s2_add_hi;
  logic                s2_add_sticky, s2_eff_sub, s2_sign_p, s2_special;
  logic [ExpW-1:0]     s2_frame_exp;
  logic [Width-1:0]    s2_special_result;
  logic [RndW-1:0]     s2_rnd;
  logic [AuxWidth-1:0] s2_aux;
  assign {s2_prod, s2_add_hi, s2_add_sticky, s2_eff_sub, s2_sign_p, s2_frame_exp, s2_special,
          s2_special_result, s2_rnd, s2_aux} = cut1_q;

  logic [SumW-1:0] prod_v, add_v, sum;
  logic            sum_neg, mag_zero, res_sign;
  logic [MagW-1:0] mag;
  assign prod_v   = SumW'({s2_prod, 3'b000});
  assign add_v    = SumW'({s2_add_hi, s2_add_sticky});
  assign sum      = s2_eff_sub ? prod_v - add_v : prod_v + add_v;
  assign sum_neg  = sum[SumW-1];
  assign mag      = sum_neg ? MagW'(-sum) : sum[MagW-1:0];
  assign mag_zero = (mag == '0);
  // An exact zero: x + (-x) is +0 (-0 when rounding down); zeros of one
  // sign keep it. Otherwise the sign of the larger magnitude.
  assign res_sign = mag_zero ? (s2_eff_sub ? (s2_rnd == tcu_pkg::RDN) : s2_sign_p)
                             : (s2_sign_p ^ sum_neg);

  // Leading-zero count of mag (MagW when zero).
  logic [LzcW-1:0] lz;
  tcu_lzc #(
    .Width(MagW)
  ) u_lzc (
    .data_i (mag),
    .count_o(lz)
  );

  // Normal result: shift the leading one to the top, exponent
  // P + 4 + frame_exp - lz. When that would be below 1, shift only as far as
  // the 2^(1-Bias) grid allows (sub_shamt >= 1, since frame_exp >= -(P+2)).
  logic [ExpW-1:0] sub_shamt, exp_pre;
  logic [LzcW-1:0] norm_shamt;
  assign sub_shamt  = ExpW'(Prec + 3) + s2_frame_exp;
  assign norm_shamt = ($signed(ExpW'(lz)) <= $signed(sub_shamt)) ? lz : LzcW'(sub_shamt);
  assign exp_pre    = ExpW'(Prec + 4) + s2_frame_exp - ExpW'(norm_shamt);

  // ---- register cut 2 -------------------------------------------------------
  localparam int unsigned Cut2W = MagW + LzcW + ExpW + 1 + 1 + Width + RndW + AuxWidth;
  logic [Cut2W-1:0] cut2_d, cut2_q;
  logic             cut2_valid_q;
  assign cut2_d = {mag, norm_shamt, exp_pre, res_sign, s2_special, s2_special_result, s2_rnd,
                   s2_aux};

  if (Cut2Regs != 0) begin : g_cut2
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        cut2_valid_q <= 1'b0;
      end else if (en_i) begin
        cut2_valid_q <= cut1_valid_q;
      end
    end
    always_ff @(posedge clk_i) begin
      if (en_i && cut1_valid_q) begin
        cut2_q <= cut2_d;
      end
    end
  end else begin : g_no_cut2
    assign cut2_valid_q = cut1_valid_q;
    assign cut2_q       = cut2_d;
  end

  // ===========================================================================
  // Stage 3: normalise, round, pack
  // ===========================================================================
  logic [MagW-1:0]     s3_mag;
  logic [LzcW-1:0]     s3_shamt;
  logic [ExpW-1:0]     s3_exp_pre;
  logic                s3_sign, s3_special;
  logic [Width-1:0]    s3_special_result;
  logic [RndW-1:0]     s3_rnd;
  logic [AuxWidth-1:0] s3_aux;
  assign {s3_mag, s3_shamt, s3_exp_pre, s3_sign, s3_special, s3_special_result, s3_rnd,
          s3_aux} = cut2_q;

  logic [MagW-1:0]    norm;
  logic               hidden, guard, sticky, round_up, to_inf;
  logic [ManBits-1:0] frac;
  assign norm   = s3_mag << s3_shamt;
  assign hidden = norm[MagW-1];
  assign frac   = norm[MagW-2 -: ManBits];
  assign guard  = norm[MagW-1-Prec];
  assign sticky = |norm[MagW-2-Prec:0];

  always_comb begin
    unique case (s3_rnd)
      tcu_pkg::RNE: begin
        round_up = guard && (sticky || frac[0]);
        to_inf   = 1'b1;
      end
      tcu_pkg::RTZ: begin
        round_up = 1'b0;
        to_inf   = 1'b0;
      end
      tcu_pkg::RDN: begin
        round_up = s3_sign && (guard || sticky);
        to_inf   = s3_sign;
      end
      tcu_pkg::RUP: begin
        round_up = !s3_sign && (guard || sticky);
        to_inf   = !s3_sign;
      end
      default: begin
        round_up = 1'b0;
        to_inf   = 1'b0;
      end
    endcase
  end

  // Rounding adds one at the last fraction bit; a carry renormalises into the
  // exponent (subnormal to the smallest normal included).
  logic [ExpW-1:0]         exp_field;
  logic [ExpW+ManBits-1:0] rounded;
  logic                    overflow;
  logic [Width-1:0]        result;
  assign exp_field = hidden ? s3_exp_pre : '0;
  assign rounded   = {exp_field, frac} + (ExpW + ManBits)'(round_up);
  assign overflow  = rounded[ExpW+ManBits-1:ManBits] >= EXP_ALL_ONES;

  always_comb begin
    if (s3_special) begin
      result = s3_special_result;
    end else if (overflow) begin
      result = {s3_sign, to_inf ? INF_MAG : MAX_MAG};
    end else begin
      result = {s3_sign, rounded[ExpBits+ManBits-1:0]};
    end
  end

  // ---- output registers -----------------------------------------------------
  localparam int unsigned OutW = Width + AuxWidth;

  if (OutRegs != 0) begin : g_out
    logic [OutRegs-1:0]      valid_q;
    logic [OutRegs*OutW-1:0] data_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        valid_q <= '0;
      end else if (en_i) begin
        valid_q[0] <= cut2_valid_q;
        for (int i = 1; i < OutRegs; i++) begin
          valid_q[i] <= valid_q[i-1];
        end
      end
    end
    always_ff @(posedge clk_i) begin
      if (en_i) begin
        if (cut2_valid_q) begin
          data_q[0 +: OutW] <= {result, s3_aux};
        end
        for (int i = 1; i < OutRegs; i++) begin
          if (valid_q[i-1]) begin
            data_q[i*OutW +: OutW] <= data_q[(i-1)*OutW +: OutW];
          end
        end
      end
    end
    assign valid_o             = valid_q[OutRegs-1];
    assign {result_o, aux_o} = data_q[(OutRegs-1)*OutW +: OutW];
  end else begin : g_no_out
    assign valid_o             = cut2_valid_q;
    assign {result_o, aux_o} = {result, s3_aux};
  end

  if (Stages == 0) begin : g_comb
    // No registers: the clock, reset and enable go unused.
    logic unused_clk;
    assign unused_clk = ^{clk_i, rst_ni, en_i};
  end

endmodule
