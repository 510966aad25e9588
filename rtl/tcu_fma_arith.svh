// The FMA's arithmetic shared by tcu_fma's forms (rtl/tcu_fma_three.sv,
// rtl/tcu_fma_steps.sv): the window's widths, the constants, and the steps
// both forms take alike (classify, the product's exponent, the alignment,
// the special results, the result's sign, the leading zeros, the
// normalisation shift, the rounding bits, the packed result), each stated
// once here. Each form includes this file in its module body: the widths
// follow the form's Format (and Width), which a package's functions could
// not take as widths. What the forms do differently (the multiplier, the
// adders and the registers) stays in each form's file. The f16 fast chain
// (rtl/tcu_f16_fast_chain.sv) takes its FP32 FMAs' widths and constants from
// here and writes their steps out itself: in its loop of levels the steps
// as calls make the Verilated f16 engine markedly slower.
//
// The steps are functions and tasks of their operands, inlined where they
// are called: each writes the same operators at the same widths as when
// written out in the caller (a task where a step has several results, so
// that each result stays a signal of its own), so the elaborated design is
// the same cells.
//
// Datapath (P = precision = ManBits + 1), one fixed-point window of
// MagW = 2P + 4 bits (52 for FP32, 110 for FP64), bit 0 a sticky bit. The
// product's field is window bits [2P+2:3] and the addend's [2P+2:P+3]. When
// the addend's exponent exceeds the product's by d >= 1, the product is
// shifted down by d - 1; otherwise the addend by 1 - d. Bits shifted below
// bit 1 are ORed into bit 0 (a sticky bit). The product loses bits only for
// d >= 4, where it is below half the addend, so the result's guard bit stays
// above bit 0 (for an addend at the smallest exponent, the rounding point is
// the addend's last place, above it too) and the sticky bit never reaches
// the rounding.

// -----------------------------------------------------------------------------
// Widths, from the format table
// -----------------------------------------------------------------------------
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
// The rounded exponent and fraction (the exponent's carry and sign bits
// above the format's field).
localparam int unsigned IncW    = ExpW + ManBits;

// -----------------------------------------------------------------------------
// Constants
// -----------------------------------------------------------------------------
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

// -----------------------------------------------------------------------------
// Classify, multiply, align
// -----------------------------------------------------------------------------
// An operand unpacked and classified: its sign, whether it is a zero, an
// Inf or a NaN, its significand with the hidden bit and its exponent
// (subnormals sit at exponent 1).
task automatic fma_unpack(input logic [Width-1:0] x, output logic sign, output logic zero,
                          output logic inf, output logic nan, output logic [Prec-1:0] sig,
                          output logic [ExpW-1:0] e);
  logic [ExpBits-1:0] exp;
  logic [ManBits-1:0] man;
  {sign, exp, man} = x;
  zero = (exp == '0) && (man == '0);
  inf  = (&exp) && (man == '0);
  nan  = (&exp) && (man != '0);
  sig  = {exp != '0, man};
  e    = (exp == '0) ? ExpW'(1) : ExpW'(exp);
endtask

// Biased product exponent ep: the product is prod * 2^(ep - Bias - 2*ManBits).
function automatic logic [ExpW-1:0] fma_prod_exp(logic a_zero, logic b_zero, logic [ExpW-1:0] ea,
                                                 logic [ExpW-1:0] eb);
  fma_prod_exp = (a_zero || b_zero) ? ZERO_PROD_EXP : ea + eb - ExpW'(Bias);
endfunction

// Shifts and the window's exponent, from the addend's exponent ec and the
// product's ep: window bit i weighs 2^(i - 3 + frame_exp - Bias - 2*ManBits).
task automatic fma_align(input logic [ExpW-1:0] ec, input logic [ExpW-1:0] ep,
                         output logic [ShamtW-1:0] shamt, output logic [PshW-1:0] pshamt,
                         output logic [ExpW-1:0] frame_exp);
  logic [ExpW-1:0] diff;
  diff = ec - ep;
  if ($signed(diff) >= $signed(ANCHOR_DIFF)) begin
    shamt     = '0;
    pshamt    = ($signed(diff) >= $signed(PSAT_DIFF)) ? PshW'(PshMax)
                                                      : PshW'(diff - ANCHOR_DIFF);
    frame_exp = ec - ANCHOR_DIFF;
  end else if ($signed(diff) <= $signed(SATURATE_DIFF)) begin
    shamt     = ShamtW'(AddW);
    pshamt    = '0;
    frame_exp = ep;
  end else begin
    shamt     = ShamtW'(ANCHOR_DIFF - diff);
    pshamt    = '0;
    frame_exp = ep;
  end
endtask

// The product and the addend shifted down, the bits below window bit 1
// ORed into bit 0.
function automatic logic [PAlW-1:0] fma_prod_align(logic [ProdW-1:0] prod,
                                                   logic [PshW-1:0] pshamt);
  logic [ProdW+1:0] prod_w;
  prod_w         = {prod, 2'b00};
  fma_prod_align = {prod_w >> pshamt, |(prod_w & ~({(ProdW + 2){1'b1}} << pshamt))};
endfunction

function automatic logic [AddW:0] fma_add_align(logic [Prec-1:0] sig_c,
                                                logic [ShamtW-1:0] shamt);
  logic [AddW-1:0] add_w;
  add_w         = {sig_c, {(AddW - Prec){1'b0}}};
  fma_add_align = {add_w >> shamt, |(add_w & ~({AddW{1'b1}} << shamt))};
endfunction

// Special operands decide the result on their own (special): NaNs as
// CanonicalNan says, an invalid operation, an Inf.
task automatic fma_specials(input logic [Width-1:0] a, input logic [Width-1:0] b,
                            input logic [Width-1:0] c, input logic a_zero, input logic b_zero,
                            input logic a_inf, input logic b_inf, input logic c_inf,
                            input logic a_nan, input logic b_nan, input logic c_nan,
                            input logic eff_sub, input logic sign_p, input logic sign_c,
                            output logic special, output logic [Width-1:0] special_result);
  logic any_nan, invalid;
  any_nan = a_nan || b_nan || c_nan;
  invalid = (a_inf && b_zero) || (b_inf && a_zero) || ((a_inf || b_inf) && c_inf && eff_sub);
  special = any_nan || a_inf || b_inf || c_inf;
  if (any_nan) begin
    if (CanonicalNan) special_result = CANONICAL_NAN;
    else if (b_nan)   special_result = b | QUIET_BIT;
    else if (c_nan)   special_result = c | QUIET_BIT;
    else              special_result = a | QUIET_BIT;
  end else if (invalid) begin
    special_result = CanonicalNan ? CANONICAL_NAN : DEFAULT_NAN;
  end else if (a_inf || b_inf) begin
    special_result = {sign_p, INF_MAG};
  end else begin
    special_result = {sign_c, INF_MAG};
  end
endtask

// -----------------------------------------------------------------------------
// The sum's sign and leading zeros, the normalisation shift
// -----------------------------------------------------------------------------
// The result's sign, from the sum's magnitude and whether the sum is
// negative (neg): an exact zero, x + (-x), is +0 (-0 when rounding down);
// zeros of one sign keep it. Otherwise the sign of the larger magnitude.
function automatic logic fma_res_sign(logic [MagW-1:0] mag, logic neg, logic eff_sub,
                                      logic sign_p, logic [RndW-1:0] rnd);
  fma_res_sign = (mag == '0) ? (eff_sub ? (rnd == tcu_pkg::RDN) : sign_p) : (sign_p ^ neg);
endfunction

// Leading zeros of the window (MagW when zero): the 64-bit word with the
// leading one, its leading zeros (tcu_pkg::fma_word_lz).
function automatic logic [LzcW-1:0] fma_lz(logic [MagW-1:0] mag);
  logic [LzcPadW-1:0] padded;
  logic [63:0]        top, word;
  logic [5:0]         word_lz;
  padded  = {mag, {(LzcPadW - MagW){1'b1}}};
  top     = 64'(padded >> (LzcPadW - 64));
  word    = (top != '0) ? top : 64'(padded);
  word_lz = tcu_pkg::fma_word_lz(word);
  fma_lz  = ((top != '0) ? '0 : LzcW'(LzcPadW - 64)) + LzcW'(word_lz);
endfunction

// Normal result: shift the leading one to the top, exponent
// Anchor + 1 + frame_exp - lz. When that would be below 1, shift only as far
// as the 2^(1-Bias) grid allows (sub_shamt >= 1: frame_exp >= 1 - Anchor).
task automatic fma_norm_shift(input logic [LzcW-1:0] lz, input logic [ExpW-1:0] frame_exp,
                              output logic [LzcW-1:0] norm_shamt,
                              output logic [ExpW-1:0] exp_pre);
  logic [ExpW-1:0] sub_shamt;
  sub_shamt  = ANCHOR_DIFF + frame_exp;
  norm_shamt = ($signed(ExpW'(lz)) <= $signed(sub_shamt)) ? lz : LzcW'(sub_shamt);
  exp_pre    = ANCHOR_DIFF + ExpW'(1) + frame_exp - ExpW'(norm_shamt);
endtask

// -----------------------------------------------------------------------------
// Round and pack
// -----------------------------------------------------------------------------
// The normalised window's fraction, guard bit and sticky bit.
task automatic fma_round_bits(input logic [MagW-1:0] norm, output logic [ManBits-1:0] frac,
                              output logic guard, output logic sticky);
  frac   = norm[MagW-2 -: ManBits];
  guard  = norm[MagW-1-Prec];
  sticky = |norm[MagW-2-Prec:0];
endtask

// The result: the special result, an overflow (Inf or the largest finite
// value as to_inf says), or the rounded exponent and fraction with the sign.
function automatic logic [Width-1:0] fma_pack(logic [IncW-1:0] rounded, logic sign, logic to_inf,
                                              logic special, logic [Width-1:0] special_result);
  logic overflow;
  overflow = rounded[IncW-1:ManBits] >= EXP_ALL_ONES;
  if (special) begin
    fma_pack = special_result;
  end else if (overflow) begin
    fma_pack = {sign, to_inf ? INF_MAG : MAX_MAG};
  end else begin
    fma_pack = {sign, rounded[ExpBits+ManBits-1:0]};
  end
endfunction
