// Rounding events of a floating-point D (tcu/rounding_events.h): each step
// of an element's arithmetic evaluated exactly with GNU MPFR (a product at
// the sum of its operands' precisions, a sum at the precision its operands'
// span needs), then classified from the exact value's lowest set bit
// against the step's format (round_step; the tests hold it to the
// neighbours' definition, round_step_by_neighbours) and rounded once in the
// step's mode by MPFR, so the chain never rounds twice. The steps, per
// family, are those of ../shared/vectors/README.md (what sm_90 and MMA-Sim
// do); none of the golden model's arithmetic is used.
#include "tcu/rounding_events.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
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

// The values the steps work with (kept per thread, Walker::scratch).
struct Scratch {
  Real acc, pair, c, product, exact, term;
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
  if (mpfr_get_prec(out) != f.precision()) mpfr_set_prec(out, f.precision());
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

// Whether a lowest set bit of weight 2^lowest is half the quantum 2^quantum.
bool is_half_quantum(long lowest, long quantum) {
#ifdef TCU_PLANTED_TIE_FAULTS
  // Only in tests' rounding_events_planted: the tie test broken as
  // $TCU_PLANTED_TIE says, for the [tie] tests to catch. "ulp_off": one ulp
  // off (the real midpoint is never a tie); "loose": any bit below the
  // quantum (every inexact step is a tie).
  const char* plant = std::getenv("TCU_PLANTED_TIE");
  const std::string which = plant ? plant : "";
  if (which == "ulp_off") return lowest == quantum;
  if (which == "loose") return lowest < quantum;
  throw std::logic_error("TCU_PLANTED_TIE: ulp_off or loose");
#endif
  return lowest == quantum - 1;
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

// A step's events (not its bits): from the exact value's binade and lowest
// set bit (tcu/rounding_events.h, round_step).
StepRounding classify_step(mpfr_srcptr x, FpFormat f) {
  StepRounding r;
  if (mpfr_zero_p(x)) return r;
  const long binade = long(mpfr_get_exp(x)) - 1;  // |x| in [2^binade, 2^(binade+1))
  if (binade > f.max_exponent()) {                // past the largest finite value's binade
    r.inexact = true;
    return r;
  }
  const long lowest = long(mpfr_get_exp(x)) - long(mpfr_min_prec(x));  // lowest set bit
  const long quantum = std::max(binade, long(f.min_exponent())) - f.precision() + 1;
  r.inexact = lowest < quantum;
  r.tie = is_half_quantum(lowest, quantum);
  return r;
}

// Evaluates elements of one instruction's D step by step.
class Walker {
 public:
  // full: every step of every element (the value too); otherwise an element
  // stops once it is inexact and tie_wanted is false or it had a tie.
  Walker(const Instr& instr, const Operands& ops, bool full)
      : instr_(instr),
        ops_(ops),
        full_(full),
        in_(format_of(instr.a_type)),
        c_format_(format_of(instr.c_type)),
        s_(scratch()),
        a_(values(0, ops.a.elems.size())),
        b_(values(1, ops.b.elems.size())),
        a_loaded_(ops.a.elems.size()),
        b_loaded_(ops.b.elems.size()) {}
  bool tie_wanted = true;

  RoundingEvents element(const Matrix& d, Element e) {
    RoundingEvents events;
    if (instr_.family == Family::kE2m1) {
      e2m1_element(d, e, &events);
    } else if (finite_inputs(e)) {
      events.classified = true;
      if (instr_.family == Family::kF64)
        f64_element(e, &events);
      else
        f16_element(e, &events);
    }
    return events;
  }

 private:
  bool done(const RoundingEvents& events) const {
    return !full_ && events.inexact && (events.tie || !tie_wanted);
  }

  // The element's A row, B column and C all finite.
  bool finite_inputs(Element e) const {
    if (!is_finite(ops_.c.at(e.batch, e.row, e.col), c_format_)) return false;
    for (int i = 0; i < instr_.shape.k; ++i)
      if (!is_finite(ops_.a.at(e.batch, e.row, i), in_) ||
          !is_finite(ops_.b.at(e.batch, i, e.col), in_))
        return false;
    return true;
  }

  // An element of A or B, loaded on first use.
  mpfr_ptr operand(const Matrix& m, std::vector<std::unique_ptr<Real>>& values,
                   std::vector<char>* loaded, int batch, int row, int col) {
    const size_t index = (size_t(batch) * m.rows + row) * m.cols + col;
    mpfr_ptr value = values[index]->get();
    if (!(*loaded)[index]) {
      load(value, m.elems[index], in_);
      (*loaded)[index] = 1;
    }
    return value;
  }

  enum class Next { kGo, kStop, kInfinite };

  // Rounds `exact` to f in rnd into `out`, noting the events. An exact step
  // keeps its value as it is (no conversion); an inexact one is rounded by
  // MPFR, unless the element stops there (done: its value is not needed).
  Next step(mpfr_ptr exact, FpFormat f, mpfr_rnd_t rnd, mpfr_ptr out, RoundingEvents* events) {
    const StepRounding r = classify_step(exact, f);
    events->inexact |= r.inexact;
    events->tie |= r.tie;
    if (done(*events)) return Next::kStop;
    if (!r.inexact) {
      mpfr_swap(out, exact);
      return Next::kGo;
    }
    const uint64_t bits = rounded(exact, f, rnd);
    if (!is_finite(bits, f)) {
      events->value = bits;
      return Next::kInfinite;
    }
    load(out, bits, f);
    return Next::kGo;
  }

  // acc = a_i * b_i + acc (acc: a value of f), rounded to f in rnd.
  Next product_step(Element e, int i, mpfr_ptr acc, FpFormat f, mpfr_rnd_t rnd,
                    RoundingEvents* events) {
    mpfr_ptr a = operand(ops_.a, a_, &a_loaded_, e.batch, e.row, i);
    mpfr_ptr b = operand(ops_.b, b_, &b_loaded_, e.batch, i, e.col);
    const mpfr_prec_t product_precision = 2 * in_.precision();
    if (mpfr_get_prec(s_.product.get()) != product_precision)
      mpfr_set_prec(s_.product.get(), product_precision);
    require_exact(mpfr_mul(s_.product.get(), a, b, rnd), "product");
    add_exact(s_.exact.get(), s_.product.get(), acc, rnd);
    return step(s_.exact.get(), f, rnd, acc, events);
  }

  // x += y rounded to binary32, nearest even.
  Next sum_step(mpfr_ptr x, mpfr_srcptr y, RoundingEvents* events) {
    add_exact(s_.exact.get(), x, y, MPFR_RNDN);
    return step(s_.exact.get(), kBinary32, MPFR_RNDN, x, events);
  }

  // f64: d = fma(a3,b3, fma(a2,b2, fma(a1,b1, fma(a0,b0,c)))), each step in
  // the instruction's mode. Past an overflow to infinity every later step
  // is infinity plus a finite product: infinity.
  void f64_element(Element e, RoundingEvents* events) {
    const mpfr_rnd_t rnd = mpfr_mode(instr_.rounding);
    mpfr_ptr acc = s_.acc.get();
    load(acc, ops_.c.at(e.batch, e.row, e.col), kBinary64);
    for (int i = 0; i < instr_.shape.k; ++i) {
      const Next next = product_step(e, i, acc, kBinary64, rnd, events);
      if (next == Next::kStop) return;
      if (next == Next::kInfinite) {
        events->has_value = true;  // events->value: the infinity
        return;
      }
    }
    events->value = rounded(acc, kBinary64, rnd);  // exact: acc is a double
    events->has_value = true;
  }

  // f16 inputs (every step binary32, nearest even; the order tests/data/VECTORS.md states):
  // f32 D: acc = fma(a0,b0,+0), acc = fma(ai,bi,acc) for i = 1..3, d = c + acc;
  // f16 D: p01 = fma(a1,b1, a0*b0), p23 = fma(a3,b3, a2*b2),
  //        s = (c + p01) + p23, d = s rounded to binary16.
  // Binary32 steps cannot overflow from binary16 inputs (were one infinite,
  // the element would stop without a value).
  void f16_element(Element e, RoundingEvents* events) {
    mpfr_ptr c = s_.c.get();
    load(c, ops_.c.at(e.batch, e.row, e.col), c_format_);
    if (instr_.d_type == ElemType::kF32) {
      mpfr_ptr acc = s_.acc.get();
      load(acc, 0, kBinary32);
      for (int i = 0; i < instr_.shape.k; ++i)
        if (product_step(e, i, acc, kBinary32, MPFR_RNDN, events) != Next::kGo) return;
      if (sum_step(c, acc, events) != Next::kGo) return;
      events->value = rounded(c, kBinary32, MPFR_RNDN);  // exact
    } else {
      mpfr_ptr pairs[2] = {s_.acc.get(), s_.pair.get()};
      for (int pair = 0; pair < 2; ++pair) {
        // a_i * b_i alone: fma with a zero addend of the product's sign.
        const int i = 2 * pair;
        const bool negative = is_negative(ops_.a.at(e.batch, e.row, i), in_) !=
                              is_negative(ops_.b.at(e.batch, i, e.col), in_);
        load(pairs[pair], negative ? 0x80000000u : 0, kBinary32);
        if (product_step(e, i, pairs[pair], kBinary32, MPFR_RNDN, events) != Next::kGo ||
            product_step(e, i + 1, pairs[pair], kBinary32, MPFR_RNDN, events) != Next::kGo)
          return;
      }
      if (sum_step(c, pairs[0], events) != Next::kGo || sum_step(c, pairs[1], events) != Next::kGo)
        return;
      const Next next = step(c, kBinary16, MPFR_RNDN, s_.term.get(), events);
      if (next == Next::kStop) return;
      if (next == Next::kGo) events->value = rounded(s_.term.get(), kBinary16, MPFR_RNDN);  // exact
    }
    events->has_value = true;
  }

  // e2m1: D against the exact sum C + sum over k of a*b*scale_a*scale_b
  // (the truncations toward zero and the 35-bit window make D differ).
  void e2m1_element(const Matrix& d, Element e, RoundingEvents* events) {
    const uint64_t c = ops_.c.at(e.batch, e.row, e.col), out = d.at(e.batch, e.row, e.col);
    if (!is_finite(c, kBinary32) || is_nan(out, kBinary32)) return;
    load(s_.acc.get(), c, kBinary32);
    const int block = instr_.scale_block();
    for (int j = 0; j < instr_.scale_blocks(); ++j) {
      long sa, ea, sb, eb;
      if (!decode_scale(ops_.scale_a.at(0, e.row, j), instr_.scale_type, &sa, &ea) ||
          !decode_scale(ops_.scale_b.at(0, j, e.col), instr_.scale_type, &sb, &eb))
        return;
      long quarters = 0;
      for (int k = j * block; k < (j + 1) * block; ++k)
        quarters +=
            e2m1_halves(ops_.a.at(e.batch, e.row, k)) * e2m1_halves(ops_.b.at(e.batch, k, e.col));
      mpfr_set_prec(s_.term.get(), 64);
      require_exact(mpfr_set_si_2exp(s_.term.get(), quarters * sa * sb, ea + eb - 2, MPFR_RNDN),
                    "e2m1 term");
      add_exact(s_.exact.get(), s_.acc.get(), s_.term.get(), MPFR_RNDN);
      mpfr_swap(s_.exact.get(), s_.acc.get());
    }
    events->classified = true;
    if (!is_finite(out, kBinary32)) {
      events->inexact = true;  // infinite from finite inputs: overflow
      return;
    }
    load(s_.exact.get(), out, kBinary32);
    events->inexact = !mpfr_equal_p(s_.exact.get(), s_.acc.get());
  }

  const Instr& instr_;
  const Operands& ops_;
  const bool full_;
  const FpFormat in_, c_format_;
  // MPFR's variables, kept per thread from one instruction to the next
  // (allocating them per instruction cost more than the steps).
  static Scratch& scratch() {
    thread_local Scratch s;
    return s;
  }
  static std::vector<std::unique_ptr<Real>>& values(int which, size_t count) {
    thread_local std::vector<std::unique_ptr<Real>> pools[2];
    auto& pool = pools[which];
    while (pool.size() < count) pool.push_back(std::make_unique<Real>());
    return pool;
  }

  Scratch& s_;
  std::vector<std::unique_ptr<Real>>& a_;
  std::vector<std::unique_ptr<Real>>& b_;
  std::vector<char> a_loaded_, b_loaded_;
};

template <typename Visit>
void for_each_element(const Matrix& d, Visit&& visit) {
  for (int batch = 0; batch < d.batches; ++batch)
    for (int row = 0; row < d.rows; ++row)
      for (int col = 0; col < d.cols; ++col)
        if (!visit(Element{batch, row, col})) return;
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

StepRounding round_step(mpfr_srcptr x, FpFormat f, mpfr_rnd_t rnd) {
  StepRounding r = classify_step(x, f);
  r.bits = rounded(x, f, rnd);
  return r;
}

StepRounding round_step_by_neighbours(mpfr_srcptr x, FpFormat f, mpfr_rnd_t rnd) {
  StepRounding r;
  const uint64_t down = rounded(x, f, MPFR_RNDD), up = rounded(x, f, MPFR_RNDU);
  r.bits = rnd == MPFR_RNDD ? down : rnd == MPFR_RNDU ? up : rounded(x, f, rnd);
  if (down == up) return r;  // representable (a zero keeps its sign)
  r.inexact = true;
  Real low, high, mid(f.precision() + 2);  // neighbours: their sum needs precision + 1
  load_extended(low.get(), down, f);
  load_extended(high.get(), up, f);
  require_exact(mpfr_add(mid.get(), low.get(), high.get(), MPFR_RNDN), "midpoint");
  mpfr_div_2ui(mid.get(), mid.get(), 1, MPFR_RNDN);
  r.tie = mpfr_equal_p(x, mid.get());
  return r;
}

std::vector<RoundingEvents> rounding_events(const Instr& instr, const Operands& ops,
                                            const Matrix& d) {
  std::vector<RoundingEvents> events;
  events.reserve(d.elems.size());
  Walker walker(instr, ops, /*full=*/true);
  for_each_element(d, [&](Element e) {
    events.push_back(walker.element(d, e));
    return true;
  });
  return events;
}

RoundingSummary summarize_rounding(const Instr& instr, const Operands& ops, const Matrix& d) {
  RoundingSummary summary;
  const bool ties = instr.family != Family::kE2m1;
  Walker walker(instr, ops, /*full=*/false);
  for_each_element(d, [&](Element e) {
    // f16 (four quad pairs' 8x8 products, alike but for their operands):
    // the first quad pair's only, a quarter of the cost (an instruction
    // whose elements are all exact is evaluated in full).
    if (instr.family == Family::kF16 && e.batch > 0) return false;
    walker.tie_wanted = ties && !summary.tie;
    const RoundingEvents events = walker.element(d, e);
    summary.exact |= events.classified && !events.inexact;
    summary.inexact |= events.inexact;
    summary.tie |= events.tie;
    return !(summary.exact && summary.inexact && (summary.tie || !ties));
  });
  // The zeros of D (rare outside the directed cases): underflowed, or exact.
  const FpFormat df = format_of(instr.d_type);
  Walker zeros(instr, ops, /*full=*/false);
  zeros.tie_wanted = false;
  for_each_element(d, [&](Element e) {
    if (instr.family == Family::kF16 && e.batch > 0) return false;
    const uint64_t bits = d.at(e.batch, e.row, e.col);
    if ((bits & ~(uint64_t{1} << (df.width() - 1))) != 0) return true;
    const RoundingEvents events = zeros.element(d, e);
    summary.inexact_zero |= events.classified && events.inexact;
    return !summary.inexact_zero;
  });
  return summary;
}

}  // namespace tcu
