// rtl/tcu_f16_dot.sv against the golden tcu::f16_dot_f32 / f16_dot_f16,
// bit-exact, for the three legal C/D type pairs (f16/f16, f16 C with f32 D,
// f32/f32): the fast implementation at FmaStages = 0, 2 and 9
// (Vtcu_f16_dot_s0, _s2, _s9; 9: a deep setting) and the synthesis one at 2,
// 9 and 19 (Vtcu_f16_dot_synth_s2, _synth_s9, _synth_s19; 19: the deep
// configuration's, a register behind each FMA's widening and every step), each D
// checked to appear exactly unit_latency(kF16) cycles after its input, for
// both D types.
#include <catch2/catch.hpp>

#include <array>
#include <vector>

#ifdef TCU_GLS
// Gate-level: only the Yosys netlist at the unit's default FmaStages=2
// (tests/rtl/gls_units.cmake), on a fiftieth of the random stream.
#include "Vtcu_f16_dot_gls.h"
constexpr int kRandomShare = 50;
#else
#include "Vtcu_f16_dot_s0.h"
#include "Vtcu_f16_dot_s2.h"
#include "Vtcu_f16_dot_s9.h"
#include "Vtcu_f16_dot_synth_s2.h"
#include "Vtcu_f16_dot_synth_s9.h"
#include "Vtcu_f16_dot_synth_s19.h"
constexpr int kRandomShare = 1;
#endif
#include "fp_rtl_util.h"
#include "tcu/timing.h"

using tcu_test::FpGen;
using tcu_test::hex;
using tcu_test::kFp16;
using tcu_test::kFp32;

namespace {

struct F16Dot {
  struct In {
    std::array<uint16_t, 4> a, b;
    uint32_t c;  // f16 code in [15:0] when c_f16
    bool c_f16, d_f16;
  };
  using Out = uint32_t;

  template <class Model>
  static void apply(Model& m, const In& in) {
    uint64_t a = 0, b = 0;
    for (int k = 0; k < 4; ++k) {
      a |= uint64_t(in.a[k]) << (16 * k);
      b |= uint64_t(in.b[k]) << (16 * k);
    }
    m.a_i = a;
    m.b_i = b;
    m.c_i = in.c;
    m.c_f16_i = in.c_f16;
    m.d_f16_i = in.d_f16;
  }
  template <class Model>
  static Out read(const Model& m) {
    return m.d_o;
  }
  static Out expected(const In& in) {
    if (in.d_f16) return tcu::f16_dot_f16(in.a.data(), in.b.data(), static_cast<uint16_t>(in.c));
    const uint32_t c32 = in.c_f16 ? tcu::f16_to_f32(static_cast<uint16_t>(in.c)) : in.c;
    return tcu::f16_dot_f32(in.a.data(), in.b.data(), c32);
  }
  static std::string describe(const In& in, Out got, Out want) {
    std::string s = "a={";
    for (uint16_t v : in.a) s += hex(v, 16) + " ";
    s += "} b={";
    for (uint16_t v : in.b) s += hex(v, 16) + " ";
    return s + "} c=" + hex(in.c, in.c_f16 ? 16 : 32) + (in.c_f16 ? " (f16)" : " (f32)") +
           (in.d_f16 ? " D f16" : " D f32") + ": got " + hex(got, 32) + " want " + hex(want, 32);
  }
};

int latency_for(int fma_stages) {
  tcu::DatapathConfig config;
  config.fma_stages = fma_stages;
  return tcu::unit_latency(config, tcu::Family::kF16);
}

uint16_t f16(FpGen& g) {
  switch (g.below(10)) {
    case 0:
    case 1: {  // small multiples of 1/8: exact sums, exact zeros, ties on narrowing
      const double v = static_cast<double>(g.range(-256, 256)) / 8.0;
      return tcu::f32_to_f16_rn(tcu_test::float_bits(static_cast<float>(v)));
    }
    case 2:  // large: products and sums past 65504
      return static_cast<uint16_t>(kFp16.pack(g.below(2), g.range(20, 30), g.mantissa(kFp16)));
    case 3:  // tiny: f16 subnormal results
      return static_cast<uint16_t>(kFp16.pack(g.below(2), g.range(0, 12), g.mantissa(kFp16)));
    case 4: return g.chance(50) ? 0x8000 : 0x0000;
    case 5: return static_cast<uint16_t>(g.operand(kFp16));
    default: return static_cast<uint16_t>(g.finite(kFp16));
  }
}

F16Dot::In random_dot(FpGen& g) {
  F16Dot::In in;
  switch (g.below(3)) {
    case 0: in.c_f16 = in.d_f16 = true; break;
    case 1: in.c_f16 = true, in.d_f16 = false; break;
    default: in.c_f16 = in.d_f16 = false; break;
  }
  for (int k = 0; k < 4; ++k) {
    in.a[k] = f16(g);
    in.b[k] = f16(g);
  }
  switch (g.below(5)) {
    case 0: {  // products that cancel pairwise
      in.a[1] = in.a[0] ^ 0x8000;
      in.b[1] = in.b[0];
      if (g.chance(50)) {
        in.a[3] = in.a[2];
        in.b[3] = in.b[2] ^ 0x8000;
      }
      break;
    }
    case 1: {  // C cancels the products, exactly or nearly
      F16Dot::In zero_c = in;
      zero_c.c_f16 = false;
      zero_c.d_f16 = false;
      zero_c.c = 0;
      const uint32_t sum = F16Dot::expected(zero_c);
      if (in.c_f16) {
        in.c = static_cast<uint16_t>(tcu::f32_to_f16_rn(sum) ^ 0x8000);
      } else {
        in.c = (sum ^ 0x80000000u) + static_cast<uint32_t>(g.range(-2, 2) * ((sum & 0x7fffffffu) > 4));
      }
      return in;
    }
    default: break;
  }
  in.c = in.c_f16 ? f16(g) : static_cast<uint32_t>(g.mostly_finite(kFp32, 15));
  return in;
}

template <class Model>
void run_all(int fma_stages, uint64_t seed) {
  tcu_test::UnitBench<Model, F16Dot> bench(latency_for(fma_stages));
  // Directed: zero signs, NaN and Inf rules, overflow and ties of the f16 D.
  const std::vector<std::array<uint16_t, 9>> cases = {
      // a0..a3, b0..b3, c (f16)
      {0x0000, 0x0000, 0x0000, 0x0000, 0x3c00, 0x3c00, 0x3c00, 0x3c00, 0x8000},
      {0x8000, 0x8000, 0x8000, 0x8000, 0x3c00, 0x3c00, 0x3c00, 0x3c00, 0x8000},
      {0x8000, 0x0000, 0x8000, 0x8000, 0x3c00, 0x3c00, 0x3c00, 0x3c00, 0x8000},
      {0x3c00, 0xbc00, 0x0000, 0x0000, 0x3c00, 0x3c00, 0x3c00, 0x3c00, 0x0000},
      {0x7c00, 0x0000, 0x0000, 0x0000, 0x0000, 0x0000, 0x0000, 0x0000, 0x0000},  // Inf*0
      {0x7c00, 0xfc00, 0x0000, 0x0000, 0x3c00, 0x3c00, 0x0000, 0x0000, 0x0000},  // Inf-Inf
      {0x7c01, 0x3c00, 0x3c00, 0x3c00, 0x3c00, 0x3c00, 0x3c00, 0x3c00, 0xfe12},  // NaNs
      {0x7bff, 0x7bff, 0x0000, 0x0000, 0x3c00, 0x3c00, 0x0000, 0x0000, 0x0000},  // 65504*2: Inf
      {0x7bff, 0x0000, 0x0000, 0x0000, 0x3c00, 0x0000, 0x0000, 0x0000, 0x1000},  // ties at max
      {0x0001, 0x0001, 0x0000, 0x0000, 0x3800, 0x3800, 0x0000, 0x0000, 0x0000},  // subnormals
      {0x0001, 0x0000, 0x0000, 0x0000, 0x3800, 0x0000, 0x0000, 0x0000, 0x0000},  // 2^-25: tie to 0
      {0x0001, 0x0000, 0x0000, 0x0000, 0x3a00, 0x0000, 0x0000, 0x0000, 0x0000},  // 0.75 min sub
      {0x6801, 0x0000, 0x0000, 0x0000, 0x3c00, 0x0000, 0x0000, 0x0000, 0x3c00},  // 2049 + 1
      {0x6800, 0x3c00, 0x0000, 0x0000, 0x3c00, 0x3c00, 0x0000, 0x0000, 0x3c00},  // 2048 + 1 + 1
      {0x6800, 0x3c00, 0x0000, 0x0000, 0x3c00, 0x3800, 0x0000, 0x0000, 0x3800},
  };
  std::vector<F16Dot::In> inputs;
  for (const auto& v : cases)
    for (int combo = 0; combo < 3; ++combo) {
      F16Dot::In in;
      for (int k = 0; k < 4; ++k) {
        in.a[k] = v[k];
        in.b[k] = v[4 + k];
      }
      in.c_f16 = combo != 2;
      in.d_f16 = combo == 0;
      in.c = in.c_f16 ? v[8] : tcu::f16_to_f32(v[8]);
      inputs.push_back(in);
    }
  bench.run(inputs);
  {
    INFO(bench.first_failures());
    REQUIRE(bench.mismatches() == 0);
  }
  FpGen g(seed);
  inputs.clear();
  for (int i = 0; i < 250000 / kRandomShare; ++i) inputs.push_back(random_dot(g));
  tcu_test::ClassCounts d16, d32;  // what the random stream reaches
  for (const auto& in : inputs) {
    if (in.d_f16) d16.add(kFp16, F16Dot::expected(in));
    else d32.add(kFp32, F16Dot::expected(in));
  }
  INFO("f16 D: " << d16.str() << "\nf32 D: " << d32.str());
  CHECK(d16.all_at_least(100 / kRandomShare));
  // An f32 D is never -0: the chain starts from +0, and f16 products are
  // exact in f32, so nothing rounds to -0 either.
  CHECK(d32[tcu_test::FpClass::kNegZero] == 0);
  for (auto c : {tcu_test::FpClass::kPosZero, tcu_test::FpClass::kSubnormal,
                 tcu_test::FpClass::kNormal, tcu_test::FpClass::kInf, tcu_test::FpClass::kNan})
    CHECK(d32[c] >= 200 / kRandomShare);
  bench.run(inputs);
  inputs.clear();
  for (int i = 0; i < 30000 / kRandomShare; ++i) inputs.push_back(random_dot(g));
  FpGen stalls(seed + 1);
  bench.run(inputs, &stalls);
  INFO(bench.first_failures());
  CHECK(bench.results() == bench.accepted());
  CHECK(bench.accepted() > 270000 / kRandomShare);
  REQUIRE(bench.mismatches() == 0);
}

}  // namespace

#ifdef TCU_GLS
TEST_CASE("tcu_f16_dot netlist (Yosys, FmaStages=2): directed and random, all C/D types",
          "[gls][f16_dot]") {
  run_all<Vtcu_f16_dot_gls>(2, 0xf162);
}

TEST_CASE("tcu_f16_dot netlist: D leaves exactly unit_latency(kF16) enabled cycles after input",
          "[gls][f16_dot]") {
  F16Dot::In in{{0x3c00, 0x3c00, 0, 0}, {0x4000, 0x3c00, 0, 0}, 0x3800, true, true};
  tcu_test::UnitBench<Vtcu_f16_dot_gls, F16Dot> s2(latency_for(2));
  for (bool d_f16 : {true, false}) {
    in.d_f16 = d_f16;
    CHECK(s2.latency(in, 0) == 10);
    CHECK(s2.latency(in, 4) == 14);
    CHECK(s2.model().d_o == (d_f16 ? 0x4300u : 0x40600000u));
  }
}
#else
TEST_CASE("tcu_f16_dot FmaStages=0: directed and random, all C/D types", "[rtl][f16_dot]") {
  run_all<Vtcu_f16_dot_s0>(0, 0xf160);
}

TEST_CASE("tcu_f16_dot FmaStages=2: directed and random, all C/D types", "[rtl][f16_dot]") {
  run_all<Vtcu_f16_dot_s2>(2, 0xf162);
}

TEST_CASE("tcu_f16_dot FmaStages=9: directed and random, all C/D types", "[rtl][f16_dot]") {
  run_all<Vtcu_f16_dot_s9>(9, 0xf169);
}

TEST_CASE("tcu_f16_dot_synth FmaStages=2: directed and random, all C/D types",
          "[rtl][f16_dot]") {
  run_all<Vtcu_f16_dot_synth_s2>(2, 0xf163);
}

TEST_CASE("tcu_f16_dot_synth FmaStages=9: directed and random, all C/D types",
          "[rtl][f16_dot]") {
  run_all<Vtcu_f16_dot_synth_s9>(9, 0xf16a);
}

TEST_CASE("tcu_f16_dot_synth FmaStages=19: directed and random, all C/D types",
          "[rtl][f16_dot]") {
  run_all<Vtcu_f16_dot_synth_s19>(19, 0xf16b);
  tcu_test::UnitBench<Vtcu_f16_dot_synth_s19, F16Dot> synth_s19(95);
  F16Dot::In in{{0x3c00, 0x3c00, 0, 0}, {0x4000, 0x3c00, 0, 0}, 0x3800, true, true};
  for (bool d_f16 : {true, false}) {
    in.d_f16 = d_f16;
    CHECK(synth_s19.latency(in, 0) == 95);
    CHECK(synth_s19.latency(in, 4) == 99);
    CHECK(synth_s19.model().d_o == (d_f16 ? 0x4300u : 0x40600000u));
  }
}

TEST_CASE("tcu_f16_dot D leaves exactly unit_latency(kF16) enabled cycles after input",
          "[rtl][f16_dot]") {
  // 1*2 + 1*1 + 0 + 0, C = 0.5
  F16Dot::In in{{0x3c00, 0x3c00, 0, 0}, {0x4000, 0x3c00, 0, 0}, 0x3800, true, true};
  tcu_test::UnitBench<Vtcu_f16_dot_s0, F16Dot> s0(latency_for(0));
  CHECK(s0.latency(in, 0) == 0);
  CHECK(s0.model().d_o == 0x4300u);  // 3.5
  tcu_test::UnitBench<Vtcu_f16_dot_s2, F16Dot> s2(latency_for(2));
  tcu_test::UnitBench<Vtcu_f16_dot_synth_s2, F16Dot> synth_s2(latency_for(2));
  CHECK(latency_for(2) == 10);
  for (bool d_f16 : {true, false}) {
    in.d_f16 = d_f16;
    CHECK(s2.latency(in, 0) == 10);
    CHECK(s2.latency(in, 4) == 14);
    CHECK(s2.model().d_o == (d_f16 ? 0x4300u : 0x40600000u));
    CHECK(synth_s2.latency(in, 0) == 10);
    CHECK(synth_s2.latency(in, 4) == 14);
    CHECK(synth_s2.model().d_o == (d_f16 ? 0x4300u : 0x40600000u));
  }
  tcu_test::UnitBench<Vtcu_f16_dot_s9, F16Dot> s9(latency_for(9));
  tcu_test::UnitBench<Vtcu_f16_dot_synth_s9, F16Dot> synth_s9(latency_for(9));
  CHECK(latency_for(9) == 45);
  for (bool d_f16 : {true, false}) {
    in.d_f16 = d_f16;
    CHECK(s9.latency(in, 0) == 45);
    CHECK(s9.latency(in, 4) == 49);
    CHECK(s9.model().d_o == (d_f16 ? 0x4300u : 0x40600000u));
    CHECK(synth_s9.latency(in, 0) == 45);
    CHECK(synth_s9.latency(in, 4) == 49);
    CHECK(synth_s9.model().d_o == (d_f16 ? 0x4300u : 0x40600000u));
  }
}
#endif
