// rtl/tcu_int4_dot.sv at Stages = 2 (its simulation description, the
// product table) and 7 (with SynthImpl = 1: the multipliers and adder tree Yosys
// reads), and rtl/tcu_int4_accumulate.sv, bit-exact against the golden
// int4_dot and int4_accumulate.
#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#ifdef TCU_GLS
// Gate-level: only the Yosys netlist of tcu_int4_dot at its default
// Stages=2 (tests/rtl/gls_units.cmake).
#include "Vtcu_int4_dot_gls.h"
#else
#include "Vtcu_int4_accumulate.h"
#include "Vtcu_int4_dot_s2.h"
#include "Vtcu_int4_dot_s7.h"
#endif
#include "int_rtl_util.h"
#include "tcu/golden.h"

namespace {

using tcu_int_test::get_bits;
using tcu_int_test::set_bits;
using tcu_int_test::sign_extend;

constexpr int kLanes = 32;
constexpr int kSumWidth = 14;  // tcu_pkg::INT4_DOT_WIDTH

struct DotInput {
  std::array<uint64_t, kLanes> a{}, b{};
  bool a_signed = true, b_signed = true;
  int64_t golden() const {
    return tcu::int4_dot(a.data(), b.data(), kLanes, a_signed, b_signed);
  }
};

// Codes drawn to reach the extremes often: uniform, only the corner codes
// (0, 7, 8, 15, 1), or one constant code per operand.
DotInput random_input(std::mt19937_64& rng) {
  DotInput in;
  std::uniform_int_distribution<int> code(0, 15), mode(0, 3), bit(0, 1);
  static constexpr uint64_t kCorners[] = {0, 1, 7, 8, 15};
  std::uniform_int_distribution<int> corner(0, 4);
  in.a_signed = bit(rng);
  in.b_signed = bit(rng);
  const int a_mode = mode(rng), b_mode = mode(rng);
  const uint64_t a_const = kCorners[corner(rng)], b_const = kCorners[corner(rng)];
  for (int k = 0; k < kLanes; ++k) {
    in.a[k] = a_mode == 0 ? a_const : a_mode == 1 ? kCorners[corner(rng)] : code(rng);
    in.b[k] = b_mode == 0 ? b_const : b_mode == 1 ? kCorners[corner(rng)] : code(rng);
  }
  return in;
}

template <class Model>
void set_input(Model& m, const DotInput& in) {
  m.a_signed_i = in.a_signed;
  m.b_signed_i = in.b_signed;
  for (int k = 0; k < kLanes; ++k) {
    set_bits(m.a_i, 4 * k, 4, in.a[k]);
    set_bits(m.b_i, 4 * k, 4, in.b[k]);
  }
}

template <class Model>
int64_t sum_of(const Model& m) {
  return sign_extend(m.sum_o, kSumWidth);
}

// Every product extreme and sign mix, all lanes alike, and the golden sums
// at the range ends: u4*u4 15*15*32 = 7200, s4*u4 -8*15*32 = -3840.
std::vector<DotInput> directed_inputs() {
  std::vector<DotInput> out;
  static constexpr uint64_t kCodes[] = {0, 1, 7, 8, 9, 15};
  for (bool as : {false, true})
    for (bool bs : {false, true})
      for (uint64_t a : kCodes)
        for (uint64_t b : kCodes) {
          DotInput in;
          in.a_signed = as;
          in.b_signed = bs;
          in.a.fill(a);
          in.b.fill(b);
          out.push_back(in);
        }
  // Alternating signs that cancel, and one lane alone at each position.
  DotInput cancel;
  for (int k = 0; k < kLanes; ++k) {
    cancel.a[k] = k % 2 ? 8 : 7;
    cancel.b[k] = 7;
  }
  out.push_back(cancel);
  for (int lane = 0; lane < kLanes; ++lane) {
    DotInput one;
    one.a_signed = false;
    one.b_signed = true;
    one.a[lane] = 15;
    one.b[lane] = 8;
    out.push_back(one);
  }
  return out;
}

template <class Model>
void check_dot_unit(int stages, uint64_t seed) {
  VerilatedContext context;
  Model m(&context);
  tcu_int_test::reset(m);
  std::mt19937_64 rng(seed);

  SECTION("directed corners, one per cycle, every result exactly Stages cycles later") {
    const std::vector<DotInput> inputs = directed_inputs();
    size_t next = 0;
    tcu_int_test::run_pipeline<Model, int64_t>(
        m, stages, int(inputs.size()) + stages, rng, 1.0, 1.0,
        [&](bool) -> std::optional<int64_t> {
          if (next >= inputs.size()) {
            m.valid_i = 0;
            return std::nullopt;
          }
          set_input(m, inputs[next]);
          return inputs[next++].golden();
        },
        [&](const std::optional<int64_t>& want, int cycle) {
          INFO("cycle " << cycle);
          REQUIRE(bool(m.valid_o) == want.has_value());
          if (want) REQUIRE(sum_of(m) == *want);
        });
  }

  SECTION("a lone input appears after exactly Stages cycles") {
    const DotInput in = directed_inputs()[7];
    m.en_i = 1;
    for (int cycle = 0; cycle <= stages + 2; ++cycle) {
      m.valid_i = cycle == 0;
      set_input(m, in);
      m.clk_i = 0;
      m.eval();
      INFO("cycle " << cycle);
      REQUIRE(bool(m.valid_o) == (cycle == stages));
      if (cycle == stages) REQUIRE(sum_of(m) == in.golden());
      m.clk_i = 1;
      m.eval();
    }
  }

  SECTION("random operands with random valid and enable") {
    tcu_int_test::run_pipeline<Model, int64_t>(
        m, stages, 20000, rng, 0.7, 0.8,
        [&](bool valid) -> std::optional<int64_t> {
          const DotInput in = random_input(rng);
          set_input(m, in);
          if (!valid) return std::nullopt;
          return in.golden();
        },
        [&](const std::optional<int64_t>& want, int cycle) {
          INFO("cycle " << cycle);
          REQUIRE(bool(m.valid_o) == want.has_value());
          if (want) REQUIRE(sum_of(m) == *want);
        });
  }
}

}  // namespace

#ifdef TCU_GLS
TEST_CASE("tcu_int4_dot netlist (Yosys, Stages=2) matches int4_dot", "[gls][int4]") {
  check_dot_unit<Vtcu_int4_dot_gls>(2, 1);
}
#else
TEST_CASE("tcu_int4_dot Stages=2 (simulation description) matches int4_dot", "[rtl][int4]") {
  check_dot_unit<Vtcu_int4_dot_s2>(2, 1);
}

TEST_CASE("tcu_int4_dot Stages=7 (SynthImpl=1) matches int4_dot", "[rtl][int4]") {
  check_dot_unit<Vtcu_int4_dot_s7>(7, 2);
}

TEST_CASE("tcu_int4_accumulate matches int4_accumulate", "[rtl][int4]") {
  VerilatedContext context;
  Vtcu_int4_accumulate m(&context);
  constexpr int kDotWidth = 15;  // two halves of the k=64 dot
  constexpr int64_t kDotMin = -7680, kDotMax = 14400;
  auto check = [&](uint32_t c, int64_t dot, bool sat) {
    m.c_i = c;
    m.dot_i = static_cast<uint32_t>(dot) & ((1u << kDotWidth) - 1);
    m.satfinite_i = sat;
    m.eval();
    INFO("c=" << int32_t(c) << " dot=" << dot << " satfinite=" << sat);
    REQUIRE(m.d_o == tcu::int4_accumulate(c, dot, sat));
  };
  constexpr int64_t kMax = std::numeric_limits<int32_t>::max();
  constexpr int64_t kMin = std::numeric_limits<int32_t>::min();

  SECTION("saturation and wrap boundaries") {
    for (bool sat : {false, true})
      for (int64_t dot : {kDotMin, kDotMin + 1, int64_t{-2}, int64_t{-1}, int64_t{0},
                          int64_t{1}, int64_t{2}, kDotMax - 1, kDotMax})
        for (int64_t offset = -3; offset <= 3; ++offset) {
          // C such that C + dot lands just inside or outside each end.
          check(uint32_t(int32_t(std::clamp(kMax - dot + offset, kMin, kMax))), dot, sat);
          check(uint32_t(int32_t(std::clamp(kMin - dot + offset, kMin, kMax))), dot, sat);
          check(uint32_t(int32_t(kMax + offset * (offset < 0))), dot, sat);
          check(uint32_t(int32_t(kMin + offset * (offset > 0))), dot, sat);
        }
  }

  SECTION("random C near the ends and anywhere") {
    std::mt19937_64 rng(3);
    std::uniform_int_distribution<int64_t> dot(kDotMin, kDotMax), near(-20000, 20000);
    std::uniform_int_distribution<uint32_t> any;
    std::uniform_int_distribution<int> pick(0, 2);
    for (int i = 0; i < 100000; ++i) {
      const int where = pick(rng);
      const int64_t c = where == 0   ? std::clamp(kMax + near(rng), kMin, kMax)
                        : where == 1 ? std::clamp(kMin + near(rng), kMin, kMax)
                                     : int64_t(int32_t(any(rng)));
      check(uint32_t(int32_t(c)), dot(rng), i % 2);
    }
  }
}
#endif
