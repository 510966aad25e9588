// rtl/tcu_f64_dot.sv against the golden tcu::f64_dot, bit-exact, in all four
// rounding modes, at FmaStages = 1, 3 and 12 (Vtcu_f64_dot_s1, _s3, _s12;
// 12: a deep setting), each D checked to appear exactly unit_latency(kF64)
// cycles after its input.
#include <catch2/catch.hpp>

#include <array>
#include <vector>

#ifdef TCU_GLS
// Gate-level: only the Yosys netlist at the unit's default FmaStages=2
// (tests/rtl/gls_units.cmake), on a fiftieth of the random stream.
#include "Vtcu_f64_dot_gls.h"
constexpr int kRandomShare = 50;
#else
#include "Vtcu_f64_dot_s1.h"
#include "Vtcu_f64_dot_s3.h"
#include "Vtcu_f64_dot_s12.h"
constexpr int kRandomShare = 1;
#endif
#include "fp_rtl_util.h"
#include "tcu/timing.h"

using tcu::Rounding;
using tcu_test::FpGen;
using tcu_test::hex;
using tcu_test::kFp64;

namespace {

struct F64Dot {
  struct In {
    std::array<uint64_t, 4> a, b;
    uint64_t c;
    Rounding rnd;
  };
  using Out = uint64_t;

  template <class Model>
  static void apply(Model& m, const In& in) {
    for (int k = 0; k < 4; ++k) {
      m.a_i[2 * k] = static_cast<uint32_t>(in.a[k]);
      m.a_i[2 * k + 1] = static_cast<uint32_t>(in.a[k] >> 32);
      m.b_i[2 * k] = static_cast<uint32_t>(in.b[k]);
      m.b_i[2 * k + 1] = static_cast<uint32_t>(in.b[k] >> 32);
    }
    m.c_i = in.c;
    m.rnd_i = static_cast<uint8_t>(in.rnd);
  }
  template <class Model>
  static Out read(const Model& m) {
    return m.d_o;
  }
  static Out expected(const In& in) { return tcu::f64_dot(in.a.data(), in.b.data(), in.c, in.rnd); }
  static std::string describe(const In& in, Out got, Out want) {
    std::string s = "a={";
    for (uint64_t v : in.a) s += hex(v, 64) + " ";
    s += "} b={";
    for (uint64_t v : in.b) s += hex(v, 64) + " ";
    return s + "} c=" + hex(in.c, 64) + " rnd=" + std::to_string(static_cast<int>(in.rnd)) +
           ": got " + hex(got, 64) + " want " + hex(want, 64);
  }
};

int latency_for(int fma_stages) {
  tcu::DatapathConfig config;
  config.fma_stages = fma_stages;
  return tcu::unit_latency(config, tcu::Family::kF64);
}

uint64_t negate(uint64_t x) { return x ^ (uint64_t(1) << 63); }

uint64_t small_int(FpGen& g) {
  return tcu_test::double_bits(static_cast<double>(g.range(-8, 8)) * (g.chance(30) ? 0.5 : 1.0));
}

F64Dot::In random_dot(FpGen& g) {
  F64Dot::In in;
  in.rnd = static_cast<Rounding>(g.below(4));
  switch (g.below(8)) {
    case 0:
    case 1: {  // independent corner-biased operands
      for (int k = 0; k < 4; ++k) {
        in.a[k] = g.mostly_finite(kFp64, 10);
        in.b[k] = g.mostly_finite(kFp64, 10);
      }
      in.c = g.mostly_finite(kFp64, 10);
      return in;
    }
    case 2: {  // small integers: exact sums, exact zeros and their signs
      for (int k = 0; k < 4; ++k) {
        in.a[k] = small_int(g);
        in.b[k] = small_int(g);
      }
      in.c = small_int(g);
      return in;
    }
    case 3: {  // NaNs in several places, with payloads: which one wins per step
      for (int k = 0; k < 4; ++k) {
        in.a[k] = g.chance(25) ? g.operand(kFp64) | 0x7ff0000000000000ull : g.operand(kFp64);
        in.b[k] = g.chance(25) ? g.operand(kFp64) | 0x7ff0000000000000ull : g.operand(kFp64);
      }
      in.c = g.chance(40) ? g.operand(kFp64) | 0x7ff0000000000000ull : g.operand(kFp64);
      return in;
    }
    default: {  // each step aimed at the running accumulator
      in.c = g.mostly_finite(kFp64, 10);
      if (g.chance(50)) in.c = g.with_exp(kFp64, g.exponent(kFp64));
      uint64_t acc = in.c;
      for (int k = 0; k < 4; ++k) {
        const int64_t eacc = static_cast<int64_t>(kFp64.exp_of(acc));
        switch (g.below(5)) {
          case 0:  // cancel the accumulator exactly or nearly
            in.a[k] = negate(acc);
            in.b[k] = g.chance(60) ? 0x3ff0000000000000ull
                                   : kFp64.pack(0, 1023, g.range(0, 2));
            break;
          case 1: {  // product around the accumulator's exponent
            const int64_t ea = g.exponent(kFp64);
            const int64_t delta = g.range(-60, 60);
            in.a[k] = g.with_exp(kFp64, ea);
            in.b[k] = g.with_exp(kFp64, std::max<int64_t>(eacc, 1) - std::max<int64_t>(ea, 1) + 1023 + delta);
            break;
          }
          default: {
            auto round_product = [](uint64_t a, uint64_t b) {
              return tcu_test::double_bits(tcu_test::as_double(a) * tcu_test::as_double(b));
            };
            const auto o = tcu_test::fma_operands(g, kFp64, round_product);
            in.a[k] = o.a;
            in.b[k] = o.b;
          }
        }
        acc = tcu::f64_fma(in.a[k], in.b[k], acc, in.rnd);
      }
      return in;
    }
  }
}

template <class Model>
void run_random(int fma_stages, uint64_t seed) {
  tcu_test::UnitBench<Model, F64Dot> bench(latency_for(fma_stages));
  FpGen g(seed);
  std::vector<F64Dot::In> inputs;
  for (int i = 0; i < 150000 / kRandomShare; ++i) inputs.push_back(random_dot(g));
  tcu_test::ClassCounts d;  // what the random stream reaches
  for (const auto& in : inputs) d.add(kFp64, F64Dot::expected(in));
  INFO("D: " << d.str());
  CHECK(d.all_at_least(500 / kRandomShare));
  bench.run(inputs);
  inputs.clear();
  for (int i = 0; i < 20000 / kRandomShare; ++i) inputs.push_back(random_dot(g));
  FpGen stalls(seed + 1);
  bench.run(inputs, &stalls);
  INFO(bench.first_failures());
  CHECK(bench.results() == bench.accepted());
  CHECK(bench.accepted() > 160000 / kRandomShare);
  REQUIRE(bench.mismatches() == 0);
}

std::vector<F64Dot::In> directed() {
  const uint64_t one = 0x3ff0000000000000ull, two = 0x4000000000000000ull;
  const uint64_t inf = 0x7ff0000000000000ull, zero = 0, nzero = negate(0);
  const uint64_t maxf = 0x7fefffffffffffffull, minsub = 1;
  const uint64_t snan = 0x7ff0000000000001ull, qnan = 0xfff8000000000abcull;
  const uint64_t half_ulp = 0x3ca0000000000000ull;  // 2^-53
  std::vector<std::array<uint64_t, 9>> cases = {
      // a0..a3, b0..b3, c
      {zero, zero, zero, zero, zero, zero, zero, zero, nzero},
      {nzero, zero, zero, zero, one, one, one, one, nzero},
      {one, negate(one), zero, zero, one, one, zero, zero, zero},
      {one, one, one, one, one, one, one, one, negate(two)},
      {inf, zero, zero, zero, zero, zero, zero, zero, one},          // Inf*0: default NaN
      {inf, negate(inf), zero, zero, one, one, zero, zero, zero},    // Inf-Inf: default NaN
      {snan, one, one, one, one, snan ^ 2, one, one, qnan},          // NaN chain priorities
      {one, one, one, one, snan, qnan, one, one, one},
      {maxf, maxf, zero, zero, two, negate(two), zero, zero, zero},  // overflow, then Inf-Inf
      {maxf, maxf, negate(maxf), zero, one, one, one, zero, zero},
      {minsub, minsub, zero, zero, 0x3fe0000000000000ull, 0x3fe0000000000000ull, zero, zero, zero},
      {half_ulp, half_ulp, half_ulp, half_ulp, one, one, one, one, one},
      {half_ulp, negate(half_ulp), zero, zero, one, one, zero, zero, one},
  };
  std::vector<F64Dot::In> out;
  for (const auto& v : cases)
    for (int m = 0; m < 4; ++m) {
      F64Dot::In in;
      for (int k = 0; k < 4; ++k) {
        in.a[k] = v[k];
        in.b[k] = v[4 + k];
      }
      in.c = v[8];
      in.rnd = static_cast<Rounding>(m);
      out.push_back(in);
    }
  return out;
}

template <class Model>
void run_directed(int fma_stages) {
  tcu_test::UnitBench<Model, F64Dot> bench(latency_for(fma_stages));
  bench.run(directed());
  INFO(bench.first_failures());
  REQUIRE(bench.mismatches() == 0);
}

}  // namespace

#ifdef TCU_GLS
TEST_CASE("tcu_f64_dot netlist (Yosys, FmaStages=2): directed and random, all modes",
          "[gls][f64_dot]") {
  run_directed<Vtcu_f64_dot_gls>(2);
  run_random<Vtcu_f64_dot_gls>(2, 0xd0d2);
}

TEST_CASE("tcu_f64_dot netlist: D leaves exactly unit_latency(kF64) enabled cycles after input",
          "[gls][f64_dot]") {
  F64Dot::In in{{0x3ff0000000000000ull, 0, 0, 0}, {0x4000000000000000ull, 0, 0, 0}, 0,
                Rounding::kRn};
  tcu_test::UnitBench<Vtcu_f64_dot_gls, F64Dot> s2(latency_for(2));
  CHECK(latency_for(2) == 8);
  CHECK(s2.latency(in, 0) == 8);
  CHECK(s2.latency(in, 3) == 11);
  CHECK(s2.model().d_o == 0x4000000000000000ull);
}
#else
TEST_CASE("tcu_f64_dot FmaStages=1: directed and random, all modes", "[rtl][f64_dot]") {
  {
    tcu_test::UnitBench<Vtcu_f64_dot_s1, F64Dot> bench(latency_for(1));
    bench.run(directed());
    INFO(bench.first_failures());
    REQUIRE(bench.mismatches() == 0);
  }
  run_random<Vtcu_f64_dot_s1>(1, 0xd0d1);
}

TEST_CASE("tcu_f64_dot FmaStages=3: directed and random, all modes", "[rtl][f64_dot]") {
  {
    tcu_test::UnitBench<Vtcu_f64_dot_s3, F64Dot> bench(latency_for(3));
    bench.run(directed());
    INFO(bench.first_failures());
    REQUIRE(bench.mismatches() == 0);
  }
  run_random<Vtcu_f64_dot_s3>(3, 0xd0d3);
}

TEST_CASE("tcu_f64_dot FmaStages=12: directed and random, all modes", "[rtl][f64_dot]") {
  run_directed<Vtcu_f64_dot_s12>(12);
  run_random<Vtcu_f64_dot_s12>(12, 0xd0dc);
}

TEST_CASE("tcu_f64_dot D leaves exactly unit_latency(kF64) enabled cycles after input",
          "[rtl][f64_dot]") {
  F64Dot::In in{{0x3ff0000000000000ull, 0, 0, 0}, {0x4000000000000000ull, 0, 0, 0}, 0,
                Rounding::kRn};
  tcu_test::UnitBench<Vtcu_f64_dot_s1, F64Dot> s1(latency_for(1));
  CHECK(latency_for(1) == 4);
  CHECK(s1.latency(in, 0) == 4);
  CHECK(s1.latency(in, 3) == 7);
  CHECK(s1.model().d_o == 0x4000000000000000ull);
  tcu_test::UnitBench<Vtcu_f64_dot_s3, F64Dot> s3(latency_for(3));
  CHECK(s3.latency(in, 0) == 12);
  CHECK(s3.latency(in, 5) == 17);
  CHECK(s3.model().d_o == 0x4000000000000000ull);
  tcu_test::UnitBench<Vtcu_f64_dot_s12, F64Dot> s12(latency_for(12));
  CHECK(latency_for(12) == 48);
  CHECK(s12.latency(in, 0) == 48);
  CHECK(s12.latency(in, 5) == 53);
  CHECK(s12.model().d_o == 0x4000000000000000ull);
}
#endif
