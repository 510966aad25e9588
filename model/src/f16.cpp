// The m8n8k4 .f16 path as sm_90 executes it: fp32 FMAs in a fixed order
// (see tests/data/VECTORS.md), every f16 input widened exactly to f32.
#include <cmath>
#include <cstring>

#include "tcu/golden.h"

namespace tcu {
namespace {

float as_float(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}
uint32_t as_bits(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  return bits;
}
float widen(uint16_t h) { return as_float(f16_to_f32(h)); }

}  // namespace

uint32_t f16_to_f32(uint16_t h) {
  const uint32_t sign = uint32_t(h & 0x8000) << 16;
  const uint32_t exp = (h >> 10) & 0x1f;
  uint32_t frac = h & 0x3ff;
  if (exp == 0x1f) return sign | 0x7f800000 | (frac << 13);  // Inf, NaN
  if (exp != 0) return sign | ((exp + 112) << 23) | (frac << 13);
  if (frac == 0) return sign;
  // Subnormal: normalise into f32's range.
  int shift = 0;
  while ((frac & 0x400) == 0) {
    frac <<= 1;
    ++shift;
  }
  return sign | (uint32_t(113 - shift) << 23) | ((frac & 0x3ff) << 13);
}

uint16_t f32_to_f16_rn(uint32_t f) {
  const uint16_t sign = static_cast<uint16_t>((f >> 16) & 0x8000);
  const int exp = static_cast<int>((f >> 23) & 0xff);
  const uint32_t frac = f & 0x7fffff;
  if (exp == 0xff) {
    if (frac == 0) return sign | 0x7c00;
    return static_cast<uint16_t>(sign | 0x7e00 | (frac >> 13));
  }
  // Value = significand * 2^(exp - 150) with the hidden bit in significand.
  const uint32_t significand = exp == 0 ? frac : frac | 0x800000;
  int unbiased = (exp == 0 ? 1 : exp) - 127;
  // f16 keeps 10 fraction bits for normals (unbiased >= -14) and a fixed
  // 2^-24 quantum below.
  int drop = unbiased >= -14 ? 13 : 13 + (-14 - unbiased);
  if (drop > 25) return sign;  // below half the smallest subnormal
  uint32_t kept = significand >> drop;
  const uint32_t rest = significand & ((1u << drop) - 1);
  const uint32_t half = 1u << (drop - 1);
  if (rest > half || (rest == half && (kept & 1))) ++kept;
  // kept is the significand in units of the result quantum; rebuild the code
  // by adding it to the exponent field so a carry-out renormalises.
  uint32_t code;
  if (unbiased >= -14) {
    code = (uint32_t(unbiased + 15) << 10) + (kept - 0x400);
  } else {
    code = kept;  // subnormal, or carried into the smallest normal
  }
  if (code >= 0x7c00) return sign | 0x7c00;
  return static_cast<uint16_t>(sign | code);
}

uint32_t f16_dot_f32(const uint16_t a[4], const uint16_t b[4], uint32_t c) {
  float acc = std::fma(widen(a[0]), widen(b[0]), 0.0f);
  for (int k = 1; k < 4; ++k) acc = std::fma(widen(a[k]), widen(b[k]), acc);
  const float d = as_float(c) + acc;
  return std::isnan(d) ? kF32CanonicalNan : as_bits(d);
}

uint16_t f16_dot_f16(const uint16_t a[4], const uint16_t b[4], uint16_t c) {
  // f16 x f16 products are exact in f32, so a0*b0 is not a rounding step.
  const float p01 = std::fma(widen(a[1]), widen(b[1]), widen(a[0]) * widen(b[0]));
  const float p23 = std::fma(widen(a[3]), widen(b[3]), widen(a[2]) * widen(b[2]));
  const float s = (widen(c) + p01) + p23;
  return std::isnan(s) ? kF16CanonicalNan : f32_to_f16_rn(as_bits(s));
}

Matrix mma_f16(const Instr& instr, const Matrix& a, const Matrix& b, const Matrix& c) {
  Matrix d(c.batches, c.rows, c.cols);
  uint16_t a_row[4], b_col[4];
  for (int q = 0; q < c.batches; ++q)
    for (int row = 0; row < c.rows; ++row)
      for (int col = 0; col < c.cols; ++col) {
        for (int k = 0; k < 4; ++k) {
          a_row[k] = static_cast<uint16_t>(a.at(q, row, k));
          b_col[k] = static_cast<uint16_t>(b.at(q, k, col));
        }
        const uint64_t c_elem = c.at(q, row, col);
        if (instr.d_type == ElemType::kF16) {
          d.at(q, row, col) = f16_dot_f16(a_row, b_col, static_cast<uint16_t>(c_elem));
        } else {
          const uint32_t c32 = instr.c_type == ElemType::kF16
                                   ? f16_to_f32(static_cast<uint16_t>(c_elem))
                                   : static_cast<uint32_t>(c_elem);
          d.at(q, row, col) = f16_dot_f32(a_row, b_col, c32);
        }
      }
  return d;
}

}  // namespace tcu
