// The rounding bins of the functional coverage (d.exact, d.inexact, d.tie;
// tcu/rounding_events.h): the MPFR steps reproduce the golden D of every
// f16 and f64 variant, the binary16 rounding agrees with MPFR's own
// conversions where MPFR has them, and hand-built operands hit exactly the
// bins they should: each case also checks a bin it must not hit, a near
// miss of the midpoint included. The [tie] cases run again against planted
// faults in the tie test (rounding_events_planted, which must fail them).
#include <catch2/catch.hpp>
#include <cstring>
#include <limits>
#include <random>

#include "tcu/coverage.h"
#include "tcu/generator.h"
#include "tcu/golden.h"
#include "tcu/layout.h"
#include "tcu/rounding_events.h"

namespace {

uint64_t hits(const tcu::FunctionalCoverage& coverage, const tcu::Instr& instr,
              const std::string& name) {
  for (const tcu::CoverageBin& bin : coverage.bins())
    if (bin.group == instr.ptx() && bin.name == name) return bin.hits;
  FAIL("no bin " << name << " for " << instr.ptx());
  return 0;
}

using Value = uint64_t (*)(int, int);  // an element's bits from its row and column

// Operands of `instr` with A(row, k), B(k, col) and C(row, col) given per
// element (every batch alike); block scales 1.0 for e2m1.
tcu::WarpOperands operands(const tcu::Instr& instr, Value a, Value b, Value c) {
  auto fill = [&](tcu::Operand op, Value value) {
    const tcu::FragmentLayout& layout = tcu::fragment_layout(instr, op);
    tcu::Matrix m(layout.batches(), layout.rows(), layout.cols());
    for (int batch = 0; batch < m.batches; ++batch)
      for (int row = 0; row < m.rows; ++row)
        for (int col = 0; col < m.cols; ++col) m.at(batch, row, col) = value(row, col);
    return layout.scatter(m);
  };
  tcu::WarpOperands warp;
  warp.a = fill(tcu::Operand::kA, a);
  warp.b = fill(tcu::Operand::kB, b);
  warp.c = fill(tcu::Operand::kC, c);
  if (instr.block_scaled()) {
    const uint64_t one = instr.scale_type == tcu::ElemType::kUe8m0 ? 127 : 0x38;
    for (tcu::Operand op : {tcu::Operand::kScaleA, tcu::Operand::kScaleB}) {
      const tcu::FragmentLayout& layout = tcu::fragment_layout(instr, op, warp.selectors);
      tcu::Matrix m(layout.batches(), layout.rows(), layout.cols());
      for (uint64_t& e : m.elems) e = one;
      (op == tcu::Operand::kScaleA ? warp.scale_a : warp.scale_b) = layout.scatter(m);
    }
  }
  return warp;
}

uint64_t f64_bits(double v) {
  uint64_t bits;
  std::memcpy(&bits, &v, 8);
  return bits;
}

constexpr uint64_t kOne64 = 0x3ff0000000000000ull;
constexpr uint64_t kOne16 = 0x3c00, kOne32 = 0x3f800000;

// The events of every element of one instruction (they are alike here).
std::vector<tcu::RoundingEvents> events_of(const tcu::Instr& instr, const tcu::WarpOperands& w) {
  const tcu::Operands ops = tcu::gather_operands(instr, w);
  return tcu::rounding_events(instr, ops, tcu::golden_mma(instr, ops));
}

}  // namespace

TEST_CASE("round_to_format rounds as mpfr_get_d and mpfr_get_flt in every mode", "[coverage]") {
  std::mt19937_64 rng(7);
  const mpfr_rnd_t modes[] = {MPFR_RNDN, MPFR_RNDZ, MPFR_RNDD, MPFR_RNDU};
  mpfr_t x;
  mpfr_init2(x, 160);
  int compared = 0;
  for (const tcu::FpFormat f : {tcu::kBinary64, tcu::kBinary32}) {
    // Exponents around the subnormals, the largest values and 1.
    const long centres[] = {f.min_exponent() - f.precision(), f.min_exponent(), 0,
                            f.max_exponent()};
    for (int i = 0; i < 4000; ++i) {
      const int bits = 1 + int(rng() % 120);
      mpfr_set_prec(x, bits);
      mpfr_set_ui_2exp(x, rng() | 1, 0, MPFR_RNDZ);  // a random significand of `bits` bits
      const long centre = centres[rng() % 4];
      mpfr_set_exp(x, centre + long(rng() % 9) - 4);
      if (rng() % 2) mpfr_neg(x, x, MPFR_RNDN);
      if (rng() % 4 == 0) {  // a midpoint: one bit past the format's precision
        mpfr_prec_round(x, f.precision() + 1, MPFR_RNDZ);
        mpfr_nextabove(x);
      }
      for (mpfr_rnd_t rnd : modes) {
        uint64_t expected;
        if (f.width() == 64) {
          expected = f64_bits(mpfr_get_d(x, rnd));
        } else {
          const float v = mpfr_get_flt(x, rnd);
          uint32_t b32;
          std::memcpy(&b32, &v, 4);
          expected = b32;
        }
        INFO("width " << f.width() << " mode " << int(rnd) << " x " << mpfr_get_d(x, MPFR_RNDN));
        REQUIRE(tcu::round_to_format(x, f, rnd) == expected);
        ++compared;
      }
    }
  }
  mpfr_clear(x);
  CHECK(compared == 2 * 4000 * 4);
}

TEST_CASE("a step's events from its lowest bit agree with its neighbours' midpoint", "[coverage]") {
  std::mt19937_64 rng(11);
  const mpfr_rnd_t modes[] = {MPFR_RNDN, MPFR_RNDZ, MPFR_RNDD, MPFR_RNDU};
  mpfr_t x;
  mpfr_init2(x, 160);
  int ties = 0, exact = 0, inexact = 0;
  for (const tcu::FpFormat f : {tcu::kBinary16, tcu::kBinary32, tcu::kBinary64}) {
    const long centres[] = {f.min_exponent() - f.precision(), f.min_exponent(), 0,
                            f.max_exponent()};
    for (int i = 0; i < 3000; ++i) {
      const int bits = 1 + int(rng() % 80);
      mpfr_set_prec(x, bits);
      mpfr_set_ui_2exp(x, rng() | 1, 0, MPFR_RNDZ);
      mpfr_set_exp(x, centres[rng() % 4] + long(rng() % 9) - 4);
      if (rng() % 2) mpfr_neg(x, x, MPFR_RNDN);
      if (rng() % 4 == 0) {  // a normal midpoint: its last bit one past the precision
        mpfr_prec_round(x, f.precision() + 1, MPFR_RNDZ);
        if (mpfr_min_prec(x) <= f.precision()) mpfr_nextabove(x);
      }
      for (mpfr_rnd_t rnd : modes) {
        const tcu::StepRounding fast = tcu::round_step(x, f, rnd);
        const tcu::StepRounding reference = tcu::round_step_by_neighbours(x, f, rnd);
        INFO("width " << f.width() << " mode " << int(rnd) << " x " << mpfr_get_d(x, MPFR_RNDN)
                      << " bits " << bits);
        REQUIRE(fast.bits == reference.bits);
        REQUIRE(fast.inexact == reference.inexact);
        REQUIRE(fast.tie == reference.tie);
        ties += fast.tie;
        exact += !fast.inexact;
        inexact += fast.inexact && !fast.tie;
      }
    }
  }
  mpfr_clear(x);
  CHECK(ties > 2000);
  CHECK(exact > 1000);
  CHECK(inexact > 1000);
}

TEST_CASE("binary16 rounding: ties to even, overflow per mode, the smallest subnormal",
          "[coverage]") {
  mpfr_t x;
  mpfr_init2(x, 64);
  auto round = [&](double v, mpfr_rnd_t rnd) {
    mpfr_set_d(x, v, MPFR_RNDN);
    return tcu::round_to_format(x, tcu::kBinary16, rnd);
  };
  CHECK(round(1.0 + 0x1p-11, MPFR_RNDN) == 0x3c00);      // a tie: to the even 1.0
  CHECK(round(1.0 + 3 * 0x1p-11, MPFR_RNDN) == 0x3c02);  // a tie: to the even 1 + 2^-9
  CHECK(round(1.0 + 0x1p-11, MPFR_RNDU) == 0x3c01);
  CHECK(round(-(1.0 + 0x1p-11), MPFR_RNDD) == 0xbc01);
  CHECK(round(65519.0, MPFR_RNDN) == 0x7bff);  // below the midpoint of 65504 and 2^16
  CHECK(round(65520.0, MPFR_RNDN) == 0x7c00);  // the midpoint: infinity
  CHECK(round(1e6, MPFR_RNDZ) == 0x7bff);
  CHECK(round(-1e6, MPFR_RNDU) == 0xfbff);
  CHECK(round(-1e6, MPFR_RNDD) == 0xfc00);
  CHECK(round(0x1p-25, MPFR_RNDN) == 0x0000);  // half the smallest subnormal: to even 0
  CHECK(round(0x1.8p-25, MPFR_RNDN) == 0x0001);
  CHECK(round(0x1p-30, MPFR_RNDU) == 0x0001);
  CHECK(round(-0x1p-30, MPFR_RNDU) == 0x8000);
  CHECK(round(3 * 0x1p-25, MPFR_RNDN) == 0x0002);  // 1.5 q: a tie to the even 2 q
  CHECK(round(0x1.ff8p-15, MPFR_RNDN) == 0x03ff);  // the largest subnormal
  CHECK(round(0x1.ffcp-15, MPFR_RNDN) == 0x0400);  // a tie: up to the smallest normal (even)
  mpfr_clear(x);
}

TEST_CASE("the exact steps reproduce the golden D of every f16 and f64 variant", "[coverage]") {
  for (const tcu::Instr& instr : tcu::all_variants()) {
    if (instr.family != tcu::Family::kF16 && instr.family != tcu::Family::kF64) continue;
    size_t compared = 0, inexact = 0, ties = 0;
    for (uint64_t index = 0; index < 64; ++index) {  // index 31 and 63: directed cases
      const tcu::Operands ops =
          tcu::gather_operands(instr, tcu::generate_operands(instr, 3, index));
      const tcu::Matrix d = tcu::golden_mma(instr, ops);
      const std::vector<tcu::RoundingEvents> events = tcu::rounding_events(instr, ops, d);
      REQUIRE(events.size() == d.elems.size());
      // The coverage's summary (which stops early) says what the elements
      // say (f16: those of the first quad pair, D's batch 0).
      tcu::RoundingSummary any;
      const size_t summarized =
          instr.family == tcu::Family::kF16 ? size_t(d.rows) * d.cols : events.size();
      for (size_t i = 0; i < summarized; ++i) {
        const tcu::RoundingEvents& e = events[i];
        any.exact |= e.classified && !e.inexact;
        any.inexact |= e.inexact;
        any.tie |= e.tie;
      }
      const tcu::RoundingSummary summary = tcu::summarize_rounding(instr, ops, d);
      CHECK(summary.exact == any.exact);
      CHECK(summary.inexact == any.inexact);
      CHECK(summary.tie == any.tie);
      for (size_t i = 0; i < d.elems.size(); ++i) {
        if (!events[i].has_value) continue;
        INFO(instr.ptx() << " case " << index << " element " << i);
        REQUIRE(events[i].value == d.elems[i]);
        ++compared;
        inexact += events[i].inexact;
        ties += events[i].tie;
      }
    }
    INFO(instr.ptx());
    CHECK(compared > 64 * 16);
    CHECK(inexact > 0);
    if (instr.family == tcu::Family::kF16) CHECK(ties > 0);
  }
}

TEST_CASE("f64: a midpoint step is a tie in every mode; a near miss is not", "[coverage][tie]") {
  for (const tcu::Instr& instr : tcu::all_variants()) {
    if (instr.family != tcu::Family::kF64) continue;
    INFO(instr.ptx());
    tcu::FunctionalCoverage coverage;
    // 1 + 2^-53: the midpoint of 1 and 1 + 2^-52, in the first step.
    auto tie = operands(
        instr, [](int, int k) { return k == 0 ? f64_bits(0x1p-53) : 0; },
        [](int, int) { return kOne64; }, [](int, int) { return kOne64; });
    coverage.sample(instr, tie);
    CHECK(hits(coverage, instr, "d.tie") == 1);
    CHECK(hits(coverage, instr, "d.inexact") == 1);
    CHECK(hits(coverage, instr, "d.exact") == 0);
    const uint64_t rounded = events_of(instr, tie).at(0).value;
    CHECK(rounded == (instr.rounding == tcu::Rounding::kRp ? kOne64 + 1 : kOne64));
    // 1 + 2^-53 + 2^-105: 2^-105 past the midpoint (the product
    // 2^-53 * (1 + 2^-52)): inexact, not a tie.
    coverage.sample(instr,
                    operands(
                        instr, [](int, int k) { return k == 0 ? f64_bits(0x1p-53) : 0; },
                        [](int, int) { return kOne64 + 1; }, [](int, int) { return kOne64; }));
    CHECK(hits(coverage, instr, "d.inexact") == 2);
    CHECK(hits(coverage, instr, "d.tie") == 1);
    // 1 + 3 * 2^-54: three quarters of the way to the next double.
    coverage.sample(instr, operands(
                               instr, [](int, int k) { return k == 0 ? f64_bits(3 * 0x1p-54) : 0; },
                               [](int, int) { return kOne64; }, [](int, int) { return kOne64; }));
    CHECK(hits(coverage, instr, "d.inexact") == 3);
    CHECK(hits(coverage, instr, "d.tie") == 1);
    // A tie below the normals: 2^-1074 * 0.5 in the last step, C 0.
    coverage.sample(
        instr, operands(
                   instr, [](int, int k) { return k == 3 ? uint64_t{1} : 0; },
                   [](int, int) { return f64_bits(0.5); }, [](int, int) { return uint64_t{0}; }));
    CHECK(hits(coverage, instr, "d.tie") == 2);
  }
}

TEST_CASE("f16: midpoints in the fp32 steps and in the binary16 rounding are ties",
          "[coverage][tie]") {
  const tcu::Instr f16 = tcu::parse_ptx("mma.sync.aligned.m8n8k4.row.col.f16.f16.f16.f16");
  const tcu::Instr f32 = tcu::parse_ptx("mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f16");
  const tcu::Instr f32c = tcu::parse_ptx("mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32");
  tcu::FunctionalCoverage coverage;
  auto one = [](int, int) -> uint64_t { return kOne16; };
  // f16 D: s = 1 + 2^-11 exactly, the midpoint of 1 and 1 + 2^-10 in binary16.
  coverage.sample(f16,
                  operands(
                      f16, [](int, int k) -> uint64_t { return k == 0 ? 0x1000 : 0; }, one, one));
  CHECK(hits(coverage, f16, "d.tie") == 1);
  CHECK(hits(coverage, f16, "d.exact") == 0);
  // s = 1 + 2^-11 + 2^-21: past the midpoint, not a tie.
  coverage.sample(f16,
                  operands(
                      f16, [](int, int k) -> uint64_t { return k == 0 ? 0x1001 : 0; }, one, one));
  CHECK(hits(coverage, f16, "d.inexact") == 2);
  CHECK(hits(coverage, f16, "d.tie") == 1);
  // f32 D: acc = 1, then 1 + 2^-24 (A 0x0001: 2^-24), the midpoint in fp32.
  auto tie_in_fp32 = [](int, int k) -> uint64_t { return k == 0 ? kOne16 : k == 1 ? 0x0001 : 0; };
  coverage.sample(f32, operands(f32, tie_in_fp32, one, [](int, int) -> uint64_t { return 0; }));
  CHECK(hits(coverage, f32, "d.tie") == 1);
  CHECK(hits(coverage, f32, "d.exact") == 0);
  // 1 + 2^-24 + 2^-34 (A 2^-14 (1 + 2^-10), B 2^-10): not a tie.
  coverage.sample(
      f32, operands(
               f32, [](int, int k) -> uint64_t { return k == 0   ? kOne16
                                                        : k == 1 ? 0x0401
                                                                 : 0; },
               [](int k, int) -> uint64_t { return k == 1 ? 0x1400 : kOne16; },
               [](int, int) -> uint64_t { return 0; }));
  CHECK(hits(coverage, f32, "d.inexact") == 2);
  CHECK(hits(coverage, f32, "d.tie") == 1);
  // f32 C: the last step c + acc = 1 + 2^-24.
  coverage.sample(f32c, operands(
                            f32c, [](int, int k) -> uint64_t { return k == 0 ? 0x0001 : 0; }, one,
                            [](int, int) -> uint64_t { return kOne32; }));
  CHECK(hits(coverage, f32c, "d.tie") == 1);
  CHECK(hits(coverage, f32c, "d.exact") == 0);
}

TEST_CASE("exact sums hit d.exact alone; non-finite inputs hit none", "[coverage]") {
  const tcu::Instr f64 = tcu::parse_ptx("mma.sync.aligned.m8n8k4.row.col.rm.f64.f64.f64.f64");
  const tcu::Instr f16 = tcu::parse_ptx("mma.sync.aligned.m8n8k4.col.row.f16.f16.f16.f16");
  tcu::FunctionalCoverage coverage;
  // 4 * 2 * 3 + 1 = 25.
  coverage.sample(
      f64, operands(
               f64, [](int, int) { return f64_bits(2.0); }, [](int, int) { return f64_bits(3.0); },
               [](int, int) { return kOne64; }));
  coverage.sample(f16, operands(
                           f16, [](int, int) -> uint64_t { return 0x4000; },
                           [](int, int) -> uint64_t { return 0x4200; },
                           [](int, int) -> uint64_t { return kOne16; }));
  for (const tcu::Instr& instr : {f64, f16}) {
    INFO(instr.ptx());
    CHECK(hits(coverage, instr, "d.exact") == 1);
    CHECK(hits(coverage, instr, "d.inexact") == 0);
    CHECK(hits(coverage, instr, "d.tie") == 0);
  }
  // 0.1 * 0.1 + ...: inexact, not exact.
  coverage.sample(
      f64, operands(
               f64, [](int, int) { return f64_bits(0.1); }, [](int, int) { return f64_bits(0.1); },
               [](int, int) { return uint64_t{0}; }));
  CHECK(hits(coverage, f64, "d.inexact") == 1);
  CHECK(hits(coverage, f64, "d.exact") == 1);
  // Infinite A: no element has rounding events.
  tcu::FunctionalCoverage fresh;
  fresh.sample(f64,
               operands(
                   f64, [](int, int) { return f64_bits(std::numeric_limits<double>::infinity()); },
                   [](int, int) { return kOne64; }, [](int, int) { return kOne64; }));
  CHECK(hits(fresh, f64, "d.inf") == 1);
  CHECK(hits(fresh, f64, "d.exact") == 0);
  CHECK(hits(fresh, f64, "d.inexact") == 0);
}

TEST_CASE("e2m1: D equal to the exact A.B+C or not; no tie bin", "[coverage]") {
  for (const tcu::Instr& instr : tcu::all_variants()) {
    if (instr.family != tcu::Family::kE2m1) continue;
    INFO(instr.ptx());
    bool has_tie = false;
    for (const auto& [name, kind] : tcu::coverage_bin_names(instr)) has_tie |= name == "d.tie";
    CHECK_FALSE(has_tie);
    tcu::FunctionalCoverage coverage;
    // A zero, C 1.0: D = 1.0 exactly.
    coverage.sample(instr, operands(
                               instr, [](int, int) -> uint64_t { return 0; },
                               [](int, int) -> uint64_t { return 7; },
                               [](int, int) -> uint64_t { return kOne32; }));
    CHECK(hits(coverage, instr, "d.exact") == 1);
    CHECK(hits(coverage, instr, "d.inexact") == 0);
    // C 2^24 + one product 0.5 * 0.5: D truncates to 2^24.
    coverage.sample(instr, operands(
                               instr, [](int, int k) -> uint64_t { return k == 0 ? 1 : 0; },
                               [](int, int) -> uint64_t { return 1; },
                               [](int, int) -> uint64_t { return 0x4b800000; }));
    CHECK(hits(coverage, instr, "d.inexact") == 1);
    CHECK(hits(coverage, instr, "d.exact") == 1);
  }
  for (const tcu::Instr& instr : tcu::all_variants()) {
    if (instr.family != tcu::Family::kF16 && instr.family != tcu::Family::kF64) continue;
    size_t rounding = 0;
    for (const auto& [name, kind] : tcu::coverage_bin_names(instr))
      rounding += name == "d.exact" || name == "d.inexact" || name == "d.tie";
    CHECK(rounding == 3);
  }
}
