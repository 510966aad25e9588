// tcu_fma's three-stage form, which rtl/tcu_fma.sv instantiates for
// Stages < tcu_pkg::FMA_STEPS_FROM (rtl/tcu_fma_steps.sv from there on).
//
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
// Datapath (P = precision = ManBits + 1), one fixed-point window of
// MagW = 2P + 4 bits (52 for FP32, 110 for FP64), bit 0 a sticky bit:
//   stage 1: classify, P x P multiply, align. Unshifted, the product's field
//            is window bits [2P+2:3] and the addend's [2P+2:P+3]. When the
//            addend's exponent exceeds the product's by d >= 1, the product
//            is shifted down by d - 1; otherwise the addend by 1 - d. Bits
//            shifted below bit 1 are ORed into bit 0 (a sticky bit). The
//            product loses bits only for d >= 4, where it is below half the
//            addend, so the result's guard bit stays above bit 0 (for an
//            addend at the smallest exponent, the rounding point is the
//            addend's last place, above it too) and the sticky bit never
//            reaches the rounding;
//   stage 2: add or subtract, absolute value, leading-zero count, the
//            normalisation shift (capped so subnormal results stay on the
//            2^(1-bias) grid);
//   stage 3: shift, round, overflow, specials.
// Registers sit after stage 1 (Stages >= 2), after stage 2 (Stages >= 3) and
// at the output (the rest, at least one for Stages >= 1); registers beyond
// three are at the output, for retiming (tcu_fma chooses tcu_fma_steps
// there).
//
// Simulation speed (the RTL describes the same logic and registers as with
// continuous assignments; synthesis sees no difference):
//   - Every register loads the stages in front of it inside its own
//     always_ff, under its load enable (en_i and its valid input). A
//     register that does not load evaluates nothing, so a cycle-based
//     simulator skips the datapath of an idle or stalled unit.
//   - Each stage is a task without arguments or locals over the module's
//     stage variables (s1_*, c1_*, s2_*, c2_*, s3_*): tasks with arguments or
//     locals get per-instance temporaries in the Verilated code, and with
//     them per-instance code. The data inputs are marked public_flat_rd, so
//     the simulator reads them from the instance instead of substituting the
//     driving expression into the unit's code. Together these let every
//     instance of one parameter set share one copy of the code (hundreds of
//     FMAs run from the instruction cache). en_i is not marked: the units
//     of an engine share one enable, so substituting it keeps the code
//     shared and saves copying it into every FMA at every evaluation.
//   - Every window value of FP32 fits a 64-bit word, and the leading-zero
//     count is a binary search over 64-bit words (no loops).
//
// The leading-zero search and the rounding decision are tcu_pkg's
// (fma_word_lz, fma_round_up, fma_to_inf), shared with tcu_fma_steps.
module tcu_fma_three #(
  parameter tcu_pkg::fp_format_e Format       = tcu_pkg::FP64,
  parameter int unsigned         Stages       = 2,
  parameter bit                  CanonicalNan = 1'b0,
  parameter int unsigned         AuxWidth     = 1,
  localparam int unsigned        Width        = tcu_pkg::fp_width(Format)
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  input  logic                en_i,
  input  logic                valid_i  /* verilator public_flat_rd */,
  input  logic [Width-1:0]    a_i      /* verilator public_flat_rd */,
  input  logic [Width-1:0]    b_i      /* verilator public_flat_rd */,
  input  logic [Width-1:0]    c_i      /* verilator public_flat_rd */,
  input  tcu_pkg::roundmode_e rnd_i    /* verilator public_flat_rd */,
  input  logic [AuxWidth-1:0] aux_i    /* verilator public_flat_rd */,
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
  // exponents reach about 3 * 2^(ExpBits-1), window exponents 0.
  localparam int unsigned ExpW    = ExpBits + 3;
  localparam int unsigned ProdW   = 2 * Prec;
  // The addend stays unshifted, and the product is shifted down, when the
  // addend's exponent is Anchor or more above the product's. 1 is the least
  // for which the window has room for the carry of a sum.
  localparam int unsigned Anchor  = 1;
  // Aligned product, window bits [PAlW-1:0] (bit 0 its sticky bit); aligned
  // addend, window bits [AddW:0] (bit 0 its sticky bit).
  localparam int unsigned PAlW    = ProdW + 3;
  localparam int unsigned AddW    = Anchor + 2 * Prec + 1;
  // Magnitude of the sum (window bits [MagW-1:0]), and the signed sum.
  localparam int unsigned MagW    = Anchor + 2 * Prec + 3;
  localparam int unsigned SumW    = MagW + 1;
  localparam int unsigned ShamtW  = $clog2(AddW + 1);
  // Product shifts: the whole product is below bit 1 from PshMax on.
  localparam int unsigned PshMax  = ProdW + 2;
  localparam int unsigned PshW    = $clog2(PshMax + 1);
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
  // Addend exponent minus product exponent at or above which the window is
  // anchored at the addend.
  localparam logic [ExpW-1:0] ANCHOR_DIFF   = ExpW'(Anchor);
  // ... and at or above which the whole product is shifted below bit 1.
  localparam logic [ExpW-1:0] PSAT_DIFF     = ExpW'(Anchor + PshMax);
  // Exponent difference at or below which the whole addend is shifted out.
  localparam logic [ExpW-1:0] SATURATE_DIFF = ExpW'(-(2 * Prec + 1));
  // Product exponent of a zero product: low enough to anchor at the addend.
  localparam logic [ExpW-1:0] ZERO_PROD_EXP = ExpW'(1 - Anchor);
  // Leading-zero count: the window padded below with ones (so that a zero
  // window counts MagW) to one or two 64-bit words.
  localparam int unsigned LzcPadW = 64 * ((MagW + 64) / 64);

  // The stage variables are combinational temporaries: each is written with
  // blocking assignments by the one block that runs its stage (the always_ff
  // of the register after the stage, or the always_comb for Stages = 0) and
  // read only within that block, after it is written.
  /* verilator lint_off BLKSEQ */

  // ===========================================================================
  // Stage 1: classify, multiply, align (a_i, b_i, c_i -> s1_*)
  // ===========================================================================
  logic               s1_sign_a, s1_sign_b, s1_sign_c;
  logic [ExpBits-1:0] s1_exp_a, s1_exp_b, s1_exp_c;
  logic [ManBits-1:0] s1_man_a, s1_man_b, s1_man_c;
  logic               s1_a_zero, s1_b_zero, s1_a_inf, s1_b_inf, s1_c_inf;
  logic               s1_a_nan, s1_b_nan, s1_c_nan, s1_any_nan, s1_invalid;
  logic [Prec-1:0]    s1_sig_a, s1_sig_b, s1_sig_c;
  logic [ExpW-1:0]    s1_ea, s1_eb, s1_ec, s1_ep, s1_diff;
  logic [ProdW-1:0]   s1_prod;
  logic [PshW-1:0]    s1_pshamt;
  logic [ShamtW-1:0]  s1_shamt;
  logic [ProdW+1:0]   s1_prod_w;
  logic [AddW-1:0]    s1_add_w;
  // Results: the aligned product (window bits [PAlW-1:0]) and addend
  // ([AddW:0]), each with its sticky bit at bit 0.
  logic [PAlW-1:0]    s1_prod_al;
  logic [AddW:0]      s1_add_al;
  logic               s1_eff_sub, s1_sign_p, s1_special;
  logic [ExpW-1:0]    s1_frame_exp;
  logic [Width-1:0]   s1_special_result;

  task automatic stage1();
    {s1_sign_a, s1_exp_a, s1_man_a} = a_i;
    {s1_sign_b, s1_exp_b, s1_man_b} = b_i;
    {s1_sign_c, s1_exp_c, s1_man_c} = c_i;
    s1_a_zero = (s1_exp_a == '0) && (s1_man_a == '0);
    s1_b_zero = (s1_exp_b == '0) && (s1_man_b == '0);
    s1_a_inf  = (&s1_exp_a) && (s1_man_a == '0);
    s1_b_inf  = (&s1_exp_b) && (s1_man_b == '0);
    s1_c_inf  = (&s1_exp_c) && (s1_man_c == '0);
    s1_a_nan  = (&s1_exp_a) && (s1_man_a != '0);
    s1_b_nan  = (&s1_exp_b) && (s1_man_b != '0);
    s1_c_nan  = (&s1_exp_c) && (s1_man_c != '0);

    // Significands with the hidden bit; subnormals sit at exponent 1.
    s1_sig_a = {s1_exp_a != '0, s1_man_a};
    s1_sig_b = {s1_exp_b != '0, s1_man_b};
    s1_sig_c = {s1_exp_c != '0, s1_man_c};
    s1_ea    = (s1_exp_a == '0) ? ExpW'(1) : ExpW'(s1_exp_a);
    s1_eb    = (s1_exp_b == '0) ? ExpW'(1) : ExpW'(s1_exp_b);
    s1_ec    = (s1_exp_c == '0) ? ExpW'(1) : ExpW'(s1_exp_c);

    s1_sign_p  = s1_sign_a ^ s1_sign_b;
    s1_eff_sub = s1_sign_p ^ s1_sign_c;
    s1_prod    = ProdW'(s1_sig_a) * ProdW'(s1_sig_b);

    // Biased product exponent ep: the product is prod * 2^(ep - Bias - 2*ManBits).
    s1_ep   = (s1_a_zero || s1_b_zero) ? ZERO_PROD_EXP : s1_ea + s1_eb - ExpW'(Bias);
    s1_diff = s1_ec - s1_ep;

    // Shifts and the window's exponent: window bit i weighs
    // 2^(i - 3 + frame_exp - Bias - 2*ManBits).
    if ($signed(s1_diff) >= $signed(ANCHOR_DIFF)) begin
      s1_shamt     = '0;
      s1_pshamt    = ($signed(s1_diff) >= $signed(PSAT_DIFF)) ? PshW'(PshMax)
                                                              : PshW'(s1_diff - ANCHOR_DIFF);
      s1_frame_exp = s1_ec - ANCHOR_DIFF;
    end else if ($signed(s1_diff) <= $signed(SATURATE_DIFF)) begin
      s1_shamt     = ShamtW'(AddW);
      s1_pshamt    = '0;
      s1_frame_exp = s1_ep;
    end else begin
      s1_shamt     = ShamtW'(ANCHOR_DIFF - s1_diff);
      s1_pshamt    = '0;
      s1_frame_exp = s1_ep;
    end

    // Each operand shifted down, the bits below window bit 1 ORed into bit 0.
    s1_prod_w  = {s1_prod, 2'b00};
    s1_prod_al = {s1_prod_w >> s1_pshamt, |(s1_prod_w & ~({(ProdW + 2){1'b1}} << s1_pshamt))};
    s1_add_w   = {s1_sig_c, {(AddW - Prec){1'b0}}};
    s1_add_al  = {s1_add_w >> s1_shamt, |(s1_add_w & ~({AddW{1'b1}} << s1_shamt))};

    // Special operands decide the result on their own.
    s1_any_nan = s1_a_nan || s1_b_nan || s1_c_nan;
    s1_invalid = (s1_a_inf && s1_b_zero) || (s1_b_inf && s1_a_zero) ||
                 ((s1_a_inf || s1_b_inf) && s1_c_inf && s1_eff_sub);
    s1_special = s1_any_nan || s1_a_inf || s1_b_inf || s1_c_inf;
    if (s1_any_nan) begin
      if (CanonicalNan)  s1_special_result = CANONICAL_NAN;
      else if (s1_b_nan) s1_special_result = b_i | QUIET_BIT;
      else if (s1_c_nan) s1_special_result = c_i | QUIET_BIT;
      else               s1_special_result = a_i | QUIET_BIT;
    end else if (s1_invalid) begin
      s1_special_result = CanonicalNan ? CANONICAL_NAN : DEFAULT_NAN;
    end else if (s1_a_inf || s1_b_inf) begin
      s1_special_result = {s1_sign_p, INF_MAG};
    end else begin
      s1_special_result = {s1_sign_c, INF_MAG};
    end
  endtask

  // Cut 1 (stage 2's inputs): registers for Stages >= 2, else the block that
  // runs stage 2 copies them from s1_*.
  logic [PAlW-1:0]     c1_prod_al;
  logic [AddW:0]       c1_add_al;
  logic                c1_eff_sub, c1_sign_p, c1_special;
  logic [ExpW-1:0]     c1_frame_exp;
  logic [Width-1:0]    c1_special_result;
  logic [RndW-1:0]     c1_rnd;
  logic [AuxWidth-1:0] c1_aux;

  // ===========================================================================
  // Stage 2: add, absolute value, leading zeros, normalisation shift
  // (c1_* -> s2_*)
  // ===========================================================================
  logic [SumW-1:0]    s2_sum;
  logic [LzcPadW-1:0] s2_padded;
  logic [63:0]        s2_top, s2_word;
  logic [5:0]         s2_word_lz;
  logic [LzcW-1:0]    s2_lz;
  logic [ExpW-1:0]    s2_sub_shamt;
  logic [MagW-1:0]    s2_mag;
  logic [LzcW-1:0]    s2_norm_shamt;
  logic [ExpW-1:0]    s2_exp_pre;
  logic               s2_res_sign;

  task automatic stage2();
    s2_sum = c1_eff_sub ? SumW'(c1_prod_al) - SumW'(c1_add_al)
                        : SumW'(c1_prod_al) + SumW'(c1_add_al);
    s2_mag = s2_sum[SumW-1] ? MagW'(-s2_sum) : s2_sum[MagW-1:0];
    // An exact zero: x + (-x) is +0 (-0 when rounding down); zeros of one
    // sign keep it. Otherwise the sign of the larger magnitude.
    s2_res_sign = (s2_mag == '0) ? (c1_eff_sub ? (c1_rnd == tcu_pkg::RDN) : c1_sign_p)
                                 : (c1_sign_p ^ s2_sum[SumW-1]);

    // Leading zeros of the window (MagW when zero): the 64-bit word with the
    // leading one, its leading zeros (tcu_pkg::fma_word_lz).
    s2_padded  = {s2_mag, {(LzcPadW - MagW){1'b1}}};
    s2_top     = 64'(s2_padded >> (LzcPadW - 64));
    s2_word    = (s2_top != '0) ? s2_top : 64'(s2_padded);
    s2_word_lz = tcu_pkg::fma_word_lz(s2_word);
    s2_lz = ((s2_top != '0) ? '0 : LzcW'(LzcPadW - 64)) + LzcW'(s2_word_lz);

    // Normal result: shift the leading one to the top, exponent
    // Anchor + 1 + frame_exp - lz. When that would be below 1, shift only as
    // far as the 2^(1-Bias) grid allows (sub_shamt >= 1: frame_exp >= 1 - Anchor).
    s2_sub_shamt  = ANCHOR_DIFF + c1_frame_exp;
    s2_norm_shamt = ($signed(ExpW'(s2_lz)) <= $signed(s2_sub_shamt)) ? s2_lz
                                                                      : LzcW'(s2_sub_shamt);
    s2_exp_pre    = ANCHOR_DIFF + ExpW'(1) + c1_frame_exp - ExpW'(s2_norm_shamt);
  endtask

  // Cut 2 (stage 3's inputs): registers for Stages >= 3, else the block that
  // runs stage 3 copies them.
  logic [MagW-1:0]     c2_mag;
  logic [LzcW-1:0]     c2_shamt;
  logic [ExpW-1:0]     c2_exp_pre;
  logic                c2_sign, c2_special;
  logic [Width-1:0]    c2_special_result;
  logic [RndW-1:0]     c2_rnd;
  logic [AuxWidth-1:0] c2_aux;

  // ===========================================================================
  // Stage 3: normalise, round, pack (c2_* -> s3_result)
  // ===========================================================================
  logic [MagW-1:0]         s3_norm;
  logic                    s3_hidden, s3_guard, s3_sticky, s3_round_up, s3_to_inf, s3_overflow;
  logic [ManBits-1:0]      s3_frac;
  logic [ExpW-1:0]         s3_exp_field;
  logic [ExpW+ManBits-1:0] s3_rounded;
  logic [Width-1:0]        s3_result;

  task automatic stage3();
    s3_norm   = c2_mag << c2_shamt;
    s3_hidden = s3_norm[MagW-1];
    s3_frac   = s3_norm[MagW-2 -: ManBits];
    s3_guard  = s3_norm[MagW-1-Prec];
    s3_sticky = |s3_norm[MagW-2-Prec:0];
    s3_round_up = tcu_pkg::fma_round_up(c2_rnd, c2_sign, s3_frac[0], s3_guard, s3_sticky);
    s3_to_inf   = tcu_pkg::fma_to_inf(c2_rnd, c2_sign);
    // Rounding adds one at the last fraction bit; a carry renormalises into
    // the exponent (subnormal to the smallest normal included).
    s3_exp_field = s3_hidden ? c2_exp_pre : '0;
    s3_rounded   = {s3_exp_field, s3_frac} + (ExpW + ManBits)'(s3_round_up);
    s3_overflow  = s3_rounded[ExpW+ManBits-1:ManBits] >= EXP_ALL_ONES;
    if (c2_special) begin
      s3_result = c2_special_result;
    end else if (s3_overflow) begin
      s3_result = {c2_sign, s3_to_inf ? INF_MAG : MAX_MAG};
    end else begin
      s3_result = {c2_sign, s3_rounded[ExpBits+ManBits-1:0]};
    end
  endtask

  // ===========================================================================
  // Registers, and the blocks that run the stages
  // ===========================================================================
  if (Stages == 0) begin : g_comb
    always_comb begin
      stage1();
      {c1_prod_al, c1_add_al, c1_eff_sub, c1_sign_p, c1_frame_exp, c1_special,
       c1_special_result, c1_rnd, c1_aux} = {s1_prod_al, s1_add_al, s1_eff_sub, s1_sign_p,
                                             s1_frame_exp, s1_special, s1_special_result,
                                             rnd_i, aux_i};
      stage2();
      {c2_mag, c2_shamt, c2_exp_pre, c2_sign, c2_special, c2_special_result, c2_rnd,
       c2_aux} = {s2_mag, s2_norm_shamt, s2_exp_pre, s2_res_sign, c1_special,
                  c1_special_result, c1_rnd, c1_aux};
      stage3();
    end
    assign valid_o  = valid_i;
    assign result_o = s3_result;
    assign aux_o    = c2_aux;

    // No registers: the clock, reset and enable go unused.
    logic unused_clk;
    assign unused_clk = ^{clk_i, rst_ni, en_i};
  end else begin : g_pipe
    // valid_q[k]: the valid bit of register k (0 the first after the input);
    // register k loads when en_i and its input's valid bit are high.
    logic [Stages-1:0] valid_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        valid_q <= '0;
      end else if (en_i) begin
        valid_q[0] <= valid_i;
        for (int i = 1; i < Stages; i++) begin
          valid_q[i] <= valid_q[i-1];
        end
      end
    end

    // The first output register, with aux.
    localparam int unsigned OutFirst = Cut1Regs + Cut2Regs;
    logic [Width-1:0]    res_q;
    logic [AuxWidth-1:0] res_aux_q;

    if (Stages == 1) begin : g_s1
      always_ff @(posedge clk_i) begin
        if (en_i && valid_i) begin
          stage1();
          {c1_prod_al, c1_add_al, c1_eff_sub, c1_sign_p, c1_frame_exp, c1_special,
           c1_special_result, c1_rnd, c1_aux} = {s1_prod_al, s1_add_al, s1_eff_sub, s1_sign_p,
                                                 s1_frame_exp, s1_special, s1_special_result,
                                                 rnd_i, aux_i};
          stage2();
          {c2_mag, c2_shamt, c2_exp_pre, c2_sign, c2_special, c2_special_result, c2_rnd,
           c2_aux} = {s2_mag, s2_norm_shamt, s2_exp_pre, s2_res_sign, c1_special,
                      c1_special_result, c1_rnd, c1_aux};
          stage3();
          res_q     <= s3_result;
          res_aux_q <= c2_aux;
        end
      end
    end else begin : g_cut1
      // ---- register cut 1 ---------------------------------------------------
      always_ff @(posedge clk_i) begin
        if (en_i && valid_i) begin
          stage1();
          c1_prod_al        <= s1_prod_al;
          c1_add_al         <= s1_add_al;
          c1_eff_sub        <= s1_eff_sub;
          c1_sign_p         <= s1_sign_p;
          c1_frame_exp      <= s1_frame_exp;
          c1_special        <= s1_special;
          c1_special_result <= s1_special_result;
          c1_rnd            <= rnd_i;
          c1_aux            <= aux_i;
        end
      end

      if (Stages == 2) begin : g_s2
        always_ff @(posedge clk_i) begin
          if (en_i && valid_q[0]) begin
            stage2();
            {c2_mag, c2_shamt, c2_exp_pre, c2_sign, c2_special, c2_special_result, c2_rnd,
             c2_aux} = {s2_mag, s2_norm_shamt, s2_exp_pre, s2_res_sign, c1_special,
                        c1_special_result, c1_rnd, c1_aux};
            stage3();
            res_q     <= s3_result;
            res_aux_q <= c2_aux;
          end
        end
      end else begin : g_cut2
        // ---- register cut 2 -------------------------------------------------
        always_ff @(posedge clk_i) begin
          if (en_i && valid_q[0]) begin
            stage2();
            c2_mag            <= s2_mag;
            c2_shamt          <= s2_norm_shamt;
            c2_exp_pre        <= s2_exp_pre;
            c2_sign           <= s2_res_sign;
            c2_special        <= c1_special;
            c2_special_result <= c1_special_result;
            c2_rnd            <= c1_rnd;
            c2_aux            <= c1_aux;
          end
        end
        always_ff @(posedge clk_i) begin
          if (en_i && valid_q[1]) begin
            stage3();
            res_q     <= s3_result;
            res_aux_q <= c2_aux;
          end
        end
      end
    end

    // ---- further output registers (retiming) --------------------------------
    if (OutRegs == 1) begin : g_out1
      assign result_o = res_q;
      assign aux_o    = res_aux_q;
    end else begin : g_out
      localparam int unsigned OutW = Width + AuxWidth;
      logic [(OutRegs-1)*OutW-1:0] data_q;
      always_ff @(posedge clk_i) begin
        if (en_i) begin
          if (valid_q[OutFirst]) begin
            data_q[0 +: OutW] <= {res_q, res_aux_q};
          end
          for (int i = 1; i < OutRegs - 1; i++) begin
            if (valid_q[OutFirst+i]) begin
              data_q[i*OutW +: OutW] <= data_q[(i-1)*OutW +: OutW];
            end
          end
        end
      end
      assign {result_o, aux_o} = data_q[(OutRegs-2)*OutW +: OutW];
    end
    assign valid_o = valid_q[Stages-1];
  end
  /* verilator lint_on BLKSEQ */

endmodule
