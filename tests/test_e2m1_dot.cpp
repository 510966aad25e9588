// Directed tests of the block-scaled e2m1 golden model. Every expected value
// is worked out by hand from the numerics in shared/vectors/README.md
// ("Block-scaled e2m1 vectors"); the derivation is in the comment beside it.
#include <array>
#include <catch2/catch.hpp>
#include <cstdint>
#include <cstring>
#include <stdexcept>

#include "tcu/golden.h"
#include "tcu/instr.h"
#include "tcu/layout.h"

namespace {

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

// e2m1 codes (bit 3 is the sign).
constexpr uint64_t kE2m1Half = 0x1, kE2m1One = 0x2, kE2m1OneHalf = 0x3, kE2m1Six = 0x7,
                   kE2m1Neg = 0x8;
constexpr uint8_t kUe8m0One = 0x7f;  // 2^0; 2^e is 0x7f + e
constexpr uint8_t kUe4m3One = 0x38;  // exponent field 7, mantissa 0

constexpr uint32_t kPlusZero = 0x00000000;
constexpr uint32_t kF32One = 0x3f800000, kF32MinusOne = 0xbf800000;
constexpr uint32_t kF32Max = 0x7f7fffff, kF32PlusInf = 0x7f800000, kF32MinusInf = 0xff800000;

constexpr uint8_t ue8m0_pow2(int exponent) { return static_cast<uint8_t>(kUe8m0One + exponent); }

// One D element's inputs, unit scales and zero A, B, C to start with.
struct DotInputs {
  DotInputs(const tcu::Instr& which, uint8_t unit_scale) : instr(&which) {
    scale_a.fill(unit_scale);
    scale_b.fill(unit_scale);
  }
  uint32_t run() const {
    return tcu::e2m1_dot(*instr, a.data(), b.data(), 1, scale_a.data(), scale_b.data(), 1, c);
  }
  const tcu::Instr* instr;
  std::array<uint64_t, 64> a{}, b{};
  std::array<uint64_t, 4> scale_a{}, scale_b{};
  uint32_t c = kPlusZero;
};

DotInputs ue8m0_inputs() { return DotInputs(mxf4_2x(), kUe8m0One); }
DotInputs ue4m3_inputs() { return DotInputs(nvf4_4x(), kUe4m3One); }

uint32_t bits_of(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

}  // namespace

TEST_CASE("e2m1_dot decodes every e2m1 code", "[e2m1]") {
  // code x times 1.0, unit scales, C = +0. -0 gives +0 (exact zero).
  const uint32_t expected[16] = {0x00000000, 0x3f000000, 0x3f800000, 0x3fc00000,  // 0, 0.5, 1, 1.5
                                 0x40000000, 0x40400000, 0x40800000, 0x40c00000,  // 2, 3, 4, 6
                                 0x00000000, 0xbf000000, 0xbf800000, 0xbfc00000,  // -0 .. -1.5
                                 0xc0000000, 0xc0400000, 0xc0800000, 0xc0c00000};
  for (uint64_t code = 0; code < 16; ++code) {
    DotInputs in = ue8m0_inputs();
    in.a[5] = code;
    in.b[5] = kE2m1One;
    INFO("code " << code);
    CHECK(in.run() == expected[code]);
  }
}

TEST_CASE("e2m1_dot exact small products", "[e2m1]") {
  DotInputs in = ue8m0_inputs();
  SECTION("6*3 + (-0.5)*1.5 = 17.25") {
    in.a[0] = kE2m1Six;
    in.b[0] = 0x5;  // 3
    in.a[1] = kE2m1Neg | kE2m1Half;
    in.b[1] = kE2m1OneHalf;
    CHECK(in.run() == 0x418a0000);  // 1.078125 * 2^4
  }
  SECTION("C = 1 plus 6*6 = 37") {
    in.a[63] = kE2m1Six;
    in.b[63] = kE2m1Six;
    in.c = kF32One;
    CHECK(in.run() == 0x42140000);  // 1.15625 * 2^5
  }
  SECTION("all 64 products of 1 sum to 64") {
    in.a.fill(kE2m1One);
    in.b.fill(kE2m1One);
    CHECK(in.run() == 0x42800000);
  }
  SECTION("each scale block scales only its own K range (2X: 32 wide)") {
    in.a.fill(kE2m1One);
    in.b.fill(kE2m1One);
    in.scale_a[1] = ue8m0_pow2(2);  // k 32..63 count 4 each
    CHECK(in.run() == bits_of(32.0f + 128.0f));
  }
  SECTION("4X: four 16-wide blocks") {
    DotInputs nv = ue4m3_inputs();
    nv.a.fill(kE2m1One);
    nv.b.fill(kE2m1One);
    nv.scale_b[2] = 0x40;  // 2.0: k 32..47 count 2 each
    CHECK(nv.run() == bits_of(48.0f + 32.0f));
  }
  SECTION("b_stride and scale_b_stride pick B's column") {
    // B as a 64 x 2 row-major matrix; column 1 holds the ones.
    std::array<uint64_t, 128> b{};
    std::array<uint64_t, 8> scale_b{};
    scale_b.fill(0xff);  // column 0's scales are NaN and must not be read
    for (int k = 0; k < 64; ++k) b[2 * k + 1] = kE2m1One;
    scale_b[1] = kUe8m0One;
    scale_b[3] = ue8m0_pow2(1);
    in.a.fill(kE2m1Half);
    uint32_t d = tcu::e2m1_dot(mxf4_2x(), in.a.data(), b.data() + 1, 2, in.scale_a.data(),
                               scale_b.data() + 1, 2, 0);
    CHECK(d == bits_of(16.0f + 32.0f));  // 32*0.5 + 32*0.5*2
  }
}

TEST_CASE("e2m1_dot ue8m0 scale extremes", "[e2m1]") {
  DotInputs in = ue8m0_inputs();
  in.a[0] = kE2m1One;
  in.b[0] = kE2m1One;
  SECTION("0x00 is 2^-127, a subnormal result") {
    // Both blocks, so that block 1's zero term does not align at 2^0.
    in.scale_a[0] = in.scale_a[1] = 0x00;
    CHECK(in.run() == 0x00400000);  // 2^22 units of 2^-149
  }
  SECTION("0xfe is 2^127") {
    in.scale_b[0] = 0xfe;
    CHECK(in.run() == 0x7f000000);
    in.a[0] = kE2m1OneHalf;
    CHECK(in.run() == 0x7f400000);
  }
  SECTION("2^127 * 6 overflows to Inf, keeping the sign") {
    in.scale_b[0] = 0xfe;
    in.a[0] = kE2m1Six;
    CHECK(in.run() == kF32PlusInf);
    in.a[0] = kE2m1Neg | kE2m1Six;
    CHECK(in.run() == kF32MinusInf);
  }
  SECTION("2^127 * 2^127 is Inf") {
    in.scale_a[0] = 0xfe;
    in.scale_b[0] = 0xfe;
    CHECK(in.run() == kF32PlusInf);
  }
  SECTION("0xff anywhere in the row's or column's scales is NaN") {
    in.scale_a[1] = 0xff;  // block 1's products are all zero
    CHECK(in.run() == tcu::kF32CanonicalNan);
    in.scale_a[1] = kUe8m0One;
    in.scale_b[0] = 0xff;
    CHECK(in.run() == tcu::kF32CanonicalNan);
  }
  SECTION("scale bytes beyond scale_blocks() are not read") {
    in.scale_a[2] = 0xff;
    in.scale_b[3] = 0xff;
    CHECK(in.run() == kF32One);
  }
}

TEST_CASE("e2m1_dot ue4m3 scales", "[e2m1]") {
  DotInputs in = ue4m3_inputs();
  in.a[0] = kE2m1One;
  in.b[0] = kE2m1One;
  SECTION("448 = 0x7e") {
    in.scale_a[0] = 0x7e;
    CHECK(in.run() == 0x43e00000);  // 1.75 * 2^8
    in.scale_b[0] = 0x7e;
    CHECK(in.run() == 0x48440000);  // 200704 = 1.53125 * 2^17
  }
  SECTION("mantissa: 0x3b = 1.375") {
    in.scale_a[0] = 0x3b;
    CHECK(in.run() == 0x3fb00000);
  }
  SECTION("subnormals: 0x01 = 2^-9, 0x07 = 7 * 2^-9") {
    in.scale_a[0] = 0x01;
    CHECK(in.run() == 0x3b000000);
    in.scale_a[0] = 0x07;
    CHECK(in.run() == 0x3c600000);  // 1.75 * 2^-7
  }
  SECTION("zero scale leaves C") {
    in.scale_a[0] = 0x00;
    in.c = 0x3fc00000;  // 1.5
    CHECK(in.run() == 0x3fc00000);
  }
  SECTION("the sign bit is ignored") {
    in.scale_a[0] = 0xb8;  // -1.0 read as 1.0
    CHECK(in.run() == kF32One);
    in.scale_a[0] = 0xfe;  // -448 read as 448, not NaN
    CHECK(in.run() == 0x43e00000);
    in.scale_a[0] = 0x80;  // -0 read as 0
    CHECK(in.run() == kPlusZero);
  }
  SECTION("0x7f and 0xff are NaN, even on an all-zero block") {
    in.scale_b[3] = 0x7f;
    CHECK(in.run() == tcu::kF32CanonicalNan);
    in.scale_b[3] = 0xff;
    CHECK(in.run() == tcu::kF32CanonicalNan);
  }
}

TEST_CASE("e2m1_dot NaN and infinite C", "[e2m1]") {
  DotInputs in = ue8m0_inputs();
  in.a[0] = kE2m1One;
  in.b[0] = kE2m1One;
  for (uint32_t nan : {0x7fc00000u, 0xffc00001u, 0x7f800001u, 0xffffffffu}) {
    in.c = nan;
    INFO("C " << std::hex << nan);
    CHECK(in.run() == tcu::kF32CanonicalNan);
  }
  // MMA-Sim rejects an infinite C; the model passes it through (a finite
  // sum cannot change it). A model choice, not from the reference.
  in.c = kF32MinusInf;
  CHECK(in.run() == kF32MinusInf);
}

TEST_CASE("e2m1_dot window truncation", "[e2m1]") {
  DotInputs in = ue8m0_inputs();
  in.a[0] = kE2m1One;
  in.b[0] = kE2m1One;  // a term of 1.0 at exponent 0
  SECTION("C below 2^-35 of the largest exponent is dropped") {
    in.c = 0xad800000;  // -2^-36: the exact sum would round to 0x3f7fffff
    CHECK(in.run() == kF32One);
  }
  SECTION("C's bits below the window are truncated toward zero") {
    // Terms 1 - 1 cancel at exponent 0; C = 1.5 * 2^-35 keeps 1 * 2^-35.
    in.a[16] = kE2m1One;
    in.b[16] = kE2m1Neg | kE2m1One;
    in.c = 0x2e400000;  // 1.5 * 2^-35
    CHECK(in.run() == 0x2e000000);
    in.c = 0xae400000;  // -1.5 * 2^-35 -> -1 * 2^-35, not -2 * 2^-35
    CHECK(in.run() == 0xae000000);
    in.c = 0x2dc00000;  // 1.5 * 2^-36 -> 0
    CHECK(in.run() == kPlusZero);
  }
  SECTION("all-zero groups set the alignment exponent") {
    in.b[0] = 0;
    in.scale_a.fill(ue8m0_pow2(35));  // zero terms at exponent 35
    in.c = 0x3fc00000;                // 1.5: keeps 1 (2^-35 * 2^35)
    CHECK(in.run() == kF32One);
    in.c = 0xbfc00000;  // -1.5 -> -1
    CHECK(in.run() == kF32MinusOne);
    in.scale_a.fill(ue8m0_pow2(36));  // C = 1.5 is now below the window
    in.c = 0x3fc00000;
    CHECK(in.run() == kPlusZero);
  }
  SECTION("a term is truncated on its own before the add") {
    // Block 0: +2^-149 (exponent -127 - 22). Block 1: -0.5 * 2^-254, far
    // below the window under C's exponent -126, so it is dropped; the exact
    // sum would round toward zero to +0.
    in.scale_a = {0x00, 0x00, kUe8m0One, kUe8m0One};
    in.scale_b = {ue8m0_pow2(-22), 0x00, kUe8m0One, kUe8m0One};
    in.a[32] = kE2m1Neg | kE2m1Half;
    in.b[32] = kE2m1One;
    CHECK(in.run() == 0x00000001);
  }
  SECTION("a group term's significand is not renormalised (ue4m3)") {
    DotInputs nv = ue4m3_inputs();
    for (int k = 0; k < 16; ++k) nv.a[k] = nv.b[k] = kE2m1Six;
    nv.scale_a[0] = nv.scale_b[0] = 0x7e;  // term 576 * 3.0625 at exponent 16
    // C = -2^-19 = -1 * 2^(16 - 35) is inside the window.
    nv.c = 0xb6000000;
    // 1764 * 2^16 - 2^-19, toward zero: one ulp below 1764 * 2^16.
    CHECK(nv.run() == 0x4cdc7fff);
    // C = -2^-20 falls out of it.
    nv.c = 0xb5800000;
    CHECK(nv.run() == 0x4cdc8000);  // 1764 * 2^16 = 1.72265625 * 2^26
  }
}

TEST_CASE("e2m1_dot rounds toward zero", "[e2m1]") {
  DotInputs in = ue8m0_inputs();
  in.a[0] = kE2m1OneHalf;
  in.b[0] = kE2m1One;
  in.scale_a[0] = ue8m0_pow2(-24);
  in.c = kF32One;
  // 1 + 1.5 * 2^-24: nearest would give 0x3f800001.
  CHECK(in.run() == kF32One);
  in.a[0] = kE2m1Neg | kE2m1OneHalf;
  in.c = kF32MinusOne;
  CHECK(in.run() == kF32MinusOne);
}

TEST_CASE("e2m1_dot overflow: FLT_MAX below 2^128, Inf from 2^128", "[e2m1]") {
  DotInputs in = ue8m0_inputs();
  in.a[0] = kE2m1One;
  in.b[0] = kE2m1One;
  SECTION("FLT_MAX + 2^103 = 2^128 - 2^103 gives FLT_MAX") {
    in.scale_a[0] = ue8m0_pow2(103);
    in.c = kF32Max;
    CHECK(in.run() == kF32Max);
    in.a[0] = kE2m1Neg | kE2m1One;
    in.c = kF32Max | 0x80000000u;
    CHECK(in.run() == (kF32Max | 0x80000000u));
  }
  SECTION("FLT_MAX + 2^104 = 2^128 gives Inf") {
    in.scale_a[0] = ue8m0_pow2(104);
    in.c = kF32Max;
    CHECK(in.run() == kF32PlusInf);
    in.a[0] = kE2m1Neg | kE2m1One;
    in.c = kF32Max | 0x80000000u;
    CHECK(in.run() == kF32MinusInf);
  }
}

TEST_CASE("e2m1_dot zero results are +0", "[e2m1]") {
  DotInputs in = ue8m0_inputs();
  SECTION("1*1 + C = -1 cancels exactly") {
    in.a[0] = kE2m1One;
    in.b[0] = kE2m1One;
    in.c = kF32MinusOne;
    CHECK(in.run() == kPlusZero);
  }
  SECTION("huge terms that cancel") {
    in.scale_a.fill(0xfe);
    in.scale_b.fill(0xfe);
    in.a[0] = in.b[0] = kE2m1Six;
    in.a[32] = kE2m1Six;
    in.b[32] = kE2m1Neg | kE2m1Six;
    CHECK(in.run() == kPlusZero);
  }
  SECTION("-0 products and C = -0") {
    in.a[0] = kE2m1Neg;
    in.b[0] = kE2m1One;
    in.c = 0x80000000;
    CHECK(in.run() == kPlusZero);
  }
  SECTION("negative underflow") {
    // -0.5 * 2^-127 * 2^-22 = -2^-150: below the smallest subnormal. Both
    // blocks' terms sit at exponent -149, so C's -126 sets the alignment.
    in.a[0] = kE2m1Neg | kE2m1Half;
    in.b[0] = kE2m1One;
    in.scale_a[0] = in.scale_a[1] = 0x00;
    in.scale_b[0] = in.scale_b[1] = ue8m0_pow2(-22);
    CHECK(in.run() == kPlusZero);
    in.a[0] = kE2m1Neg | kE2m1One;  // -2^-149 is kept
    CHECK(in.run() == 0x80000001);
  }
}

TEST_CASE("e2m1_dot subnormal C and results", "[e2m1]") {
  DotInputs in = ue8m0_inputs();
  SECTION("subnormal C passes zero products with tiny scales") {
    in.scale_a.fill(0x00);  // zero terms at exponent -254
    in.c = 0x00012345;
    CHECK(in.run() == 0x00012345);
    in.c = 0x80012345;
    CHECK(in.run() == 0x80012345);
  }
  SECTION("zero products with unit scales truncate subnormal C away") {
    in.c = 0x00012345;  // aligned to 2^0, all its bits are below 2^-35
    CHECK(in.run() == kPlusZero);
  }
  SECTION("subnormal C plus 2^-149") {
    in.a[0] = kE2m1One;
    in.b[0] = kE2m1One;
    in.scale_a[0] = in.scale_a[1] = 0x00;
    in.scale_b[0] = in.scale_b[1] = ue8m0_pow2(-22);
    in.c = 0x00000001;
    CHECK(in.run() == 0x00000002);
    in.c = 0x007fffff;  // largest subnormal + 2^-149 = 2^-126
    CHECK(in.run() == 0x00800000);
    in.c = 0x80800000;  // -2^-126 + 2^-149
    CHECK(in.run() == 0x807fffff);
  }
}

TEST_CASE("e2m1_dot mma_e2m1 indexes rows, columns and scale blocks", "[e2m1]") {
  const tcu::Instr& instr = mxf4_2x();
  tcu::Matrix a(1, 16, 64), b(1, 64, 8), c(1, 16, 8), scale_a(1, 16, 2), scale_b(1, 2, 8);
  const float e2m1_values[8] = {0, 0.5f, 1, 1.5f, 2, 3, 4, 6};
  for (int m = 0; m < 16; ++m) {
    a.at(0, m, 0) = m % 8;
    a.at(0, m, 63) = kE2m1One;
    scale_a.at(0, m, 0) = ue8m0_pow2(m / 8);
    scale_a.at(0, m, 1) = kUe8m0One;
  }
  for (int n = 0; n < 8; ++n) {
    b.at(0, 0, n) = 7 - n;
    b.at(0, 63, n) = kE2m1One;
    scale_b.at(0, 0, n) = kUe8m0One;
    scale_b.at(0, 1, n) = ue8m0_pow2(n);
  }
  c.at(0, 3, 5) = bits_of(0.25f);
  tcu::Matrix d = tcu::mma_e2m1(instr, a, b, c, scale_a, scale_b);
  REQUIRE(d.rows == 16);
  REQUIRE(d.cols == 8);
  for (int m = 0; m < 16; ++m)
    for (int n = 0; n < 8; ++n) {
      // Every term here is a small power-of-two multiple, exact in float.
      float expected = e2m1_values[m % 8] * e2m1_values[7 - n] * static_cast<float>(1 << (m / 8)) +
                       static_cast<float>(1 << n) + (m == 3 && n == 5 ? 0.25f : 0.0f);
      INFO("row " << m << " col " << n);
      CHECK(d.at(0, m, n) == bits_of(expected));
    }
  tcu::Matrix wrong_scale_b(1, 4, 8);
  CHECK_THROWS_AS(tcu::mma_e2m1(instr, a, b, c, scale_a, wrong_scale_b), std::invalid_argument);
}
