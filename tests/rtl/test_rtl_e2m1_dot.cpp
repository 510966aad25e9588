// rtl/tcu_e2m1_dot.sv at Stages = 2, 0, 1, 8 and 11, bit-exact against the golden
// e2m1_dot (model/src/e2m1.cpp): random operands biased toward the corners
// the numerics have (window truncation, cancellation, zero terms that set the
// alignment, overflow, subnormal results, NaN scales and C), with random
// valid and enable; and every element of the MMA-Sim e2m1 vectors.
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>
#include <random>
#include <string>

#include <catch2/catch.hpp>

#ifdef TCU_GLS
// Gate-level: only the Yosys netlist of tcu_e2m1_dot at its default
// Stages=2 (tests/rtl/gls_units.cmake), on a shorter random stream.
#include "Vtcu_e2m1_dot_gls.h"
#else
#include "Vtcu_e2m1_dot_s0.h"
#include "Vtcu_e2m1_dot_s1.h"
#include "Vtcu_e2m1_dot_s2.h"
#include "Vtcu_e2m1_dot_s8.h"
#include "Vtcu_e2m1_dot_s11.h"
#endif
#include "int_rtl_util.h"
#include "tcu/golden.h"
#include "tcu/layout.h"
#include "tcu/vectors.h"

namespace {

using tcu_int_test::set_bits;

constexpr int kK = 64, kBlocks = 4;
#ifdef TCU_GLS
constexpr int kRandomCycles = 6000;
#else
constexpr int kRandomCycles = 60000;
#endif

const tcu::Instr& mxf4_2x() {
  static const tcu::Instr instr = tcu::parse_ptx(
      "mma.sync.aligned.m16n8k64.row.col.kind::mxf4.block_scale.scale_vec::2X."
      "f32.e2m1.e2m1.f32.ue8m0");
  return instr;
}
const tcu::Instr& nvf4_4x() {
  static const tcu::Instr instr = tcu::parse_ptx(
      "mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale.scale_vec::"
      "4X.f32.e2m1.e2m1.f32.ue4m3");
  return instr;
}

struct DotInput {
  bool four_x = false;
  std::array<uint64_t, kK> a{}, b{};
  std::array<uint64_t, kBlocks> scale_a{}, scale_b{};  // 2X: bytes 2, 3 are junk
  uint32_t c = 0;
  uint32_t golden() const {
    return tcu::e2m1_dot(four_x ? nvf4_4x() : mxf4_2x(), a.data(), b.data(), 1, scale_a.data(),
                         scale_b.data(), 1, c);
  }
};

float as_float(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}
uint32_t float_bits(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  return bits;
}
double e2m1_value(uint64_t code) {
  static constexpr double kMag[8] = {0, 0.5, 1, 1.5, 2, 3, 4, 6};
  return (code & 8 ? -1 : 1) * kMag[code & 7];
}
double scale_value(uint64_t byte, bool ue4m3) {
  if (!ue4m3) return std::ldexp(1.0, int(byte) - 127);
  const int mag = int(byte & 0x7f), e = mag >> 3, m = mag & 7;
  return e == 0 ? std::ldexp(m / 8.0, -6) : std::ldexp(1 + m / 8.0, e - 7);
}

class Generator {
 public:
  explicit Generator(uint64_t seed) : rng_(seed) {}

  DotInput next() {
    DotInput in;
    in.four_x = coin(0.5);
    fill_codes(in.a);
    fill_codes(in.b);
    // Some K groups cancel exactly: b repeats within the group, a negates
    // its first half into its second.
    if (coin(0.15)) {
      const int g = pick(0, 3);
      for (int i = 0; i < 8; ++i) {
        in.a[16 * g + 8 + i] = in.a[16 * g + i] ^ 8;
        in.b[16 * g + 8 + i] = in.b[16 * g + i];
      }
    }
    for (int j = 0; j < kBlocks; ++j) {
      in.scale_a[j] = scale(in.four_x);
      in.scale_b[j] = scale(in.four_x);
    }
    in.c = c_value(in);
    return in;
  }

 private:
  bool coin(double p) { return std::bernoulli_distribution(p)(rng_); }
  int pick(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  uint32_t bits32() { return std::uniform_int_distribution<uint32_t>()(rng_); }

  void fill_codes(std::array<uint64_t, kK>& codes) {
    const int mode = pick(0, 4);
    for (auto& x : codes) {
      switch (mode) {
        case 0: x = pick(0, 15); break;                          // dense
        case 1: x = coin(0.85) ? (coin(0.5) ? 0 : 8) : pick(0, 15); break;  // sparse, ±0
        case 2: x = coin(0.5) ? 0x2 : 0xa; break;                // ±1
        case 3: x = coin(0.5) ? 0x7 : 0xf; break;                // ±6
        default: x = pick(0, 1) ? 0x7 : pick(0, 15); break;     // mostly +6
      }
    }
  }

  uint64_t scale(bool ue4m3) {
    const int mode = pick(0, 9);
    if (!ue4m3) {
      if (mode < 4) return 127 + pick(-3, 3);
      if (mode < 6) return pick(100, 160);
      if (mode < 8) return std::array<int, 6>{0, 1, 2, 252, 253, 254}[pick(0, 5)];
      if (mode < 9) return pick(0, 254);
      return coin(0.3) ? 0xff : pick(0, 254);
    }
    // ue4m3: bit 7 is ignored (abs), so set it at random.
    const uint64_t sign = coin(0.2) ? 0x80 : 0;
    if (mode < 4) return sign | (0x38 + pick(-6, 6));
    if (mode < 6) return sign | pick(0, 7);  // zero and subnormals
    if (mode < 8) return sign | std::array<int, 4>{0x7e, 0x77, 0x08, 0x01}[pick(0, 3)];
    if (mode < 9) return sign | pick(0, 0x7e);
    return sign | (coin(0.3) ? 0x7f : pick(0, 0x7e));
  }

  uint32_t c_value(const DotInput& in) {
    const int mode = pick(0, 11);
    const uint32_t sign = coin(0.5) ? 0x80000000u : 0;
    switch (mode) {
      case 0: return sign;                                   // ±0
      case 1: return sign | pick(1, 0x7fffff);               // subnormal
      case 2: return sign | 0x7f7fffffu;                     // ±FLT_MAX
      case 3: return coin(0.5) ? 0x7fc00000u | pick(0, 0x3fffff) : sign | 0x7f800001u;  // NaN
      case 4: return sign | 0x7f800000u;                     // ±Inf
      case 5: return bits32();                               // any pattern
      case 6: return sign | uint32_t(pick(1, 254)) << 23 | (bits32() & 0x7fffff);
      case 7:
      case 8: {                                              // cancels the products
        double sum = 0;
        const bool ue4m3 = in.four_x;
        for (int k = 0; k < kK; ++k) {
          const int block = in.four_x ? k / 16 : k / 32;
          sum += e2m1_value(in.a[k]) * e2m1_value(in.b[k]) *
                 scale_value(in.scale_a[block], ue4m3) * scale_value(in.scale_b[block], ue4m3);
        }
        uint32_t c = float_bits(float(-sum));
        if (coin(0.5)) c += pick(-3, 3);  // or nearly
        return c;
      }
      default:                                               // moderate
        return float_bits(float(std::ldexp(double(pick(-1000000, 1000000)), pick(-30, 0))));
    }
  }

  std::mt19937_64 rng_;
};

template <class Model>
void set_input(Model& m, const DotInput& in) {
  m.scale_4x_i = in.four_x;
  for (int k = 0; k < kK; ++k) {
    set_bits(m.a_i, 4 * k, 4, in.a[k]);
    set_bits(m.b_i, 4 * k, 4, in.b[k]);
  }
  uint32_t sa = 0, sb = 0;
  for (int j = 0; j < kBlocks; ++j) {
    sa |= uint32_t(in.scale_a[j] & 0xff) << (8 * j);
    sb |= uint32_t(in.scale_b[j] & 0xff) << (8 * j);
  }
  m.scale_a_i = sa;
  m.scale_b_i = sb;
  m.c_i = in.c;
}

template <class Model>
void check_unit(int stages, uint64_t seed) {
  VerilatedContext context;
  Model m(&context);
  tcu_int_test::reset(m);
  Generator gen(seed);
  std::mt19937_64 rng(seed + 100);

  SECTION("random operands with random valid and enable") {
    // The expected result with the input that produced it, for messages.
    struct Expect {
      uint32_t d;
      DotInput in;
    };
    tcu_int_test::run_pipeline<Model, Expect>(
        m, stages, kRandomCycles, rng, 0.7, 0.8,
        [&](bool valid) -> std::optional<Expect> {
          const DotInput in = gen.next();
          set_input(m, in);
          if (!valid) return std::nullopt;
          return Expect{in.golden(), in};
        },
        [&](const std::optional<Expect>& want, int cycle) {
          INFO("cycle " << cycle);
          REQUIRE(bool(m.valid_o) == want.has_value());
          if (!want) return;
          INFO("4X " << want->in.four_x << " c 0x" << std::hex << want->in.c);
          REQUIRE(m.d_o == want->d);
        });
  }

  SECTION("a lone input appears after exactly Stages cycles") {
    const DotInput in = gen.next();
    m.en_i = 1;
    for (int cycle = 0; cycle <= stages + 2; ++cycle) {
      m.valid_i = cycle == 0;
      set_input(m, in);
      m.clk_i = 0;
      m.eval();
      INFO("cycle " << cycle);
      REQUIRE(bool(m.valid_o) == (cycle == stages));
      if (cycle == stages) REQUIRE(m.d_o == in.golden());
      m.clk_i = 1;
      m.eval();
    }
  }

  SECTION("every element of the MMA-Sim e2m1 vectors") {
    tcu::VectorReader reader(std::string(TCU_TEST_DATA_DIR) + "/e2m1-mmasim-public.jsonl.gz");
    tcu::MmaCase mma_case;
    int cases = 0;
    m.en_i = 1;
    while (reader.next(&mma_case)) {
      const tcu::Instr& instr = mma_case.instr;
      ++cases;
      const tcu::Operands ops = tcu::gather_operands(instr, mma_case.operands);
      const tcu::Matrix d = tcu::fragment_layout(instr, tcu::Operand::kD).gather(mma_case.d);
      for (int r = 0; r < instr.shape.m; ++r)
        for (int col = 0; col < instr.shape.n; ++col) {
          DotInput in;
          in.four_x = instr.scale_vec == tcu::ScaleVec::k4X;
          for (int k = 0; k < kK; ++k) {
            in.a[k] = ops.a.at(0, r, k);
            in.b[k] = ops.b.at(0, k, col);
          }
          for (int j = 0; j < instr.scale_blocks(); ++j) {
            in.scale_a[j] = ops.scale_a.at(0, r, j);
            in.scale_b[j] = ops.scale_b.at(0, j, col);
          }
          in.c = uint32_t(ops.c.at(0, r, col));
          // One input, then clock it through.
          m.valid_i = 1;
          set_input(m, in);
          for (int cycle = 0; cycle <= stages; ++cycle) {
            m.clk_i = 0;
            m.eval();
            if (cycle == stages) {
              INFO(mma_case.where() << " row " << r << " col " << col);
              REQUIRE(m.valid_o);
              REQUIRE(m.d_o == d.at(0, r, col));
            }
            m.clk_i = 1;
            m.eval();
            m.valid_i = 0;
          }
        }
    }
    REQUIRE(cases > 0);
  }
}

}  // namespace

#ifdef TCU_GLS
TEST_CASE("tcu_e2m1_dot netlist (Yosys, Stages=2) matches e2m1_dot", "[gls][e2m1]") {
  check_unit<Vtcu_e2m1_dot_gls>(2, 21);
}
#else
TEST_CASE("tcu_e2m1_dot Stages=2 matches e2m1_dot", "[rtl][e2m1]") {
  check_unit<Vtcu_e2m1_dot_s2>(2, 21);
}

TEST_CASE("tcu_e2m1_dot Stages=0 matches e2m1_dot", "[rtl][e2m1]") {
  check_unit<Vtcu_e2m1_dot_s0>(0, 22);
}

// One register: every layer runs in the output register's block.
TEST_CASE("tcu_e2m1_dot Stages=1 matches e2m1_dot", "[rtl][e2m1]") {
  check_unit<Vtcu_e2m1_dot_s1>(1, 24);
}

// Two registers after every layer: the second of each is a tcu_pipe_reg.
// Verilated with SynthImpl = 1: the products as Yosys maps them.
TEST_CASE("tcu_e2m1_dot Stages=8 (SynthImpl=1) matches e2m1_dot", "[rtl][e2m1]") {
  check_unit<Vtcu_e2m1_dot_s8>(8, 23);
}

// The fine form at its one-register-a-part setting (the deepest): the sum
// carry-save and in two chunks, the magnitude in two chunks.
TEST_CASE("tcu_e2m1_dot Stages=11 (the fine form) matches e2m1_dot", "[rtl][e2m1]") {
  check_unit<Vtcu_e2m1_dot_s11>(11, 25);
}
#endif
