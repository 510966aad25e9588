#include <catch2/catch.hpp>

#include "tcu/golden.h"

using tcu::f16_dot_f16;
using tcu::f16_dot_f32;
using tcu::f16_to_f32;
using tcu::f32_to_f16_rn;

TEST_CASE("f16_to_f32 widens exactly, subnormals and specials included") {
  CHECK(f16_to_f32(0x3c00) == 0x3f800000u);
  CHECK(f16_to_f32(0x8000) == 0x80000000u);
  CHECK(f16_to_f32(0x0001) == 0x33800000u);  // 2^-24
  CHECK(f16_to_f32(0x03ff) == 0x387fc000u);  // largest subnormal
  CHECK(f16_to_f32(0x0400) == 0x38800000u);  // 2^-14
  CHECK(f16_to_f32(0x7bff) == 0x477fe000u);  // 65504
  CHECK(f16_to_f32(0x7c00) == 0x7f800000u);
  CHECK(f16_to_f32(0xfc00) == 0xff800000u);
  CHECK(f16_to_f32(0x7d01) == 0x7fa02000u);  // signalling NaN keeps its payload
}

TEST_CASE("f32_to_f16_rn rounds to nearest even and keeps subnormals") {
  CHECK(f32_to_f16_rn(0x3f800000) == 0x3c00);
  CHECK(f32_to_f16_rn(0x3f801000) == 0x3c00);  // 1 + 2^-11: tie, to even
  CHECK(f32_to_f16_rn(0x3f803000) == 0x3c02);  // 1 + 3*2^-11: tie, to even (up)
  CHECK(f32_to_f16_rn(0x3f801001) == 0x3c01);  // just above the tie
  CHECK(f32_to_f16_rn(0x477fefff) == 0x7bff);  // just below 65520
  CHECK(f32_to_f16_rn(0x477ff000) == 0x7c00);  // 65520: tie, rounds to Inf
  CHECK(f32_to_f16_rn(0xc77ff000) == 0xfc00);
  CHECK(f32_to_f16_rn(0x33000000) == 0x0000);  // 2^-25: tie, to even (zero)
  CHECK(f32_to_f16_rn(0x33000001) == 0x0001);
  CHECK(f32_to_f16_rn(0x33c00000) == 0x0002);  // 1.5 * 2^-24: tie, to even
  CHECK(f32_to_f16_rn(0x387fe000) == 0x0400);  // rounds up into the smallest normal
  CHECK(f32_to_f16_rn(0x80000001) == 0x8000);
  CHECK(f32_to_f16_rn(0x7f800000) == 0x7c00);
}

namespace {
const uint16_t kZero[4] = {0, 0, 0, 0};
}

TEST_CASE("f16_dot paths give the canonical NaN for NaN inputs and invalid operations") {
  const uint16_t nan_a[4] = {0x7d01, 0x3c00, 0x3c00, 0x3c00};
  const uint16_t ones[4] = {0x3c00, 0x3c00, 0x3c00, 0x3c00};
  CHECK(f16_dot_f32(nan_a, ones, 0) == tcu::kF32CanonicalNan);
  CHECK(f16_dot_f16(nan_a, ones, 0) == tcu::kF16CanonicalNan);
  const uint16_t inf_a[4] = {0x7c00, 0, 0, 0};
  CHECK(f16_dot_f32(inf_a, kZero, 0) == tcu::kF32CanonicalNan);  // Inf * 0
  const uint16_t inf_b[4] = {0x3c00, 0, 0, 0};
  CHECK(f16_dot_f32(inf_b, ones, 0xff800000) == 0xff800000u);            // 1 + -Inf
  CHECK(f16_dot_f32(inf_a, ones, 0xff800000) == tcu::kF32CanonicalNan);  // Inf - Inf
  CHECK(f16_dot_f16(ones, ones, 0x7e00) == tcu::kF16CanonicalNan);       // NaN C
}

TEST_CASE("f16_dot zero signs follow the silicon's operation order") {
  const uint16_t minus_zero[4] = {0x8000, 0x8000, 0x8000, 0x8000};
  const uint16_t ones[4] = {0x3c00, 0x3c00, 0x3c00, 0x3c00};
  // f32 D: the chain starts from +0, so -0 products give +0 and -0 + +0 = +0.
  CHECK(f16_dot_f32(minus_zero, ones, 0x80000000) == 0x00000000u);
  // f16 D: exact products keep -0 and (-0) + (-0) = -0.
  CHECK(f16_dot_f16(minus_zero, ones, 0x8000) == 0x8000);
  CHECK(f16_dot_f16(minus_zero, ones, 0x0000) == 0x0000);
}

TEST_CASE("f16_dot_f16 overflows to Inf and keeps subnormal results") {
  const uint16_t sixteen[4] = {0x4c00, 0, 0, 0};
  CHECK(f16_dot_f16(sixteen, sixteen, 0x7bff) == 0x7c00);  // 65504 + 256
  const uint16_t tiny[4] = {0x0c00, 0, 0, 0};              // 2^-12
  CHECK(f16_dot_f16(tiny, tiny, 0x0000) == 0x0001);        // 2^-24
  CHECK(f16_dot_f32(tiny, tiny, 0) == 0x33800000u);
}

TEST_CASE("f16_dot_f32 rounds each FMA step in f32") {
  // Products 1 and three of 2^-24: each step 1 + 2^-24 ties back to 1, where
  // one rounding of the exact sum would give 1 + 2^-22.
  const uint16_t tiny_terms[4] = {0x3c00, 0x0c00, 0x0c00, 0x0c00};  // 1, 2^-12 x3
  CHECK(f16_dot_f32(tiny_terms, tiny_terms, 0) == 0x3f800000u);
  // Products 1 and three of 2^-22 (two f32 ulps at 1): every step is exact.
  const uint16_t exact_terms[4] = {0x3c00, 0x1000, 0x1000, 0x1000};  // 1, 2^-11 x3
  CHECK(f16_dot_f32(exact_terms, exact_terms, 0) == 0x3f800006u);
}
