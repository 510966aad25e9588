// Rounding events of a floating-point D (tcu/rounding_events.h): each step
// of an element's arithmetic evaluated exactly with GNU MPFR (a product at
// the sum of its operands' precisions, a sum at the precision its operands'
// span needs), then rounded to the step's format down, up and in the step's
// mode; the step is exact when down and up agree, a tie when the exact
// value is their midpoint. The next step starts from the value rounded in
// the mode, so the chain never rounds twice. The steps, per family, are
// those of ../shared/vectors/README.md (what sm_90 and MMA-Sim do); none of
// the golden model's arithmetic is used.
#include "tcu/rounding_events.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>

namespace tcu {
namespace {

// An mpfr_t that clears itself.
class Real {
 public:
  explicit Real(mpfr_prec_t precision = 64) { mpfr_init2(x_, precision); }
  ~Real() { mpfr_clear(x_); }
  Real(const Real&) = delete;
  Real& operator=(const Real&) = delete;
  mpfr_ptr get() { return x_; }

 private:
  mpfr_t x_;
};

// The values one element's steps work with, allocated once per instruction.
struct Scratch {
  Real a, b, acc, product, exact, down, up, mid, term;
};

uint64_t field(uint64_t bits, int shift, int width) {
  return (bits >> shift) & ((uint64_t{1} << width) - 1);
}
uint64_t all_ones_exponent(FpFormat f) {
  return ((uint64_t{1} << f.exponent_bits) - 1) << f.fraction_bits;
}
bool is_finite(uint64_t bits, FpFormat f) {
  return (bits & all_ones_exponent(f)) != all_ones_exponent(f);
}
bool is_nan(uint64_t bits, FpFormat f) {
  return !is_finite(bits, f) && field(bits, 0, f.fraction_bits) != 0;
}
bool is_negative(uint64_t bits, FpFormat f) { return field(bits, f.width() - 1, 1) != 0; }

// out = the finite value `bits` of format `f`, exactly.
void load(mpfr_ptr out, uint64_t bits, FpFormat f) {
  const uint64_t biased = field(bits, f.fraction_bits, f.exponent_bits);
  const uint64_t fraction = field(bits, 0, f.fraction_bits);
  const uint64_t significand = biased ? fraction | (uint64_t{1} << f.fraction_bits) : fraction;
  const long exponent = long(biased ? biased : 1) - f.max_exponent() - f.fraction_bits;
  mpfr_set_prec(out, f.precision());
  mpfr_set_ui_2exp(out, significand, exponent, MPFR_RNDN);  // exact: precision() bits
  if (is_negative(bits, f)) mpfr_neg(out, out, MPFR_RNDN);
}

// As load, with an infinity standing for +-2^(max_exponent+1), the next
// value past the largest finite one were the exponent unbounded (where a
// value rounds to infinity in round-to-nearest).
void load_extended(mpfr_ptr out, uint64_t bits, FpFormat f) {
  if (is_finite(bits, f)) return load(out, bits, f);
  mpfr_set_prec(out, 2);
  mpfr_set_si_2exp(out, is_negative(bits, f) ? -1 : 1, f.max_exponent() + 1, MPFR_RNDN);
}

void require_exact(int ternary, const char* what) {
  if (ternary != 0) throw std::logic_error(std::string("rounding_events: inexact ") + what);
}

// out = x + y exactly, at the precision their span needs (a zero sum's
// sign as IEEE 754 gives it in mode `rnd`). out aliases neither.
void add_exact(mpfr_ptr out, mpfr_srcptr x, mpfr_srcptr y, mpfr_rnd_t rnd) {
  mpfr_prec_t precision = std::max(mpfr_get_prec(x), mpfr_get_prec(y));
  if (!mpfr_zero_p(x) && !mpfr_zero_p(y)) {
    // Bits from 2^(max exponent) (the carry) down to the lower last bit.
    const long top = std::max(mpfr_get_exp(x), mpfr_get_exp(y)) + 1;
    const long bottom =
        std::min(mpfr_get_exp(x) - mpfr_get_prec(x), mpfr_get_exp(y) - mpfr_get_prec(y));
    precision = top - bottom;
  }
  mpfr_set_prec(out, precision);
  require_exact(mpfr_add(out, x, y, rnd), "sum");
}

// out = a * b + c exactly (one fused step).
void fma_exact(mpfr_ptr out, mpfr_ptr a, mpfr_ptr b, mpfr_ptr c, mpfr_rnd_t rnd, Scratch& s) {
  mpfr_set_prec(s.product.get(), mpfr_get_prec(a) + mpfr_get_prec(b));
  require_exact(mpfr_mul(s.product.get(), a, b, rnd), "product");
  add_exact(out, s.product.get(), c, rnd);
}

// x rounded to f: MPFR's conversions where there is one.
uint64_t rounded(mpfr_srcptr x, FpFormat f, mpfr_rnd_t rnd) {
  if (f.width() == 64) {
    const double v = mpfr_get_d(x, rnd);
    uint64_t bits;
    std::memcpy(&bits, &v, 8);
    return bits;
  }
  if (f.width() == 32) {
    const float v = mpfr_get_flt(x, rnd);
    uint32_t bits;
    std::memcpy(&bits, &v, 4);
    return bits;
  }
  return round_to_format(x, f, rnd);
}

#ifdef TCU_PLANTED_TIE_FAULTS
// Only in tests' rounding_events_planted: the tie test broken as
// $TCU_PLANTED_TIE says, for the [tie] tests to catch. "ulp_off": the
// midpoint moved one ulp up (the real one is never a tie); "loose":
// within an ulp of the midpoint (every inexact step is a tie).
bool planted_midpoint(mpfr_ptr exact, Scratch& s) {
  const char* plant = std::getenv("TCU_PLANTED_TIE");
  const std::string which = plant ? plant : "";
  mpfr_set_prec(s.term.get(), mpfr_get_prec(s.mid.get()) + 2);
  mpfr_sub(s.term.get(), s.up.get(), s.down.get(), MPFR_RNDN);  // one ulp
  if (which == "ulp_off") {
    mpfr_add(s.term.get(), s.mid.get(), s.term.get(), MPFR_RNDN);
    return mpfr_equal_p(exact, s.term.get());
  }
  if (which == "loose") {
    mpfr_sub(s.mid.get(), exact, s.mid.get(), MPFR_RNDN);
    return mpfr_cmpabs(s.mid.get(), s.term.get()) < 0;
  }
  throw std::logic_error("TCU_PLANTED_TIE: ulp_off or loose");
}
#endif

// Whether `exact` is s.mid, the midpoint of its neighbours s.down, s.up.
bool is_midpoint(mpfr_ptr exact, Scratch& s) {
#ifdef TCU_PLANTED_TIE_FAULTS
  return planted_midpoint(exact, s);
#endif
  return mpfr_equal_p(exact, s.mid.get());
}

// One step: `exact` rounded to f in mode rnd; notes whether it lost bits and
// whether it was a midpoint.
uint64_t round_step(mpfr_ptr exact, FpFormat f, mpfr_rnd_t rnd, RoundingEvents* events,
                    Scratch& s) {
  const uint64_t down = rounded(exact, f, MPFR_RNDD), up = rounded(exact, f, MPFR_RNDU);
  if (down == up) return down;  // representable (a zero keeps its sign)
  events->inexact = true;
  load_extended(s.down.get(), down, f);
  load_extended(s.up.get(), up, f);
  mpfr_set_prec(s.mid.get(), f.precision() + 2);  // neighbours: their sum needs precision + 1
  require_exact(mpfr_add(s.mid.get(), s.down.get(), s.up.get(), MPFR_RNDN), "midpoint");
  mpfr_div_2ui(s.mid.get(), s.mid.get(), 1, MPFR_RNDN);
  if (is_midpoint(exact, s)) events->tie = true;
  return rnd == MPFR_RNDD ? down : rnd == MPFR_RNDU ? up : rounded(exact, f, rnd);
}

mpfr_rnd_t mpfr_mode(Rounding r) {
  switch (r) {
    case Rounding::kRz:
      return MPFR_RNDZ;
    case Rounding::kRm:
      return MPFR_RNDD;
    case Rounding::kRp:
      return MPFR_RNDU;
    default:
      return MPFR_RNDN;
  }
}

FpFormat format_of(ElemType type) {
  return type == ElemType::kF16 ? kBinary16 : type == ElemType::kF32 ? kBinary32 : kBinary64;
}

struct Element {
  int batch, row, col;
};

// The element's A row, B column and C all finite.
bool finite_inputs(const Instr& instr, const Operands& ops, Element e) {
  const FpFormat in = format_of(instr.a_type), cf = format_of(instr.c_type);
  if (!is_finite(ops.c.at(e.batch, e.row, e.col), cf)) return false;
  for (int i = 0; i < instr.shape.k; ++i)
    if (!is_finite(ops.a.at(e.batch, e.row, i), in) || !is_finite(ops.b.at(e.batch, i, e.col), in))
      return false;
  return true;
}

// out = a_i * b_i + acc, rounded to f in rnd (acc: a value of f).
uint64_t product_step(const Instr& instr, const Operands& ops, Element e, int i, mpfr_ptr acc,
                      FpFormat f, mpfr_rnd_t rnd, RoundingEvents* events, Scratch& s) {
  const FpFormat in = format_of(instr.a_type);
  load(s.a.get(), ops.a.at(e.batch, e.row, i), in);
  load(s.b.get(), ops.b.at(e.batch, i, e.col), in);
  fma_exact(s.exact.get(), s.a.get(), s.b.get(), acc, rnd, s);
  return round_step(s.exact.get(), f, rnd, events, s);
}

// f64: d = fma(a3,b3, fma(a2,b2, fma(a1,b1, fma(a0,b0,c)))), each step in
// the instruction's mode. Past an overflow to infinity every later step is
// infinity plus a finite product: infinity.
void f64_element(const Instr& instr, const Operands& ops, Element e, RoundingEvents* events,
                 Scratch& s) {
  const mpfr_rnd_t rnd = mpfr_mode(instr.rounding);
  uint64_t acc = ops.c.at(e.batch, e.row, e.col);
  for (int i = 0; i < instr.shape.k && is_finite(acc, kBinary64); ++i) {
    load(s.acc.get(), acc, kBinary64);
    acc = product_step(instr, ops, e, i, s.acc.get(), kBinary64, rnd, events, s);
  }
  events->value = acc;
  events->has_value = true;
}

// out = x + y rounded to binary32 (nearest even); x, y binary32 bits.
uint64_t f32_sum(uint64_t x, FpFormat xf, uint64_t y, RoundingEvents* events, Scratch& s) {
  load(s.down.get(), x, xf);
  load(s.up.get(), y, kBinary32);
  add_exact(s.exact.get(), s.down.get(), s.up.get(), MPFR_RNDN);
  return round_step(s.exact.get(), kBinary32, MPFR_RNDN, events, s);
}

// f16 inputs (every step binary32, nearest even; the README's order):
// f32 D: acc = fma(a0,b0,+0), acc = fma(ai,bi,acc) for i = 1..3, d = c + acc;
// f16 D: p01 = fma(a1,b1, a0*b0), p23 = fma(a3,b3, a2*b2),
//        s = (c + p01) + p23, d = s rounded to binary16.
void f16_element(const Instr& instr, const Operands& ops, Element e, RoundingEvents* events,
                 Scratch& s) {
  const FpFormat cf = format_of(instr.c_type);
  const uint64_t c = ops.c.at(e.batch, e.row, e.col);
  auto step = [&](int i, uint64_t acc) {
    load(s.acc.get(), acc, kBinary32);
    return product_step(instr, ops, e, i, s.acc.get(), kBinary32, MPFR_RNDN, events, s);
  };
  uint64_t d;
  if (instr.d_type == ElemType::kF32) {
    uint64_t acc = 0;
    for (int i = 0; i < instr.shape.k; ++i) acc = step(i, acc);
    d = f32_sum(c, cf, acc, events, s);
  } else {
    // a_i * b_i alone: a product step with a zero addend of the product's
    // sign (fma(a, b, -0) is a*b exactly as IEEE 754 signs it).
    auto pair = [&](int i) {
      const bool negative = is_negative(ops.a.at(e.batch, e.row, i), kBinary16) !=
                            is_negative(ops.b.at(e.batch, i, e.col), kBinary16);
      return step(i + 1, step(i, negative ? 0x80000000u : 0));
    };
    const uint64_t p01 = pair(0), p23 = pair(2);
    const uint64_t sum = f32_sum(f32_sum(c, cf, p01, events, s), kBinary32, p23, events, s);
    load(s.exact.get(), sum, kBinary32);
    d = round_step(s.exact.get(), kBinary16, MPFR_RNDN, events, s);
  }
  // Binary32 intermediates cannot overflow from binary16 inputs; were one
  // infinite, the later steps would not be finite sums.
  events->value = d;
  events->has_value = true;
}

// A scale byte as significand * 2^exponent; false if NaN.
bool decode_scale(uint64_t byte, ElemType type, long* significand, long* exponent) {
  byte &= 0xff;
  if (type == ElemType::kUe8m0) {
    *significand = 1;
    *exponent = long(byte) - 127;  // 0x00: 2^-127
    return byte != 0xff;
  }
  const uint64_t magnitude = byte & 0x7f;  // ue4m3: the sign bit is ignored
  const long e = long(magnitude >> 3), m = long(magnitude & 7);
  *significand = e == 0 ? m : 8 + m;
  *exponent = e == 0 ? -9 : e - 10;  // (m/8) * 2^-6, or (1 + m/8) * 2^(e-7)
  return magnitude != 0x7f;
}

// An e2m1 code in halves (0, 0.5, 1, 1.5, 2, 3, 4, 6).
long e2m1_halves(uint64_t code) {
  static const long kHalves[] = {0, 1, 2, 3, 4, 6, 8, 12};
  const long magnitude = kHalves[code & 7];
  return code & 8 ? -magnitude : magnitude;
}

// e2m1: D against the exact sum C + sum over k of a*b*scale_a*scale_b (the
// truncations toward zero and the 35-bit window make D differ from it).
void e2m1_element(const Instr& instr, const Operands& ops, const Matrix& d, Element e,
                  RoundingEvents* events, Scratch& s) {
  const uint64_t c = ops.c.at(e.batch, e.row, e.col), out = d.at(e.batch, e.row, e.col);
  if (!is_finite(c, kBinary32) || is_nan(out, kBinary32)) return;
  load(s.acc.get(), c, kBinary32);
  const int block = instr.scale_block();
  for (int j = 0; j < instr.scale_blocks(); ++j) {
    long sa, ea, sb, eb;
    if (!decode_scale(ops.scale_a.at(0, e.row, j), instr.scale_type, &sa, &ea) ||
        !decode_scale(ops.scale_b.at(0, j, e.col), instr.scale_type, &sb, &eb))
      return;
    long quarters = 0;
    for (int k = j * block; k < (j + 1) * block; ++k)
      quarters +=
          e2m1_halves(ops.a.at(e.batch, e.row, k)) * e2m1_halves(ops.b.at(e.batch, k, e.col));
    mpfr_set_prec(s.term.get(), 64);
    require_exact(mpfr_set_si_2exp(s.term.get(), quarters * sa * sb, ea + eb - 2, MPFR_RNDN),
                  "e2m1 term");
    add_exact(s.exact.get(), s.acc.get(), s.term.get(), MPFR_RNDN);
    mpfr_swap(s.exact.get(), s.acc.get());
  }
  events->classified = true;
  if (!is_finite(out, kBinary32)) {
    events->inexact = true;  // infinite from finite inputs: overflow
    return;
  }
  load(s.exact.get(), out, kBinary32);
  events->inexact = !mpfr_equal_p(s.exact.get(), s.acc.get());
}

}  // namespace

uint64_t round_to_format(mpfr_srcptr x, FpFormat f, mpfr_rnd_t rnd) {
  const bool negative = mpfr_signbit(x) != 0;
  const uint64_t sign = uint64_t(negative) << (f.width() - 1);
  if (mpfr_zero_p(x)) return sign;
  const long exponent = long(mpfr_get_exp(x)) - 1;  // |x| in [2^exponent, 2^(exponent+1))
  // The bits the format keeps in x's binade: fewer below the normals (the
  // quantum stays the smallest subnormal, q = 2^(min_exponent-precision+1)).
  const long bits = f.precision() - std::max(0L, long(f.min_exponent()) - exponent);
  if (bits < 1) {  // |x| < q: 0 or q
    bool to_q = false;
    if (rnd == MPFR_RNDU) to_q = !negative;
    if (rnd == MPFR_RNDD) to_q = negative;
    // |x| in [q/2, q): q, except q/2 itself, a tie that goes to 0 (even).
    if (rnd == MPFR_RNDN) to_q = bits == 0 && mpfr_min_prec(x) > 1;
    return sign | (to_q ? 1 : 0);
  }
  Real y(bits);
  mpfr_set(y.get(), x, rnd);
  const long y_exponent = long(mpfr_get_exp(y.get())) - 1;
  if (y_exponent > f.max_exponent()) {
    const bool to_inf =
        rnd == MPFR_RNDN || (rnd == MPFR_RNDU && !negative) || (rnd == MPFR_RNDD && negative);
    return sign | (to_inf ? all_ones_exponent(f) : all_ones_exponent(f) - 1);
  }
  mpfr_abs(y.get(), y.get(), MPFR_RNDN);
  if (y_exponent < f.min_exponent()) {  // subnormal: a count of q
    mpfr_mul_2si(y.get(), y.get(), f.precision() - 1 - f.min_exponent(), MPFR_RNDN);
    return sign | mpfr_get_ui(y.get(), MPFR_RNDN);
  }
  mpfr_mul_2si(y.get(), y.get(), f.fraction_bits - y_exponent, MPFR_RNDN);  // 1.f * 2^fraction_bits
  const uint64_t fraction = mpfr_get_ui(y.get(), MPFR_RNDN) - (uint64_t{1} << f.fraction_bits);
  return sign | (uint64_t(y_exponent + f.max_exponent()) << f.fraction_bits) | fraction;
}

std::vector<RoundingEvents> rounding_events(const Instr& instr, const Operands& ops,
                                            const Matrix& d) {
  std::vector<RoundingEvents> events(d.elems.size());
  Scratch s;
  size_t index = 0;
  for (int batch = 0; batch < d.batches; ++batch)
    for (int row = 0; row < d.rows; ++row)
      for (int col = 0; col < d.cols; ++col) {
        RoundingEvents& ev = events[index++];
        const Element e{batch, row, col};
        if (instr.family == Family::kE2m1) {
          e2m1_element(instr, ops, d, e, &ev, s);
          continue;
        }
        if (!finite_inputs(instr, ops, e)) continue;
        ev.classified = true;
        if (instr.family == Family::kF64)
          f64_element(instr, ops, e, &ev, s);
        else
          f16_element(instr, ops, e, &ev, s);
      }
  return events;
}

}  // namespace tcu
