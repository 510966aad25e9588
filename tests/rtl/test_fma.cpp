// rtl/tcu_fma.sv against the golden model, bit-exact, at four settings, two
// of each form (tcu_fma_three below tcu_pkg::FMA_STEPS_FROM, tcu_fma_steps
// from there on):
//   Vtcu_fma_f64_s0:  FP64, DMMA NaN rules, Stages = 0 (against tcu::f64_fma)
//   Vtcu_fma_f64_s22: FP64, Stages = 22: a register after every step
//                     (tcu_pkg::fma_cuts), the rest at the output
//   Vtcu_fma_f32_s3:  FP32, canonical NaN,  Stages = 3 (against the host fma,
//                     NaN made canonical, as the golden f16 path's steps)
//   Vtcu_fma_f32_s9:  FP32, Stages = 9, InFo4 = 20 (a middle setting of the
//                     step form, with a register at the inputs)
// Both in all four rounding modes, on corner-biased random operands and on
// directed cases, with random stalls and bubbles, each result checked to
// leave exactly Stages enabled cycles after it entered.
#include <catch2/catch.hpp>

#include <array>
#include <memory>
#include <type_traits>
#include <vector>

#include "Vtcu_fma_f32_s3.h"
#include "Vtcu_fma_f32_s9.h"
#include "Vtcu_fma_f64_s0.h"
#include "Vtcu_fma_f64_s22.h"
#include "fp_rtl_util.h"
#include "verilated.h"

using tcu::Rounding;
using tcu_test::FpFormat;
using tcu_test::FpGen;
using tcu_test::hex;
using tcu_test::kFp32;
using tcu_test::kFp64;

namespace {

constexpr int kF64Stages = 0;  // the -G values in tests/rtl/fp_units.cmake
constexpr int kF32Stages = 3;
constexpr int kF64DeepStages = 22;
constexpr int kF32DeepStages = 9;

struct FmaIn {
  uint64_t a, b, c;
  Rounding rnd;
};

struct Expect {
  uint64_t result;
  uint16_t tag;
  FmaIn in;
};

uint64_t expected_f64(const FmaIn& in) { return tcu::f64_fma(in.a, in.b, in.c, in.rnd); }
uint64_t expected_f32(const FmaIn& in) {
  return tcu_test::ref_f32_fma(static_cast<uint32_t>(in.a), static_cast<uint32_t>(in.b),
                               static_cast<uint32_t>(in.c), in.rnd);
}

// Drives one verilated tcu_fma cycle by cycle and compares every output with
// the pipeline model.
template <class Model>
class FmaBench {
 public:
  FmaBench(int stages, const FpFormat& format, uint64_t (*expected)(const FmaIn&))
      : ctx_(std::make_unique<VerilatedContext>()),
        model_(std::make_unique<Model>(ctx_.get())),
        pipe_(stages),
        stages_(stages),
        format_(format),
        expected_(expected) {
    model_->clk_i = 0;
    model_->rst_ni = 0;
    model_->en_i = 0;
    model_->valid_i = 0;
    model_->eval();
    model_->rst_ni = 1;
    model_->eval();
  }
  ~FmaBench() {
    // The model tears its scopes (public signals) down through the thread's
    // current context: make it this model's own, since another bench may
    // have been built (and destroyed) since this one.
    Verilated::threadContextp(ctx_.get());
    model_->final();
    model_.reset();
  }

  // One clock cycle with `in` (or a bubble) on the inputs.
  void cycle(bool en, const std::optional<FmaIn>& in) {
    std::optional<Expect> now;
    if (in) now = Expect{expected_(*in), tag_++, *in};
    model_->en_i = en;
    model_->valid_i = in.has_value();
    if (in) {
      model_->a_i = static_cast<std::remove_reference_t<decltype(model_->a_i)>>(in->a);
      model_->b_i = static_cast<std::remove_reference_t<decltype(model_->b_i)>>(in->b);
      model_->c_i = static_cast<std::remove_reference_t<decltype(model_->c_i)>>(in->c);
      model_->rnd_i = static_cast<uint8_t>(in->rnd);
      model_->aux_i = now->tag;
    }
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

  // Feeds `inputs` back to back with en high, then drains.
  void run(const std::vector<FmaIn>& inputs, FpGen* stalls = nullptr) {
    for (const FmaIn& in : inputs) {
      while (stalls && stalls->chance(15)) cycle(stalls->chance(60), std::nullopt);
      cycle(stalls ? !stalls->chance(20) : true, in);
    }
    drain();
  }
  // (Stages enabled cycles bring the last input out.)
  void drain() {
    for (int i = 0; i < stages_ + 1; ++i) cycle(true, std::nullopt);
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
    const uint64_t got = model_->result_o;
    const uint16_t tag = model_->aux_o;
    if (got != want->result || tag != want->tag) {
      const int w = format_.width();
      fail("a=" + hex(want->in.a, w) + " b=" + hex(want->in.b, w) + " c=" + hex(want->in.c, w) +
           " rnd=" + std::to_string(static_cast<int>(want->in.rnd)) + ": got " + hex(got, w) +
           " want " + hex(want->result, w) + " (tag " + std::to_string(tag) + " want " +
           std::to_string(want->tag) + ")");
    }
  }
  void fail(const std::string& what) {
    if (++mismatches_ <= 10) failures_ += what + "\n";
  }

  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Model> model_;
  tcu_test::PipeModel<Expect> pipe_;
  int stages_;
  FpFormat format_;
  uint64_t (*expected_)(const FmaIn&);
  uint16_t tag_ = 0;
  long cycles_ = 0, checked_ = 0, mismatches_ = 0, accepted_ = 0, results_ = 0;
  std::string failures_;
};

template <class Model>
void require_clean(const FmaBench<Model>& bench) {
  INFO(bench.first_failures());
  CHECK(bench.results() > 0);
  CHECK(bench.results() == bench.accepted());
  REQUIRE(bench.mismatches() == 0);
}

Rounding any_mode(FpGen& g) { return static_cast<Rounding>(g.below(4)); }

// Directed cases for one format, each in every rounding mode.
std::vector<FmaIn> directed(const FpFormat& f) {
  const uint64_t sign = uint64_t(1) << (f.width() - 1);
  const uint64_t zero = 0, nzero = sign;
  const uint64_t one = f.pack(0, f.bias(), 0), none = one | sign;
  const uint64_t two = f.pack(0, f.bias() + 1, 0);
  const uint64_t half = f.pack(0, f.bias() - 1, 0);
  const uint64_t onehalf = f.pack(0, f.bias(), uint64_t(1) << (f.man_bits - 1));
  const uint64_t inf = f.pack(0, f.exp_max(), 0), ninf = inf | sign;
  const uint64_t maxf = f.pack(0, f.exp_max() - 1, f.man_mask());
  const uint64_t minsub = f.pack(0, 0, 1), maxsub = f.pack(0, 0, f.man_mask());
  const uint64_t minnorm = f.pack(0, 1, 0);
  const uint64_t ulp1 = f.pack(0, f.bias(), 1);  // 1 + ulp
  const uint64_t tiny_rel = f.pack(0, f.bias() - f.precision() - 1, 0);  // 2^-(P+1)
  const uint64_t halfulp = f.pack(0, f.bias() - f.precision(), 0);       // 2^-P
  const uint64_t qnan_a = f.pack(0, f.exp_max(), f.quiet_bit() | 0xa);
  const uint64_t snan_b = f.pack(1, f.exp_max(), 0xb);
  const uint64_t snan_c = f.pack(0, f.exp_max(), 0xc);
  const uint64_t qnan_c = f.pack(1, f.exp_max(), f.quiet_bit() | 0xc0);

  const std::vector<std::array<uint64_t, 3>> cases = {
      // Exact zeros and their signs.
      {zero, one, zero}, {zero, one, nzero}, {nzero, one, zero}, {nzero, one, nzero},
      {zero, none, nzero}, {zero, none, zero}, {nzero, none, nzero},
      {one, one, none}, {none, one, one}, {two, half, none}, {onehalf, two, f.pack(1, f.bias() + 1, uint64_t(1) << (f.man_bits - 1))},
      {minsub, one, minsub | sign}, {maxf, one, maxf | sign},
      // Invalid operations and NaN priority (B, then C, then A).
      {inf, zero, one}, {zero, ninf, one}, {inf, zero, qnan_c}, {inf, one, ninf}, {ninf, none, ninf},
      {inf, one, inf}, {inf, two, one}, {one, one, ninf}, {inf, maxf, ninf},
      {qnan_a, snan_b, snan_c}, {qnan_a, one, snan_c}, {qnan_a, one, one}, {one, snan_b, one},
      {one, one, snan_c}, {qnan_a, inf, zero}, {zero, inf, qnan_c}, {inf, snan_b, ninf},
      {qnan_a | sign, one, one}, {one, one, qnan_c},
      // Overflow in each mode, both signs.
      {maxf, two, zero}, {maxf | sign, two, zero}, {maxf, one, maxf}, {maxf | sign, one, maxf | sign},
      {maxf, one, halfulp}, {maxf, ulp1, zero}, {maxf, ulp1 | sign, zero},
      // Subnormals and the underflow boundary.
      {minsub, half, zero}, {minsub, half, nzero}, {minsub | sign, half, zero}, {minsub, onehalf, zero},
      {maxsub, one, minsub}, {minnorm, one, minsub | sign}, {minnorm, half, zero},
      {minnorm, half, minsub}, {maxsub, two, zero}, {minnorm, minnorm, zero},
      {minnorm, minnorm | sign, zero}, {minsub, minsub, minsub}, {maxsub, maxsub, zero},
      // Ties and near-ties against an addend (product far below it and just below).
      {tiny_rel, one, one}, {tiny_rel | sign, one, one}, {halfulp, one, one}, {halfulp | sign, one, one},
      {halfulp, one, ulp1}, {halfulp | sign, one, ulp1}, {halfulp, onehalf, one},
      {tiny_rel, tiny_rel, one}, {tiny_rel, tiny_rel | sign, one}, {minsub, minsub, maxf},
      {minsub, minsub | sign, one}, {one, one, minsub}, {one, one, minsub | sign},
      // Cancellation down to a few bits.
      {ulp1, ulp1, f.pack(1, f.bias(), 2)}, {ulp1, ulp1 | sign, f.pack(0, f.bias(), 2)},
      {onehalf, onehalf, f.pack(1, f.bias() + 1, uint64_t(1) << (f.man_bits - 3))},
  };
  std::vector<FmaIn> out;
  for (const auto& abc : cases)
    for (int m = 0; m < 4; ++m) {
      out.push_back({abc[0], abc[1], abc[2], static_cast<Rounding>(m)});
      out.push_back({abc[1], abc[0], abc[2], static_cast<Rounding>(m)});
    }
  return out;
}

// Every addend alignment from far below the product to far above it, for
// products with and without a subnormal factor (whose significand then has
// leading zeros), addends with edge significands, both effective
// operations, all modes. The window's boundaries (addend shifted out,
// product only sticky) sit in this range.
std::vector<FmaIn> alignment_sweep(const FpFormat& f, FpGen& g) {
  const int64_t p = f.precision();
  const int64_t bias = static_cast<int64_t>(f.bias());
  const uint64_t top = uint64_t(1) << (f.man_bits - 1);
  const std::vector<std::pair<uint64_t, uint64_t>> products = {
      {f.pack(0, bias, 0), f.pack(0, bias, 0)},                  // 1 * 1
      {f.pack(0, bias, f.man_mask()), f.pack(0, bias, f.man_mask())},
      {f.pack(0, bias, 1), f.pack(0, bias, top)},
      // A subnormal factor, the other large enough that every addend
      // alignment has a normal addend.
      {f.pack(0, 0, 1), f.pack(0, bias + 3 * p + 8, 0)},          // min subnormal * 2^k
      {f.pack(0, 0, top), f.pack(0, bias + 3 * p + 8, f.man_mask())},
      {f.pack(0, 0, 3), f.pack(0, bias + 3 * p + 8, 1)},
      {f.pack(0, 0, f.man_mask()), f.pack(0, bias + 3 * p + 8, 0)},
  };
  std::vector<FmaIn> out;
  for (const auto& [a, b] : products) {
    const int64_t ep = std::max<int64_t>(f.exp_of(a), 1) + std::max<int64_t>(f.exp_of(b), 1) - bias;
    for (int64_t diff = -3 * p - 6; diff <= 3 * p + 6; ++diff) {
      const int64_t ec = ep + diff;
      if (ec < 1 || ec >= static_cast<int64_t>(f.exp_max())) continue;
      for (uint64_t man : {uint64_t(0), uint64_t(1), f.man_mask(), top, g.u64() & f.man_mask()})
        for (uint64_t sc : {0, 1}) {
          const uint64_t c = f.pack(sc, static_cast<uint64_t>(ec), man);
          out.push_back({a, b, c, any_mode(g)});
          out.push_back({a ^ (uint64_t(1) << (f.width() - 1)), b, c, any_mode(g)});
        }
    }
  }
  return out;
}

std::vector<FmaIn> random_f64(FpGen& g, int n) {
  auto round_product = [](uint64_t a, uint64_t b) {
    return tcu_test::double_bits(tcu_test::as_double(a) * tcu_test::as_double(b));
  };
  std::vector<FmaIn> v;
  for (int i = 0; i < n; ++i) {
    const auto o = tcu_test::fma_operands(g, kFp64, round_product);
    v.push_back({o.a, o.b, o.c, any_mode(g)});
  }
  return v;
}

std::vector<FmaIn> random_f32(FpGen& g, int n) {
  auto round_product = [](uint64_t a, uint64_t b) {
    return uint64_t(tcu_test::float_bits(tcu_test::as_float(static_cast<uint32_t>(a)) *
                                         tcu_test::as_float(static_cast<uint32_t>(b))));
  };
  std::vector<FmaIn> v;
  for (int i = 0; i < n; ++i) {
    const auto o = tcu_test::fma_operands(g, kFp32, round_product);
    v.push_back({o.a, o.b, o.c, any_mode(g)});
  }
  return v;
}

// Cycles from a lone input to its valid_o, en high, then with `stall` low
// cycles in the middle.
template <class Model>
int latency(FmaBench<Model>& bench, const FmaIn& in, int stall) {
  auto& m = bench.model();
  bench.drain();
  m.en_i = 1;
  m.valid_i = 1;
  m.a_i = static_cast<std::remove_reference_t<decltype(m.a_i)>>(in.a);
  m.b_i = static_cast<std::remove_reference_t<decltype(m.b_i)>>(in.b);
  m.c_i = static_cast<std::remove_reference_t<decltype(m.c_i)>>(in.c);
  m.rnd_i = 0;
  for (int t = 0; t < 40; ++t) {
    m.eval();
    if (m.valid_o) return t;
    m.clk_i = 1;
    m.eval();
    m.clk_i = 0;
    m.valid_i = 0;
    m.en_i = !(t >= 0 && t < stall);
  }
  return -1;
}

}  // namespace

TEST_CASE("tcu_fma FP64 (DMMA NaN rules, Stages=0): directed cases and alignment sweep, all modes", "[rtl][fma]") {
  FmaBench<Vtcu_fma_f64_s0> bench(kF64Stages, kFp64, expected_f64);
  bench.run(directed(kFp64));
  FpGen g(0xa1);
  bench.run(alignment_sweep(kFp64, g));
  require_clean(bench);
}

TEST_CASE("tcu_fma FP64 (DMMA NaN rules, Stages=0): random corner-biased", "[rtl][fma]") {
  FmaBench<Vtcu_fma_f64_s0> bench(kF64Stages, kFp64, expected_f64);
  FpGen g(0xf64f64);
  const auto inputs = random_f64(g, 300000);
  tcu_test::ClassCounts d;  // what the random stream reaches
  for (const auto& in : inputs) d.add(kFp64, expected_f64(in));
  INFO("results: " << d.str());
  CHECK(d.all_at_least(1000));
  bench.run(inputs);
  FpGen stalls(7);
  bench.run(random_f64(g, 20000), &stalls);
  require_clean(bench);
}

TEST_CASE("tcu_fma FP32 (canonical NaN, Stages=3): directed cases and alignment sweep, all modes", "[rtl][fma]") {
  FmaBench<Vtcu_fma_f32_s3> bench(kF32Stages, kFp32, expected_f32);
  bench.run(directed(kFp32));
  FpGen g(0xa2);
  bench.run(alignment_sweep(kFp32, g));
  require_clean(bench);
}

TEST_CASE("tcu_fma FP32 (canonical NaN, Stages=3): random corner-biased", "[rtl][fma]") {
  FmaBench<Vtcu_fma_f32_s3> bench(kF32Stages, kFp32, expected_f32);
  FpGen g(0xf32f32);
  const auto inputs = random_f32(g, 300000);
  tcu_test::ClassCounts d;  // what the random stream reaches
  for (const auto& in : inputs) d.add(kFp32, expected_f32(in));
  INFO("results: " << d.str());
  CHECK(d.all_at_least(1000));
  bench.run(inputs);
  FpGen stalls(11);
  bench.run(random_f32(g, 100000), &stalls);
  require_clean(bench);
}

TEST_CASE("tcu_fma FP64 (Stages=22, a register after every step): directed, sweep, random", "[rtl][fma]") {
  FmaBench<Vtcu_fma_f64_s22> bench(kF64DeepStages, kFp64, expected_f64);
  bench.run(directed(kFp64));
  FpGen g(0xa3);
  bench.run(alignment_sweep(kFp64, g));
  FpGen r(0xf64d);
  bench.run(random_f64(r, 100000));
  FpGen stalls(13);
  bench.run(random_f64(r, 20000), &stalls);
  require_clean(bench);
}

TEST_CASE("tcu_fma FP32 (Stages=9): directed, sweep, random", "[rtl][fma]") {
  FmaBench<Vtcu_fma_f32_s9> bench(kF32DeepStages, kFp32, expected_f32);
  bench.run(directed(kFp32));
  FpGen g(0xa4);
  bench.run(alignment_sweep(kFp32, g));
  FpGen r(0xf32d);
  bench.run(random_f32(r, 100000));
  FpGen stalls(17);
  bench.run(random_f32(r, 20000), &stalls);
  require_clean(bench);
}

TEST_CASE("tcu_fma result leaves exactly Stages enabled cycles after it entered", "[rtl][fma]") {
  const FmaIn in{kFp64.pack(0, 1023, 0), kFp64.pack(0, 1024, 0), 0, Rounding::kRn};
  FmaBench<Vtcu_fma_f64_s0> f64(kF64Stages, kFp64, expected_f64);
  CHECK(latency(f64, in, 0) == kF64Stages);
  CHECK(latency(f64, in, 3) == kF64Stages);  // no registers: stalls change nothing
  FmaBench<Vtcu_fma_f32_s3> f32(kF32Stages, kFp32, expected_f32);
  const FmaIn in32{kFp32.pack(0, 127, 0), kFp32.pack(0, 128, 0), 0, Rounding::kRn};
  CHECK(latency(f32, in32, 0) == kF32Stages);
  CHECK(latency(f32, in32, 2) == kF32Stages + 2);
  CHECK(f32.model().result_o == 0x40000000u);
  FmaBench<Vtcu_fma_f64_s22> f64d(kF64DeepStages, kFp64, expected_f64);
  CHECK(latency(f64d, in, 0) == kF64DeepStages);
  CHECK(latency(f64d, in, 3) == kF64DeepStages + 3);
  CHECK(f64d.model().result_o == kFp64.pack(0, 1024, 0));
  FmaBench<Vtcu_fma_f32_s9> f32d(kF32DeepStages, kFp32, expected_f32);
  CHECK(latency(f32d, in32, 0) == kF32DeepStages);
  CHECK(latency(f32d, in32, 4) == kF32DeepStages + 4);
}
