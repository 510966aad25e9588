#include <catch2/catch.hpp>
#include <cstdint>
#include <vector>

#include "tcu/golden.h"

using tcu::int4_accumulate;
using tcu::int4_dot;

TEST_CASE("int4_dot decodes s4 and u4 codes") {
  CHECK(tcu::int4_value(0x8, true) == -8);
  CHECK(tcu::int4_value(0xf, true) == -1);
  CHECK(tcu::int4_value(0x7, true) == 7);
  CHECK(tcu::int4_value(0x8, false) == 8);
  CHECK(tcu::int4_value(0xf, false) == 15);
}

TEST_CASE("int4_dot sign mixes reach the extreme products") {
  std::vector<uint64_t> eights(64, 0x8), fifteens(64, 0xf);
  CHECK(int4_dot(eights.data(), eights.data(), 64, true, true) == 64 * 64);  // -8 * -8
  CHECK(int4_dot(eights.data(), fifteens.data(), 64, true, false) == -8 * 15 * 64);
  CHECK(int4_dot(fifteens.data(), eights.data(), 64, false, true) == 15 * -8 * 64);
  CHECK(int4_dot(fifteens.data(), fifteens.data(), 64, false, false) == 225 * 64);
  CHECK(int4_dot(fifteens.data(), fifteens.data(), 32, true, true) == 32);  // -1 * -1
}

TEST_CASE("int4_dot walks B with a stride") {
  const uint64_t a[2] = {2, 3};
  const uint64_t b[4] = {5, 99, 7, 99};
  CHECK(int4_dot(a, b, 2, false, false, 2) == 2 * 5 + 3 * 7);
}

TEST_CASE("int4_accumulate wraps modulo 2^32 without .satfinite") {
  CHECK(int4_accumulate(0x7fffffff, 1, false) == 0x80000000u);
  CHECK(int4_accumulate(0x80000000, -1, false) == 0x7fffffffu);
  CHECK(int4_accumulate(0xfffffffe, 5, false) == 3u);
}

TEST_CASE("int4_accumulate clamps once with .satfinite") {
  CHECK(int4_accumulate(0x7fffffff, 1, true) == 0x7fffffffu);
  CHECK(int4_accumulate(0x7ffffff0, 15, true) == 0x7fffffffu);  // exactly INT32_MAX
  CHECK(int4_accumulate(0x7ffffff0, 16, true) == 0x7fffffffu);
  CHECK(int4_accumulate(0x7ffffff0, 14, true) == 0x7ffffffeu);
  CHECK(int4_accumulate(0x80000000, -1, true) == 0x80000000u);
  CHECK(int4_accumulate(0x80000010, -16, true) == 0x80000000u);
  CHECK(int4_accumulate(0x80000010, -15, true) == 0x80000001u);
  // Clamped once, on the final sum: a large positive dot brings C back in range.
  CHECK(int4_accumulate(0x80000000, 14400, true) == uint32_t(INT32_MIN + 14400));
}

TEST_CASE("mma_int4 computes every element of m8n8k32") {
  const auto in = tcu::parse_ptx("mma.sync.aligned.m8n8k32.row.col.s32.s4.u4.s32");
  tcu::Matrix a(1, 8, 32), b(1, 32, 8), c(1, 8, 8);
  for (int r = 0; r < 8; ++r)
    for (int k = 0; k < 32; ++k) a.at(0, r, k) = (r + k) & 0xf;
  for (int k = 0; k < 32; ++k)
    for (int n = 0; n < 8; ++n) b.at(0, k, n) = (3 * k + n) & 0xf;
  for (int r = 0; r < 8; ++r)
    for (int n = 0; n < 8; ++n) c.at(0, r, n) = uint32_t(r * 100 - n);
  const auto d = tcu::mma_int4(in, a, b, c);
  for (int r = 0; r < 8; ++r)
    for (int n = 0; n < 8; ++n) {
      int64_t want = r * 100 - n;
      for (int k = 0; k < 32; ++k) {
        int av = (r + k) & 0xf;
        if (av >= 8) av -= 16;
        want += av * ((3 * k + n) & 0xf);
      }
      CHECK(d.at(0, r, n) == uint32_t(want));
    }
}
