// Shared pieces of the floating-point RTL unit tests (test_fma.cpp,
// test_f16_dot.cpp, test_f64_dot.cpp): a random operand generator biased
// toward the corners of a binary format, a host-IEEE f32 FMA reference, and a
// cycle-exact model of a pipeline with an enable, to check that each result
// leaves a unit exactly its documented number of cycles after it entered.
#pragma once

#include <algorithm>
#include <cfenv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <deque>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "tcu/golden.h"
#include "verilated.h"

namespace tcu_test {

// ---- binary formats ----------------------------------------------------------
struct FpFormat {
  int exp_bits;
  int man_bits;
  int width() const { return 1 + exp_bits + man_bits; }
  int precision() const { return man_bits + 1; }
  uint64_t bias() const { return (uint64_t(1) << (exp_bits - 1)) - 1; }
  uint64_t exp_max() const { return (uint64_t(1) << exp_bits) - 1; }  // all ones
  uint64_t man_mask() const { return (uint64_t(1) << man_bits) - 1; }
  uint64_t quiet_bit() const { return uint64_t(1) << (man_bits - 1); }
  uint64_t pack(uint64_t sign, uint64_t exp, uint64_t man) const {
    return (sign << (exp_bits + man_bits)) | ((exp & exp_max()) << man_bits) | (man & man_mask());
  }
  uint64_t sign_of(uint64_t x) const { return (x >> (exp_bits + man_bits)) & 1; }
  uint64_t exp_of(uint64_t x) const { return (x >> man_bits) & exp_max(); }
  uint64_t man_of(uint64_t x) const { return x & man_mask(); }
  bool is_nan(uint64_t x) const { return exp_of(x) == exp_max() && man_of(x) != 0; }
};
inline constexpr FpFormat kFp16{5, 10};
inline constexpr FpFormat kFp32{8, 23};
inline constexpr FpFormat kFp64{11, 52};

inline float as_float(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}
inline uint32_t float_bits(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  return bits;
}
inline double as_double(uint64_t bits) {
  double d;
  std::memcpy(&d, &bits, sizeof d);
  return d;
}
inline uint64_t double_bits(double d) {
  uint64_t bits;
  std::memcpy(&bits, &d, sizeof bits);
  return bits;
}

// The golden model's fp32 step: a host fma (IEEE, nearest even; the host
// rounding mode is never changed in these tests), any NaN canonical.
inline uint32_t ref_f32_fma(uint32_t a, uint32_t b, uint32_t c) {
  const float d = std::fma(as_float(a), as_float(b), as_float(c));
  return std::isnan(d) ? tcu::kF32CanonicalNan : float_bits(d);
}

// The same in any rounding mode (the RTL's FP32 FMA has all four; the f16
// path uses only nearest even). Needs -frounding-math.
inline uint32_t ref_f32_fma(uint32_t a, uint32_t b, uint32_t c, tcu::Rounding mode) {
  static constexpr int kHostMode[] = {FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD};
  const int saved = std::fegetround();
  std::fesetround(kHostMode[static_cast<int>(mode)]);
  const float d = std::fma(as_float(a), as_float(b), as_float(c));
  std::fesetround(saved);
  return std::isnan(d) ? tcu::kF32CanonicalNan : float_bits(d);
}

inline std::string hex(uint64_t v, int width_bits) {
  std::string s = "0x";
  for (int shift = (width_bits + 3) / 4 * 4 - 4; shift >= 0; shift -= 4)
    s += "0123456789abcdef"[(v >> shift) & 0xf];
  return s;
}

// Result classes, to check that a random stream reaches every kind of result.
enum class FpClass { kPosZero, kNegZero, kSubnormal, kNormal, kInf, kNan, kCount };
inline FpClass classify(const FpFormat& f, uint64_t x) {
  if (f.exp_of(x) == f.exp_max()) return f.man_of(x) ? FpClass::kNan : FpClass::kInf;
  if (f.exp_of(x) != 0) return FpClass::kNormal;
  if (f.man_of(x) != 0) return FpClass::kSubnormal;
  return f.sign_of(x) ? FpClass::kNegZero : FpClass::kPosZero;
}
struct ClassCounts {
  long n[static_cast<int>(FpClass::kCount)] = {};
  void add(const FpFormat& f, uint64_t x) { ++n[static_cast<int>(classify(f, x))]; }
  long operator[](FpClass c) const { return n[static_cast<int>(c)]; }
  std::string str() const {
    static const char* kNames[] = {"+0", "-0", "subnormal", "normal", "inf", "nan"};
    std::string s;
    for (int i = 0; i < static_cast<int>(FpClass::kCount); ++i)
      s += std::string(kNames[i]) + "=" + std::to_string(n[i]) + " ";
    return s;
  }
  // Every class at least `min` times.
  bool all_at_least(long min) const {
    for (long v : n)
      if (v < min) return false;
    return true;
  }
};

// ---- operand generator ---------------------------------------------------------
class FpGen {
 public:
  explicit FpGen(uint64_t seed) : rng_(seed) {}

  uint64_t u64() { return rng_(); }
  uint64_t below(uint64_t n) { return n == 0 ? 0 : rng_() % n; }
  int64_t range(int64_t lo, int64_t hi) {  // inclusive
    return lo + static_cast<int64_t>(below(static_cast<uint64_t>(hi - lo + 1)));
  }
  bool chance(int percent) { return below(100) < static_cast<uint64_t>(percent); }

  // A significand field with a shape that makes ties, carries and long
  // borrow chains likely.
  uint64_t mantissa(const FpFormat& f) {
    const uint64_t mask = f.man_mask();
    switch (below(9)) {
      case 0: return 0;
      case 1: return mask;                                    // all ones
      case 2: return uint64_t(1) << below(f.man_bits);        // one bit
      case 3: return (uint64_t(1) << below(f.man_bits)) | (uint64_t(1) << below(f.man_bits));
      case 4: return mask & ~(mask >> range(1, f.man_bits));  // top bits set
      case 5: return mask >> range(1, f.man_bits);            // low bits set
      case 6: return 1;
      default: return u64() & mask;
    }
  }

  // Any value of the format, weighted toward special and boundary values.
  uint64_t operand(const FpFormat& f) {
    const uint64_t s = below(2);
    const uint64_t emax = f.exp_max();
    switch (below(22)) {
      case 0: return f.pack(s, 0, 0);                                   // +-0
      case 1: return f.pack(s, 0, 1);                                   // min subnormal
      case 2: return f.pack(s, 0, f.man_mask());                        // max subnormal
      case 3: return f.pack(s, 0, mantissa(f) | (chance(50) ? 0 : 1));  // subnormal
      case 4: return f.pack(s, 1, 0);                                   // min normal
      case 5: return f.pack(s, 1, mantissa(f));
      case 6: return f.pack(s, emax - 1, f.man_mask());                 // max finite
      case 7: return f.pack(s, emax - 1 - below(3), mantissa(f));       // near overflow
      case 8: return f.pack(s, emax, 0);                                // +-Inf
      case 9: return f.pack(s, emax, f.quiet_bit() | (u64() & (f.man_mask() >> range(0, f.man_bits - 1))));
      case 10: {  // signalling NaN, payload kept non-zero
        uint64_t payload = u64() & (f.man_mask() >> 1);
        return f.pack(s, emax, payload == 0 ? 1 : payload);
      }
      case 11: return f.pack(s, f.bias(), 0);  // +-1
      case 12: return f.pack(s, f.bias() - 1 + below(3), mantissa(f));
      case 13: return u64() & ((f.width() == 64) ? ~uint64_t(0) : ((uint64_t(1) << f.width()) - 1));
      default: {  // normal, moderate exponent
        const int64_t spread = f.exp_bits >= 8 ? 40 : 6;
        const int64_t e = static_cast<int64_t>(f.bias()) + range(-spread, spread);
        return f.pack(s, static_cast<uint64_t>(e), mantissa(f));
      }
    }
  }

  // Like operand(), without Inf and NaN.
  uint64_t finite(const FpFormat& f) {
    uint64_t x;
    do x = operand(f);
    while (f.exp_of(x) == f.exp_max());
    return x;
  }

  // operand() with Inf and NaN only `percent` percent of the time (a dot
  // product of nine corner-biased operands is otherwise mostly NaN).
  uint64_t mostly_finite(const FpFormat& f, int percent) {
    return chance(percent) ? operand(f) : finite(f);
  }

  // A finite non-zero value with a chosen biased exponent (0 = subnormal).
  uint64_t with_exp(const FpFormat& f, int64_t e) {
    const int64_t emax = static_cast<int64_t>(f.exp_max());
    if (e <= 0) return f.pack(below(2), 0, mantissa(f) | 1);
    if (e >= emax) e = emax - 1;
    return f.pack(below(2), static_cast<uint64_t>(e), mantissa(f));
  }

  // A biased exponent from the whole range, boundaries likely.
  int64_t exponent(const FpFormat& f) {
    const int64_t emax = static_cast<int64_t>(f.exp_max());
    const int64_t bias = static_cast<int64_t>(f.bias());
    switch (below(6)) {
      case 0: return range(0, 2);
      case 1: return range(emax - 3, emax - 1);
      case 2: return range(bias - 3, bias + 3);
      case 3: return range(bias / 2, bias + bias / 2);
      default: return range(0, emax - 1);
    }
  }

 private:
  std::mt19937_64 rng_;
};

// Operands of one FMA a*b + c aimed at the datapath's cases: far and near
// alignment, cancellation, overflow and underflow of the product, zeros,
// specials. round_product(a, b) is the format's a*b rounded to nearest (only
// used to build a nearly cancelling c).
struct FmaOperands {
  uint64_t a, b, c;
};

template <class RoundProduct>
FmaOperands fma_operands(FpGen& g, const FpFormat& f, RoundProduct round_product) {
  const int64_t bias = static_cast<int64_t>(f.bias());
  const int64_t emax = static_cast<int64_t>(f.exp_max());
  const int64_t p = f.precision();
  FmaOperands o{g.operand(f), g.operand(f), g.operand(f)};
  switch (g.below(10)) {
    case 0:
    case 1:
    case 2: return o;  // independent corner-biased operands
    case 3:
    case 4:
    case 5: {  // addend aligned around the product, at the window's edges
      const int64_t ea = g.exponent(f), eb = g.exponent(f);
      o.a = g.with_exp(f, ea);
      o.b = g.with_exp(f, eb);
      const int64_t ep = std::max<int64_t>(ea, 1) + std::max<int64_t>(eb, 1) - bias;
      int64_t delta;
      switch (g.below(6)) {
        case 0: delta = g.range(-3, 3); break;
        case 1: delta = g.range(p + 1, p + 5); break;
        case 2: delta = g.range(-2 * p - 3, -2 * p + 1); break;
        case 3: delta = g.range(-p - 3, -p + 1); break;
        case 4: delta = g.range(-3 * p - 8, 3 * p + 8); break;
        default: delta = g.range(-emax, emax); break;
      }
      const int64_t ec = ep + delta;
      if (ec <= 0 && g.chance(30)) {
        o.c = f.pack(g.below(2), 0, g.chance(50) ? 0 : g.mantissa(f));
      } else {
        o.c = g.with_exp(f, std::min(std::max<int64_t>(ec, 0), emax - 1));
      }
      return o;
    }
    case 6:
    case 7: {  // c cancels a*b, exactly or to a few ulps
      const int64_t ea = g.range(bias / 2, bias + bias / 2);
      o.a = g.with_exp(f, ea);
      o.b = g.with_exp(f, g.chance(20) ? g.exponent(f) : g.range(bias / 2, bias + bias / 2));
      uint64_t prod = round_product(o.a, o.b);
      if (f.exp_of(prod) == f.exp_max()) return o;  // overflowed: leave c random
      // c = -(a*b), its magnitude moved by a few ulps (staying finite).
      const uint64_t sign = uint64_t(1) << (f.width() - 1);
      const uint64_t mag = prod & (sign - 1);
      const int64_t nudge = g.range(-3, 3);
      const uint64_t moved = mag + static_cast<uint64_t>(nudge);
      o.c = ((prod & sign) ^ sign) | (mag > 3 && f.exp_of(moved) != f.exp_max() ? moved : mag);
      return o;
    }
    case 8: {  // product near overflow
      const int64_t ea = g.range(bias, emax - 1);
      const int64_t eb = std::min(emax - 1, std::max<int64_t>(1, emax - 1 + bias - ea + g.range(-2, 1)));
      o.a = g.with_exp(f, ea);
      o.b = g.with_exp(f, eb);
      if (g.chance(50)) o.c = g.with_exp(f, emax - 1 - g.below(3));
      return o;
    }
    default: {  // product near or below the subnormal range
      const int64_t target = g.range(-p - 4, 3);  // product exponent
      const int64_t ea = g.range(1, bias);
      const int64_t eb = std::max<int64_t>(0, target + bias - ea);
      o.a = g.with_exp(f, ea);
      o.b = g.with_exp(f, eb);
      if (g.chance(40)) o.c = f.pack(g.below(2), 0, g.chance(50) ? 0 : g.mantissa(f));
      return o;
    }
  }
}

// ---- pipeline timing -----------------------------------------------------------
// Models a pipeline of `latency` registers that advance only with en_i: what
// must be on the outputs in the current cycle, given what is on the inputs.
template <class T>
class PipeModel {
 public:
  explicit PipeModel(int latency) : latency_(latency), regs_(static_cast<size_t>(latency)) {}
  // Output expected now (before the clock edge), with `in` on the inputs.
  const std::optional<T>& out(const std::optional<T>& in) const {
    return latency_ == 0 ? in : regs_.back();
  }
  // The clock edge.
  void clock(bool en, const std::optional<T>& in) {
    if (!en || latency_ == 0) return;
    regs_.pop_back();
    regs_.push_front(in);
  }

 private:
  int latency_;
  std::deque<std::optional<T>> regs_;
};

}  // namespace tcu_test

// ---- a cycle-by-cycle bench for a verilated unit ---------------------------------
namespace tcu_test {

// Drives a verilated unit with clk_i, rst_ni, en_i, valid_i and valid_o.
// Unit supplies: using In/Out; static void apply(Model&, const In&);
// static Out read(const Model&); static Out expected(const In&);
// static std::string describe(const In&, const Out& got, const Out& want).
template <class Model, class Unit>
class UnitBench {
 public:
  using In = typename Unit::In;
  using Out = typename Unit::Out;
  struct Expect {
    Out out;
    In in;
  };

  explicit UnitBench(int latency)
      : ctx_(std::make_unique<VerilatedContext>()),
        model_(std::make_unique<Model>(ctx_.get())),
        pipe_(latency),
        latency_(latency) {
    model_->clk_i = 0;
    model_->rst_ni = 0;
    model_->en_i = 0;
    model_->valid_i = 0;
    model_->eval();
    model_->rst_ni = 1;
    model_->eval();
  }
  ~UnitBench() {
    // The model tears its scopes (public signals) down through the thread's
    // current context: make it this model's own, since another bench may
    // have been built (and destroyed) since this one.
    Verilated::threadContextp(ctx_.get());
    model_->final();
    model_.reset();
  }

  void cycle(bool en, const std::optional<In>& in) {
    std::optional<Expect> now;
    if (in) {
      now = Expect{Unit::expected(*in), *in};
      Unit::apply(*model_, *in);
    }
    model_->en_i = en;
    model_->valid_i = in.has_value();
    model_->eval();
    check(pipe_.out(now), en);
    if (in && en) ++accepted_;
    model_->clk_i = 1;
    model_->eval();
    model_->clk_i = 0;
    model_->eval();
    pipe_.clock(en, now);
    ++cycles_;
  }

  // Back to back with en high; with `stalls`, random bubbles and en low.
  void run(const std::vector<In>& inputs, FpGen* stalls = nullptr) {
    for (const In& in : inputs) {
      while (stalls && stalls->chance(15)) cycle(stalls->chance(60), std::nullopt);
      cycle(stalls ? !stalls->chance(20) : true, in);
    }
    drain();
  }
  // (latency enabled cycles bring the last input out.)
  void drain() {
    for (int i = 0; i < latency_ + 1; ++i) cycle(true, std::nullopt);
  }

  // Cycles from a lone input to valid_o, with en low for `stall` cycles
  // right after it entered; -1 if it never comes (within twice the
  // expected latency, the stall and 16 more).
  int latency(const In& in, int stall) {
    drain();
    Unit::apply(*model_, in);
    model_->valid_i = 1;
    model_->en_i = 1;
    for (int t = 0; t < 2 * latency_ + stall + 16; ++t) {
      model_->eval();
      if (model_->valid_o) return t;
      model_->clk_i = 1;
      model_->eval();
      model_->clk_i = 0;
      model_->valid_i = 0;
      model_->en_i = t >= stall;
    }
    return -1;
  }

  // Outputs compared (a result held by a stall is compared every cycle).
  long checked() const { return checked_; }
  // Inputs taken in (valid_i with en_i high) and results handed on (valid_o
  // with en_i high): equal once drained.
  long accepted() const { return accepted_; }
  long results() const { return results_; }
  long mismatches() const { return mismatches_; }
  const std::string& first_failures() const { return failures_; }
  Model& model() { return *model_; }

 private:
  void check(const std::optional<Expect>& want, bool en) {
    const bool valid = model_->valid_o;
    if (valid != want.has_value()) {
      fail("valid_o is " + std::to_string(valid) + " at cycle " + std::to_string(cycles_));
      return;
    }
    if (!valid) return;
    ++checked_;
    if (en) ++results_;
    const Out got = Unit::read(*model_);
    if (!(got == want->out)) fail(Unit::describe(want->in, got, want->out));
  }
  void fail(const std::string& what) {
    if (++mismatches_ <= 10) failures_ += what + "\n";
  }

  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Model> model_;
  PipeModel<Expect> pipe_;
  int latency_;
  long cycles_ = 0, checked_ = 0, mismatches_ = 0, accepted_ = 0, results_ = 0;
  std::string failures_;
};

}  // namespace tcu_test
