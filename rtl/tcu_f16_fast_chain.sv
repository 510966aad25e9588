// tcu_f16_dot_fast's dot from operands classified beforehand
// (tcu_f16_fast_operands's records: A's row and B's column, four each, and
// C widened to f32: a_op_i, b_op_i, c_op_i): tcu_f16_dot_synth's chain (the
// six FP32 FMAs, an f16 D narrowed) computed at once (FmaStages = 0: the
// output), written in the cycle that takes the input into a ring of
// 5 * FmaStages slots that delivers it as many enabled cycles later, so
// valid_o and d_o keep tcu_f16_dot's timing. It depends on tcu_fma's latency
// alone (FmaStages), not on where tcu_fma places its registers.
//
// Each FMA is tcu_fma's arithmetic (stage 1: classify, multiply, align;
// stage 2: add, leading zeros; stage 3: normalise, round, pack) at FP32,
// round to nearest even and canonical NaNs, in the same expressions (the
// alignment's case and the product's exponent selected by masks, so that
// the simulator's code takes no branch there: on random operands a branch
// on the alignment's case went the unpredicted way in three levels of ten),
// but for the first level's (and X1's), whose addend is a zero: there the
// product of two f16 elements is exact in f32, and the level is that
// product. An operand that is an input arrives classified (the f16 engine
// classifies each A row and B column once an instruction, not once per
// dot); one that is a level's result (the addend, and the multiplicand of
// an f16 D's last level) is classified here. The levels are one loop
// (operands chosen per level), once per D type (d_f16_i), so that the
// simulator's code of each has its level table constant; the variables
// are local to the block: the Verilated code is one function with C++
// locals, whose work is skipped in a cycle with valid_i low (d_dot is then
// 0). The data inputs are public_flat_rd, so all instances share one copy
// of the Verilated code.
//
// tcu_f16_dot_fast is this module behind tcu_f16_fast_operands, with
// tcu_f16_dot's ports; what tcu-formal proves of that pair (formal/checks.toml:
// f16_dot, f16_dot_fast_pipe) covers this module's chain and registers. The
// f16 engine's fast form instantiates it behind tcu_f16_fast_unit.
// Simulation flow only: scripts/synth.sh and tcu_tools.phys do not read this file.
module tcu_f16_fast_chain #(
  parameter int unsigned  FmaStages = tcu_pkg::FmaStages,
  localparam int unsigned DotK      = 4,  // k of m8n8k4
  localparam int unsigned OpW       = 64,  // tcu_f16_fast_operands's record
  localparam int unsigned HalfWidth = tcu_pkg::fp_width(tcu_pkg::FP16),
  localparam int unsigned Width     = tcu_pkg::fp_width(tcu_pkg::FP32)
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  input  logic                en_i,
  input  logic                      valid_i /* verilator public_flat_rd */,
  input  logic                      d_f16_i /* verilator public_flat_rd */,
  input  logic [DotK*OpW-1:0]       a_op_i /* verilator public_flat_rd */,
  input  logic [DotK*OpW-1:0]       b_op_i /* verilator public_flat_rd */,
  input  logic [OpW-1:0]            c_op_i /* verilator public_flat_rd */,
  output logic                      valid_o,
  output logic [Width-1:0]          d_o
);

  /* verilator tracing_off */

  // ---- f16 and f32 fields ---------------------------------------------------
  localparam int unsigned HExp  = tcu_pkg::exp_bits(tcu_pkg::FP16);
  localparam int unsigned HMan  = tcu_pkg::man_bits(tcu_pkg::FP16);
  localparam int unsigned HBias = tcu_pkg::bias(tcu_pkg::FP16);
  localparam int unsigned SExp  = tcu_pkg::exp_bits(tcu_pkg::FP32);
  localparam int unsigned SMan  = tcu_pkg::man_bits(tcu_pkg::FP32);
  localparam int unsigned SBias = tcu_pkg::bias(tcu_pkg::FP32);
  // f32 -> f16 (as tcu_f16_dot_synth).
  localparam int unsigned DropNorm   = SMan - HMan;
  localparam int unsigned DropMax    = SMan + 3;
  localparam int unsigned DropW      = $clog2(DropMax + 1);
  localparam int unsigned MinNormExp = SBias - HBias + 1;
  localparam int unsigned ExtW       = 2 * SMan + 4 - DropNorm;
  localparam int unsigned CodeW      = SExp + HMan + 1;

  // ---- tcu_fma's widths and constants at FP32 (canonical NaNs) -------------
  // (rtl/tcu_fma_arith.svh; the chain writes its steps out itself, below)
  localparam tcu_pkg::fp_format_e Format       = tcu_pkg::FP32;
  localparam bit                  CanonicalNan = 1'b1;
  `include "tcu_fma_arith.svh"

  localparam logic [Width-1:0] POS_ZERO = '0;
  localparam logic [Width-1:0] NEG_ZERO = {1'b1, {(Width - 1){1'b0}}};
  localparam logic [CodeW-1:0] HALF_INF_CODE = CodeW'({{HExp{1'b1}}, {HMan{1'b0}}});

  // An operand record's fields (tcu_f16_fast_operands).
  localparam int unsigned R_SIG = 0, R_EA = 24, R_SIGN = 32, R_ZERO = 33, R_INF = 34, R_NAN = 35;
  localparam int unsigned RecW = 36;  // the fields; the rest of OpW is zero
  // The constant one's record (f32 1.0).
  localparam logic [RecW-1:0] ONE_OP = RecW'({4'b0000, SExp'(SBias), 1'b1, {SMan{1'b0}}});

  // The levels (tcu_f16_dot_synth's FMAs, in the order they are computed).
  localparam int unsigned L_U1 = 0, L_X1 = 1, L_U2 = 2, L_U3 = 3, L_U4 = 4, L_U5 = 5;
  localparam int unsigned Levels = 6;

  // The dot, from the inputs, in a cycle with valid_i high (else 0).
  logic [Width-1:0] d_dot;

  // Blocking assignments to the block's variables, each written before it
  // is read.
  always_comb begin : p_dot
    logic                 d16;
    logic [RecW-1:0]      ra, rb;
    logic [Width-1:0]     fc;
    logic [Levels*Width-1:0] res;
    logic                 p_top;
    logic                 r_sign;
    logic [SExp-1:0]      r_exp;
    logic [SMan-1:0]      r_man;
    logic               s1_sign_a, s1_sign_b, s1_sign_c;
    logic [ExpBits-1:0] s1_exp_c;
    logic [ManBits-1:0] s1_man_c;
    logic               s1_a_zero, s1_b_zero, s1_a_inf, s1_b_inf, s1_c_inf;
    logic               s1_a_nan, s1_b_nan, s1_c_nan, s1_any_nan, s1_invalid;
    logic [Prec-1:0]    s1_sig_a, s1_sig_b, s1_sig_c;
    logic [ExpW-1:0]    s1_ea, s1_eb, s1_ec, s1_ep, s1_diff;
    logic [ProdW-1:0]   s1_prod;
    logic [PshW-1:0]    s1_pshamt;
    logic [ShamtW-1:0]  s1_shamt;
    logic [ProdW+1:0]   s1_prod_w;
    logic [AddW-1:0]    s1_add_w;
    logic [PAlW-1:0]    s1_prod_al;
    logic [AddW:0]      s1_add_al;
    logic               s1_eff_sub, s1_sign_p, s1_special, s1_anchor;
    logic [ExpW-1:0]    s1_frame_exp;
    logic [Width-1:0]   s1_special_result;
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
    logic [MagW-1:0]    s3_norm;
    logic               s3_hidden, s3_guard, s3_sticky, s3_round_up, s3_overflow;
    logic [ManBits-1:0] s3_frac;
    logic [ExpW-1:0]    s3_exp_field;
    logic [ExpW+ManBits-1:0] s3_rounded;
    logic               n_sign, n_is_norm, n_guard, n_sticky;
    logic [SExp-1:0]    n_exp, n_exp1;
    logic [SMan-1:0]    n_man;
    logic [DropW-1:0]   n_drop;
    logic [ExtW-1:0]    n_ext;
    logic [HMan:0]      n_kept;
    logic [CodeW-1:0]   n_code;
    logic [HalfWidth-1:0] d_half;
    // Every variable written first, outside any condition: the simulator then
    // keeps them all in locals of one function.
    {d16, d_dot, ra, rb, fc, res, p_top, r_sign, r_exp, r_man, s1_sign_a, s1_sign_b, s1_sign_c,
     s1_exp_c, s1_man_c, s1_a_zero, s1_b_zero, s1_a_inf, s1_b_inf, s1_c_inf, s1_a_nan,
     s1_b_nan, s1_c_nan, s1_any_nan, s1_invalid, s1_sig_a, s1_sig_b, s1_sig_c,
     s1_ea, s1_eb, s1_ec, s1_ep, s1_diff, s1_prod, s1_pshamt, s1_shamt, s1_prod_w,
     s1_add_w, s1_prod_al, s1_add_al, s1_eff_sub, s1_sign_p, s1_special, s1_anchor,
     s1_frame_exp, s1_special_result, s2_sum, s2_padded, s2_top, s2_word,
     s2_word_lz, s2_lz, s2_sub_shamt, s2_mag, s2_norm_shamt, s2_exp_pre,
     s2_res_sign, s3_norm, s3_hidden, s3_guard, s3_sticky, s3_round_up,
     s3_overflow, s3_frac, s3_exp_field, s3_rounded, n_sign, n_is_norm, n_guard,
     n_sticky, n_exp, n_exp1, n_man, n_drop, n_ext, n_kept, n_code, d_half} = '0;
    // Each D type's chain on its own (m: d_f16_i's value), so that its
    // level table is constant in the simulator's code.
    for (int m = 0; m < 2; m++) begin
      if (valid_i && d_f16_i == 1'(m)) begin
      d16 = 1'(m);
      for (int l = 0; l < Levels; l++) begin
        // X1 is read for an f16 D only.
        if (l != L_X1 || d16) begin
        // The level's operands (tcu_f16_dot_synth's table): A's and B's
        // elements, C and the constant one arrive classified.
        unique case (l)
          L_U1: begin
            ra = a_op_i[0*OpW +: RecW];
            rb = b_op_i[0*OpW +: RecW];
            fc = d16 ? NEG_ZERO : POS_ZERO;
          end
          L_X1: begin
            ra = a_op_i[2*OpW +: RecW];
            rb = b_op_i[2*OpW +: RecW];
            fc = NEG_ZERO;
          end
          L_U2: begin
            ra = a_op_i[1*OpW +: RecW];
            rb = b_op_i[1*OpW +: RecW];
            fc = res[L_U1*Width +: Width];
          end
          L_U3: begin
            ra = d16 ? a_op_i[3*OpW +: RecW] : a_op_i[2*OpW +: RecW];
            rb = d16 ? b_op_i[3*OpW +: RecW] : b_op_i[2*OpW +: RecW];
            fc = d16 ? res[L_X1*Width +: Width] : res[L_U2*Width +: Width];
          end
          L_U4: begin
            ra = d16 ? c_op_i[RecW-1:0] : a_op_i[3*OpW +: RecW];
            rb = d16 ? ONE_OP : b_op_i[3*OpW +: RecW];
            fc = d16 ? res[L_U2*Width +: Width] : res[L_U3*Width +: Width];
          end
          default: begin
            if (d16) begin
              // U4's result, classified as tcu_f16_fast_operands classifies.
              {r_sign, r_exp, r_man} = res[L_U4*Width +: Width];
              ra = RecW'({(&r_exp) && (r_man != '0), (&r_exp) && (r_man == '0),
                         (r_exp == '0) && (r_man == '0), r_sign,
                         (r_exp == '0) ? SExp'(1) : r_exp, r_exp != '0, r_man});
            end else begin
              ra = c_op_i[RecW-1:0];
            end
            rb = ONE_OP;
            fc = d16 ? res[L_U3*Width +: Width] : res[L_U4*Width +: Width];
          end
        endcase
        if (l == L_U1 || l == L_X1) begin
          // A product of two f16 elements (the addend a zero): exact in
          // f32 (22 significant bits, the exponent within f32's normal
          // range), so tcu_fma's result is the product itself, normalised
          // by one place at most and rounded nowhere; a zero product takes
          // the addend's sign where the two agree (+0 else), and the
          // specials are tcu_fma's.
          s1_sign_p = ra[R_SIGN] ^ rb[R_SIGN];
          s1_prod   = ProdW'(ra[R_SIG +: Prec]) * ProdW'(rb[R_SIG +: Prec]);
          p_top     = s1_prod[ProdW-1];
          if (ra[R_NAN] || rb[R_NAN] || (ra[R_INF] && rb[R_ZERO]) ||
              (rb[R_INF] && ra[R_ZERO])) begin
            res[l*Width +: Width] = CANONICAL_NAN;
          end else if (ra[R_INF] || rb[R_INF]) begin
            res[l*Width +: Width] = {s1_sign_p, INF_MAG};
          end else if (ra[R_ZERO] || rb[R_ZERO]) begin
            res[l*Width +: Width] = {s1_sign_p && fc[Width-1], {(Width - 1){1'b0}}};
          end else begin
            res[l*Width +: Width] = {s1_sign_p,
                                     ExpBits'(ra[R_EA +: ExpBits]) + ExpBits'(rb[R_EA +: ExpBits]) -
                                         ExpBits'(Bias) + ExpBits'(p_top),
                                     p_top ? s1_prod[ProdW-2 -: ManBits]
                                           : s1_prod[ProdW-3 -: ManBits]};
          end
        end else begin
        // ---- tcu_fma stage 1: classify, multiply, align ----
        s1_sign_a = ra[R_SIGN];
        s1_sign_b = rb[R_SIGN];
        {s1_sign_c, s1_exp_c, s1_man_c} = fc;
        s1_a_zero = ra[R_ZERO];
        s1_b_zero = rb[R_ZERO];
        s1_a_inf  = ra[R_INF];
        s1_b_inf  = rb[R_INF];
        s1_c_inf  = (&s1_exp_c) && (s1_man_c == '0);
        s1_a_nan  = ra[R_NAN];
        s1_b_nan  = rb[R_NAN];
        s1_c_nan  = (&s1_exp_c) && (s1_man_c != '0);
        s1_sig_a = ra[R_SIG +: Prec];
        s1_sig_b = rb[R_SIG +: Prec];
        s1_sig_c = {s1_exp_c != '0, s1_man_c};
        s1_ea    = ExpW'(ra[R_EA +: ExpBits]);
        s1_eb    = ExpW'(rb[R_EA +: ExpBits]);
        s1_ec    = (s1_exp_c == '0) ? ExpW'(1) : ExpW'(s1_exp_c);
        s1_sign_p  = s1_sign_a ^ s1_sign_b;
        s1_eff_sub = s1_sign_p ^ s1_sign_c;
        s1_prod    = ProdW'(s1_sig_a) * ProdW'(s1_sig_b);
        s1_ep   = ({ExpW{s1_a_zero || s1_b_zero}} & ZERO_PROD_EXP) |
                  ({ExpW{!(s1_a_zero || s1_b_zero)}} & (s1_ea + s1_eb - ExpW'(Bias)));
        s1_diff = s1_ec - s1_ep;
        // (Selections by masks, not branches: which case applies follows
        // the data, and the simulator's code then takes no branch on it.)
        s1_anchor    = $signed(s1_diff) >= $signed(ANCHOR_DIFF);
        s1_shamt     = {ShamtW{!s1_anchor}} &
                       (($signed(s1_diff) <= $signed(SATURATE_DIFF)) ? ShamtW'(AddW)
                                                                      : ShamtW'(ANCHOR_DIFF - s1_diff));
        s1_pshamt    = {PshW{s1_anchor}} &
                       (($signed(s1_diff) >= $signed(PSAT_DIFF)) ? PshW'(PshMax)
                                                                 : PshW'(s1_diff - ANCHOR_DIFF));
        s1_frame_exp = ({ExpW{s1_anchor}} & (s1_ec - ANCHOR_DIFF)) | ({ExpW{!s1_anchor}} & s1_ep);
        s1_prod_w  = {s1_prod, 2'b00};
        s1_prod_al = {s1_prod_w >> s1_pshamt, |(s1_prod_w & ~({(ProdW + 2){1'b1}} << s1_pshamt))};
        s1_add_w   = {s1_sig_c, {(AddW - Prec){1'b0}}};
        s1_add_al  = {s1_add_w >> s1_shamt, |(s1_add_w & ~({AddW{1'b1}} << s1_shamt))};
        s1_any_nan = s1_a_nan || s1_b_nan || s1_c_nan;
        s1_invalid = (s1_a_inf && s1_b_zero) || (s1_b_inf && s1_a_zero) ||
                     ((s1_a_inf || s1_b_inf) && s1_c_inf && s1_eff_sub);
        s1_special = s1_any_nan || s1_a_inf || s1_b_inf || s1_c_inf;
        if (s1_any_nan) begin
          s1_special_result = CANONICAL_NAN;
        end else if (s1_invalid) begin
          s1_special_result = CANONICAL_NAN;
        end else if (s1_a_inf || s1_b_inf) begin
          s1_special_result = {s1_sign_p, INF_MAG};
        end else begin
          s1_special_result = {s1_sign_c, INF_MAG};
        end
        // ---- tcu_fma stage 2: add, absolute value, leading zeros ----
        s2_sum = s1_eff_sub ? SumW'(s1_prod_al) - SumW'(s1_add_al)
                            : SumW'(s1_prod_al) + SumW'(s1_add_al);
        s2_mag = s2_sum[SumW-1] ? MagW'(-s2_sum) : s2_sum[MagW-1:0];
        // An exact zero under round to nearest even: +0 for x + (-x).
        s2_res_sign = (s2_mag == '0) ? (s1_eff_sub ? 1'b0 : s1_sign_p)
                                     : (s1_sign_p ^ s2_sum[SumW-1]);
        s2_padded  = {s2_mag, {(LzcPadW - MagW){1'b1}}};
        s2_top     = 64'(s2_padded >> (LzcPadW - 64));
        s2_word    = (s2_top != '0) ? s2_top : 64'(s2_padded);
        s2_word_lz[5] = s2_word[63:32] == '0;
        s2_word       = s2_word_lz[5] ? s2_word << 32 : s2_word;
        s2_word_lz[4] = s2_word[63:48] == '0;
        s2_word       = s2_word_lz[4] ? s2_word << 16 : s2_word;
        s2_word_lz[3] = s2_word[63:56] == '0;
        s2_word       = s2_word_lz[3] ? s2_word << 8 : s2_word;
        s2_word_lz[2] = s2_word[63:60] == '0;
        s2_word       = s2_word_lz[2] ? s2_word << 4 : s2_word;
        s2_word_lz[1] = s2_word[63:62] == '0;
        s2_word       = s2_word_lz[1] ? s2_word << 2 : s2_word;
        s2_word_lz[0] = !s2_word[63];
        s2_lz = ((s2_top != '0) ? '0 : LzcW'(LzcPadW - 64)) + LzcW'(s2_word_lz);
        s2_sub_shamt  = ANCHOR_DIFF + s1_frame_exp;
        s2_norm_shamt = ($signed(ExpW'(s2_lz)) <= $signed(s2_sub_shamt)) ? s2_lz
                                                                          : LzcW'(s2_sub_shamt);
        s2_exp_pre    = ANCHOR_DIFF + ExpW'(1) + s1_frame_exp - ExpW'(s2_norm_shamt);
        // ---- tcu_fma stage 3: normalise, round (RNE), pack ----
        s3_norm      = s2_mag << s2_norm_shamt;
        s3_hidden    = s3_norm[MagW-1];
        s3_frac      = s3_norm[MagW-2 -: ManBits];
        s3_guard     = s3_norm[MagW-1-Prec];
        s3_sticky    = |s3_norm[MagW-2-Prec:0];
        s3_round_up  = s3_guard && (s3_sticky || s3_frac[0]);
        s3_exp_field = s3_hidden ? s2_exp_pre : '0;
        s3_rounded   = {s3_exp_field, s3_frac} + (ExpW + ManBits)'(s3_round_up);
        s3_overflow  = s3_rounded[ExpW+ManBits-1:ManBits] >= EXP_ALL_ONES;
        if (s1_special) begin
          res[l*Width +: Width] = s1_special_result;
        end else if (s3_overflow) begin
          res[l*Width +: Width] = {s2_res_sign, INF_MAG};
        end else begin
          res[l*Width +: Width] = {s2_res_sign, s3_rounded[ExpBits+ManBits-1:0]};
        end
        end
        end
      end
      // f32 -> f16 (tcu_f16_dot_synth's p_narrow).
      {n_sign, n_exp, n_man} = res[L_U5*Width +: Width];
      n_exp1    = (n_exp == '0) ? SExp'(1) : n_exp;
      n_is_norm = n_exp1 >= SExp'(MinNormExp);
      if (n_is_norm) begin
        n_drop = DropW'(DropNorm);
      end else if (n_exp1 <= SExp'(MinNormExp + DropNorm - DropMax)) begin
        n_drop = DropW'(DropMax);
      end else begin
        n_drop = DropW'(SExp'(MinNormExp + DropNorm) - n_exp1);
      end
      n_ext    = ExtW'({n_exp != '0, n_man, {(SMan + 3){1'b0}}} >> n_drop);
      n_kept   = n_ext[ExtW-1 -: HMan+1];
      n_guard  = n_ext[SMan+2];
      n_sticky = |n_ext[SMan+1:0];
      n_code   = (n_is_norm ? CodeW'({n_exp1 - SExp'(MinNormExp), {HMan{1'b0}}}) : '0) +
                 CodeW'(n_kept) + CodeW'(n_guard && (n_sticky || n_kept[0]));
      if (&n_exp) begin
        d_half = (n_man != '0) ? tcu_pkg::F16_CANONICAL_NAN
                               : {n_sign, {HExp{1'b1}}, {HMan{1'b0}}};
      end else if (n_code >= HALF_INF_CODE) begin
        d_half = {n_sign, {HExp{1'b1}}, {HMan{1'b0}}};
      end else begin
        d_half = {n_sign, n_code[HalfWidth-2:0]};
      end
      d_dot = d16 ? {{(Width - HalfWidth){1'b0}}, d_half} : res[L_U5*Width +: Width];
      end
    end
  end

  // The records' padding (zero) goes unread.
  logic unused_pad;
  always_comb begin
    unused_pad = ^c_op_i[OpW-1:RecW];
    for (int k = 0; k < DotK; k++) begin
      unused_pad ^= ^{a_op_i[k*OpW+RecW +: OpW-RecW], b_op_i[k*OpW+RecW +: OpW-RecW]};
    end
  end

  if (FmaStages == 0) begin : g_comb
    assign valid_o = valid_i;
    assign d_o     = d_dot;

    // No registers: the clock, reset and enable go unused.
    logic unused_ctrl;
    assign unused_ctrl = ^{clk_i, rst_ni, en_i};
  end else begin : g_pipe
    // The 5 * FmaStages registers as a ring of slots: each enabled cycle
    // writes the slot ptr_q names (the dot where valid_i is high, and its
    // valid bit) and moves ptr_q on; the slot ptr_q names holds what came
    // in Latency enabled cycles ago, the output. Equal to a line of
    // tcu_pipe_reg's registers (each loads where the one before it holds a
    // valid dot) wherever valid_o is high; a dot is written once, not
    // moved from register to register every cycle.
    localparam int unsigned Latency = 5 * FmaStages;
    localparam int unsigned PtrW    = $clog2(Latency);
    logic [PtrW-1:0]    ptr_q;
    logic [Latency-1:0] slot_valid_q;
    logic [Width-1:0]   slot_q [Latency];
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        ptr_q        <= '0;
        slot_valid_q <= '0;
      end else if (en_i) begin
        ptr_q               <= ptr_q >= PtrW'(Latency - 1) ? '0 : ptr_q + 1'b1;
        slot_valid_q[ptr_q] <= valid_i;
      end
    end
    always_ff @(posedge clk_i) begin
      if (en_i && valid_i) slot_q[ptr_q] <= d_dot;
    end
    assign valid_o = slot_valid_q[ptr_q];
    assign d_o     = slot_q[ptr_q];
  end

endmodule
