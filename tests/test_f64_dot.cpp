#include <catch2/catch.hpp>

#include "tcu/golden.h"

using tcu::f64_fma;
using tcu::Rounding;

namespace {
constexpr uint64_t kOne = 0x3ff0000000000000ull;
constexpr uint64_t kMinusOne = 0xbff0000000000000ull;
constexpr uint64_t kTwo = 0x4000000000000000ull;
constexpr uint64_t kInf = 0x7ff0000000000000ull;
constexpr uint64_t kMinusInf = 0xfff0000000000000ull;
constexpr uint64_t kMax = 0x7fefffffffffffffull;
constexpr uint64_t kOneAndAHalfUlpBelow = 0x3ca8000000000000ull;  // 1.5 * 2^-53
}  // namespace

TEST_CASE("f64_fma rounds in each mode") {
  // 1 + 1.5 * 2^-53 lies between 1 and 1 + 2^-52, above the midpoint.
  CHECK(f64_fma(kOneAndAHalfUlpBelow, kOne, kOne, Rounding::kRn) == 0x3ff0000000000001ull);
  CHECK(f64_fma(kOneAndAHalfUlpBelow, kOne, kOne, Rounding::kRz) == kOne);
  CHECK(f64_fma(kOneAndAHalfUlpBelow, kOne, kOne, Rounding::kRm) == kOne);
  CHECK(f64_fma(kOneAndAHalfUlpBelow, kOne, kOne, Rounding::kRp) == 0x3ff0000000000001ull);
  CHECK(f64_fma(kOneAndAHalfUlpBelow, kMinusOne, kMinusOne, Rounding::kRm) ==
        0xbff0000000000001ull);
  CHECK(f64_fma(kOneAndAHalfUlpBelow, kMinusOne, kMinusOne, Rounding::kRp) == kMinusOne);
  CHECK(f64_fma(kOneAndAHalfUlpBelow, kMinusOne, kMinusOne, Rounding::kRz) == kMinusOne);
}

TEST_CASE("f64_fma overflow depends on the mode") {
  CHECK(f64_fma(kMax, kTwo, 0, Rounding::kRn) == kInf);
  CHECK(f64_fma(kMax, kTwo, 0, Rounding::kRz) == kMax);
  CHECK(f64_fma(kMax, kTwo, 0, Rounding::kRm) == kMax);
  CHECK(f64_fma(kMax, kTwo, 0, Rounding::kRp) == kInf);
  CHECK(f64_fma(kMax | (1ull << 63), kTwo, 0, Rounding::kRp) == (kMax | (1ull << 63)));
}

TEST_CASE("f64_fma NaN rules: B, then C, then A, quieted with payload") {
  const uint64_t a_nan = 0x7ff0000000000001ull, b_nan = 0x7ff4000000000000ull,
                 c_nan = 0xfff0000000000123ull;
  CHECK(f64_fma(a_nan, b_nan, c_nan, Rounding::kRn) == 0x7ffc000000000000ull);
  CHECK(f64_fma(a_nan, kOne, c_nan, Rounding::kRn) == 0xfff8000000000123ull);
  CHECK(f64_fma(a_nan, kOne, kOne, Rounding::kRz) == 0x7ff8000000000001ull);
  CHECK(f64_fma(kInf, 0, c_nan, Rounding::kRn) == 0xfff8000000000123ull);
  CHECK(f64_fma(kInf, 0, kOne, Rounding::kRn) == tcu::kF64DefaultNan);
  CHECK(f64_fma(kInf, kOne, kMinusInf, Rounding::kRn) == tcu::kF64DefaultNan);
}

TEST_CASE("f64_fma zero signs and subnormals") {
  CHECK(f64_fma(kOne, kOne, kMinusOne, Rounding::kRn) == 0);
  CHECK(f64_fma(kOne, kOne, kMinusOne, Rounding::kRm) == 0x8000000000000000ull);
  CHECK(f64_fma(0x8000000000000000ull, kOne, 0x8000000000000000ull, Rounding::kRn) ==
        0x8000000000000000ull);
  // 2^-1022 * 0.5 = 2^-1023, a subnormal.
  CHECK(f64_fma(0x0010000000000000ull, 0x3fe0000000000000ull, 0, Rounding::kRn) ==
        0x0008000000000000ull);
  CHECK(f64_fma(0x0000000000000001ull, 0x3fe0000000000000ull, 0, Rounding::kRn) == 0);
  CHECK(f64_fma(0x0000000000000001ull, 0x3fe0000000000000ull, 0, Rounding::kRp) == 1);
}

TEST_CASE("f64_dot rounds after every step of the chain") {
  const uint64_t half_ulp = 0x3ca0000000000000ull;  // 2^-53
  const uint64_t a[4] = {half_ulp, half_ulp, 0, 0};
  const uint64_t b[4] = {kOne, kOne, kOne, kOne};
  // 1 + 2^-53 ties to 1 twice; one rounding of 1 + 2^-52 would not.
  CHECK(tcu::f64_dot(a, b, kOne, Rounding::kRn) == kOne);
  CHECK(tcu::f64_dot(a, b, kOne, Rounding::kRp) == 0x3ff0000000000002ull);
}
