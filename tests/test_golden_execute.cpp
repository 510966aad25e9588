// golden_execute (lane registers straight to D through precomputed tables)
// against golden_execute_matrix (gather into matrices, golden_mma one
// element at a time, scatter), and the f16/f64 paths' floating-point
// environment guard.
#include <catch2/catch.hpp>
#include <cfenv>
#include <set>

#include "tcu/generator.h"
#include "tcu/golden.h"

#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#endif

namespace {

// Runs fn with MXCSR changed by `set_bits`, restoring it afterwards.
#if defined(__x86_64__) || defined(__i386__)
template <typename Fn>
void with_mxcsr_bits(unsigned set_bits, Fn&& fn) {
  const unsigned saved = _mm_getcsr();
  _mm_setcsr(saved | set_bits);
  try {
    fn();
  } catch (...) {
    _mm_setcsr(saved);
    throw;
  }
  _mm_setcsr(saved);
}
#endif

const tcu::Instr& first_of(tcu::Family family) {
  for (const tcu::Instr& instr : tcu::all_variants())
    if (instr.family == family) return instr;
  throw std::logic_error("no variant of the family");
}

}  // namespace

TEST_CASE("golden_execute matches the matrix-order path on random operands") {
  for (const tcu::Instr& instr : tcu::all_variants()) {
    INFO(instr.ptx());
    for (uint64_t index = 0; index < 300; ++index) {
      const tcu::WarpOperands warp = tcu::generate_operands(instr, 77, index);
      const tcu::Fragment fast = tcu::golden_execute(instr, warp);
      const tcu::Fragment reference = tcu::golden_execute_matrix(instr, warp);
      INFO("case " << index);
      REQUIRE(fast.regs_per_lane == reference.regs_per_lane);
      REQUIRE(fast.regs == reference.regs);
    }
  }
}

TEST_CASE("int4 golden_execute matches the matrix path at the extreme products") {
  // Codes 8 (-8 or 8) and 15 (-1 or 15) in every A/B pattern, and C near
  // the int32 limits so satfinite clamps.
  const uint64_t patterns[] = {0x88888888, 0xffffffff, 0x8f8f8f8f, 0x77777777, 0};
  for (const tcu::Instr& instr : tcu::all_variants()) {
    if (instr.family != tcu::Family::kInt4Dense && instr.family != tcu::Family::kInt4Sparse)
      continue;
    INFO(instr.ptx());
    tcu::WarpOperands warp = tcu::generate_operands(instr, 9, 0);
    for (uint64_t a_word : patterns)
      for (uint64_t b_word : patterns) {
        for (auto& reg : warp.a.regs) reg = a_word;
        for (auto& reg : warp.b.regs) reg = b_word;
        for (size_t i = 0; i < warp.c.regs.size(); ++i)
          warp.c.regs[i] = i % 2 ? 0x7ffff000u : 0x80000fffu;
        INFO("A word " << a_word << ", B word " << b_word);
        REQUIRE(tcu::golden_execute(instr, warp).regs ==
                tcu::golden_execute_matrix(instr, warp).regs);
      }
  }
}

TEST_CASE("e2m1 golden_execute matches the matrix path at the extreme products") {
  // Codes 7 (6.0) and 15 (-6.0) in every A/B pattern.
  const uint64_t patterns[] = {0x77777777, 0xffffffff, 0x7f7f7f7f, 0xf7f7f7f7, 0};
  for (const tcu::Instr& instr : tcu::all_variants()) {
    if (instr.family != tcu::Family::kE2m1) continue;
    INFO(instr.ptx());
    for (uint64_t index = 0; index < 4; ++index) {
      tcu::WarpOperands warp = tcu::generate_operands(instr, 11, index);
      for (uint64_t a_word : patterns)
        for (uint64_t b_word : patterns) {
          for (auto& reg : warp.a.regs) reg = a_word;
          for (auto& reg : warp.b.regs) reg = b_word;
          INFO("case " << index << ", A word " << a_word << ", B word " << b_word);
          REQUIRE(tcu::golden_execute(instr, warp).regs ==
                  tcu::golden_execute_matrix(instr, warp).regs);
        }
    }
  }
}

TEST_CASE("f64 golden_execute matches the step-by-step chain on many operands") {
  // The f64 tile runs the host's fma chain and decides each NaN element by
  // the NaN rules over the chain's kept steps; golden_execute_matrix runs
  // every element step by step (f64_dot).
  // Random operands of the generator, then registers drawn from special
  // values (NaNs of either sign with payloads, infinities, zeros,
  // subnormals, the largest finite, values whose products cancel), in every
  // rounding mode.
  const uint64_t specials[] = {0x7ff8000000000000ull, 0xfff8000000000001ull,
                               0x7ff0000000000001ull, 0xfff4000000000123ull,
                               0x7ff0000000000000ull, 0xfff0000000000000ull,
                               0x0000000000000000ull, 0x8000000000000000ull,
                               0x0000000000000001ull, 0x800fffffffffffffull,
                               0x7fefffffffffffffull, 0xffefffffffffffffull,
                               0x3ff0000000000000ull, 0xbff0000000000000ull,
                               0x3ca0000000000000ull, 0x4000000000000000ull};
  uint64_t state = 0x9e3779b97f4a7c15ull;
  auto next = [&state] {  // splitmix64
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  };
  std::set<tcu::Rounding> modes;
  for (const tcu::Instr& instr : tcu::all_variants()) {
    if (instr.family != tcu::Family::kF64) continue;
    modes.insert(instr.rounding);
    INFO(instr.ptx());
    for (uint64_t index = 0; index < 20000; ++index) {
      tcu::WarpOperands warp = tcu::generate_operands(instr, 123, index);
      if (index % 2) {
        // One register in eight (odd cases) a special value, the rest random bits.
        for (tcu::Fragment* f : {&warp.a, &warp.b, &warp.c})
          for (auto& reg : f->regs) {
            const uint64_t r = next();
            if (r % 8 == 0) reg = specials[(r >> 8) % (sizeof specials / sizeof specials[0])];
          }
      }
      INFO("case " << index);
      REQUIRE(tcu::golden_execute(instr, warp).regs ==
              tcu::golden_execute_matrix(instr, warp).regs);
    }
  }
  REQUIRE(modes.size() == 4);  // .rn, .rz, .rm, .rp
}

TEST_CASE("golden_execute into a reused fragment gives the same D") {
  tcu::Fragment d;
  for (const tcu::Instr& instr : tcu::all_variants()) {
    const tcu::WarpOperands warp = tcu::generate_operands(instr, 5, 1);
    tcu::golden_execute(instr, warp, &d);
    REQUIRE(d.regs == tcu::golden_execute_matrix(instr, warp).regs);
  }
}

TEST_CASE("golden_execute reports invalid sparse metadata like the matrix path") {
  const tcu::Instr instr = first_of(tcu::Family::kInt4Sparse);
  tcu::WarpOperands warp = tcu::generate_operands(instr, 1, 0);
  for (auto& word : warp.e.regs) word = 0;  // every nibble selects pair 0 twice
  std::string fast_message, matrix_message;
  try {
    tcu::golden_execute(instr, warp);
  } catch (const tcu::OperandError& e) {
    fast_message = e.what();
  }
  try {
    tcu::golden_execute_matrix(instr, warp);
  } catch (const tcu::OperandError& e) {
    matrix_message = e.what();
  }
  CHECK(!fast_message.empty());
  CHECK(fast_message == matrix_message);
  CHECK_THROWS_WITH(tcu::validate_operands(instr, warp), matrix_message);
}

TEST_CASE("f16 and f64 results do not depend on the caller's rounding mode") {
  std::vector<std::pair<tcu::Instr, tcu::WarpOperands>> cases;
  std::vector<tcu::Fragment> expected;
  for (const tcu::Instr& instr : tcu::all_variants()) {
    if (instr.family != tcu::Family::kF16 && instr.family != tcu::Family::kF64) continue;
    for (uint64_t index = 0; index < 20; ++index) {
      cases.emplace_back(instr, tcu::generate_operands(instr, 3, index));
      expected.push_back(tcu::golden_execute(instr, cases.back().second));
    }
  }
  for (int mode : {FE_UPWARD, FE_DOWNWARD, FE_TOWARDZERO}) {
    REQUIRE(std::fesetround(mode) == 0);
    for (size_t i = 0; i < cases.size(); ++i) {
      const tcu::Fragment d = tcu::golden_execute(cases[i].first, cases[i].second);
      CHECK(std::fegetround() == mode);  // the caller's mode comes back
      CHECK(d.regs == expected[i].regs);
    }
    // The per-element entry points set their mode too.
    const uint64_t one = 0x3ff0000000000000ull, quarter_ulp = 0x3c90000000000000ull;  // 2^-54
    CHECK(tcu::f64_fma(quarter_ulp, one, one, tcu::Rounding::kRn) == one);
    CHECK(tcu::f64_fma(quarter_ulp, one, one, tcu::Rounding::kRp) == one + 1);
    std::fesetround(FE_TONEAREST);
  }
}

#if defined(__x86_64__) || defined(__i386__)
TEST_CASE("f16 and f64 refuse to run with flush-to-zero or denormals-are-zero on") {
  constexpr unsigned kFlushToZero = 0x8000, kDenormalsAreZero = 0x0040;
  for (tcu::Family family : {tcu::Family::kF16, tcu::Family::kF64}) {
    const tcu::Instr& instr = first_of(family);
    INFO(instr.ptx());
    const tcu::WarpOperands warp = tcu::generate_operands(instr, 1, 0);
    for (unsigned bits : {kFlushToZero, kDenormalsAreZero}) {
      with_mxcsr_bits(bits, [&] {
        CHECK_THROWS_AS(tcu::golden_execute(instr, warp), tcu::FpEnvironmentError);
        CHECK_THROWS_WITH(tcu::golden_execute(instr, warp),
                          Catch::Contains(bits == kFlushToZero ? "FTZ" : "DAZ"));
      });
    }
    CHECK_NOTHROW(tcu::golden_execute(instr, warp));
  }
  const uint16_t ones[4] = {0x3c00, 0x3c00, 0x3c00, 0x3c00};
  with_mxcsr_bits(kDenormalsAreZero, [&] {
    CHECK_THROWS_AS(tcu::f16_dot_f32(ones, ones, 0), tcu::FpEnvironmentError);
    CHECK_THROWS_AS(tcu::f64_fma(1, 1, 1, tcu::Rounding::kRn), tcu::FpEnvironmentError);
  });
  // Integer families do not use the host's floating point.
  with_mxcsr_bits(kFlushToZero | kDenormalsAreZero, [&] {
    for (tcu::Family family : {tcu::Family::kInt4Dense, tcu::Family::kE2m1}) {
      const tcu::Instr& instr = first_of(family);
      CHECK_NOTHROW(tcu::golden_execute(instr, tcu::generate_operands(instr, 1, 0)));
    }
  });
}
#endif
