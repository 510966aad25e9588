// The m8n8k4 .f16 path as sm_90 executes it: fp32 FMAs in a fixed order
// (see tests/data/VECTORS.md), every f16 input widened exactly to f32. The
// host's fp32 arithmetic does the steps; HostFpMode sets round-to-nearest
// and refuses an environment that flushes subnormals.
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>

#include "fp_env.h"
#include "lanes.h"
#include "tcu/golden.h"

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>
#endif

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
  const uint32_t frac = h & 0x3ff;
  if (exp == 0x1f) return sign | 0x7f800000 | (frac << 13);  // Inf, NaN
  if (exp != 0) return sign | ((exp + 112) << 23) | (frac << 13);
  if (frac == 0) return sign;
  // Subnormal: normalise into f32's range (the leading 1 moves to bit 10).
  const int shift = __builtin_clz(frac) - 21;
  return sign | (uint32_t(113 - shift) << 23) | (((frac << shift) & 0x3ff) << 13);
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

namespace {

// The two operation orders on widened operands, in the host's current mode.
inline uint32_t dot_f32_in_host_mode(const float a[4], const float b[4], float c) {
  float acc = std::fma(a[0], b[0], 0.0f);
  for (int k = 1; k < 4; ++k) acc = std::fma(a[k], b[k], acc);
  const float d = c + acc;
  return std::isnan(d) ? kF32CanonicalNan : as_bits(d);
}

inline uint16_t dot_f16_in_host_mode(const float a[4], const float b[4], float c) {
  // f16 x f16 products are exact in f32, so a0*b0 is not a rounding step.
  const float p01 = std::fma(a[1], b[1], a[0] * b[0]);
  const float p23 = std::fma(a[3], b[3], a[2] * b[2]);
  const float s = (c + p01) + p23;
  return std::isnan(s) ? kF16CanonicalNan : f32_to_f16_rn(as_bits(s));
}

void widen4(const uint16_t h[4], float out[4]) {
  for (int k = 0; k < 4; ++k) out[k] = widen(h[k]);
}

}  // namespace

uint32_t f16_dot_f32(const uint16_t a[4], const uint16_t b[4], uint32_t c) {
  HostFpMode host(FE_TONEAREST, "f16_dot_f32");
  float a32[4], b32[4];
  widen4(a, a32);
  widen4(b, b32);
  return dot_f32_in_host_mode(a32, b32, as_float(c));
}

uint16_t f16_dot_f16(const uint16_t a[4], const uint16_t b[4], uint16_t c) {
  HostFpMode host(FE_TONEAREST, "f16_dot_f16");
  float a32[4], b32[4];
  widen4(a, a32);
  widen4(b, b32);
  return dot_f16_in_host_mode(a32, b32, widen(c));
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

namespace {

// D for the four quad-pair computations from widened A (batch x 8 x 4, each
// row's four k together), B (batch x 8 x 4, transposed: each column's four k
// together) and C (batch x 8 x 8). The FMA clone inlines the host's fused
// multiply-add instruction.
__attribute__((target_clones("fma", "default"))) void f16_dot_tile(const float* a,
                                                                   const float* b_transposed,
                                                                   const float* c, bool d_is_f16,
                                                                   uint64_t* d) {
  for (int q = 0; q < 4; ++q)
    for (int row = 0; row < 8; ++row)
      for (int col = 0; col < 8; ++col) {
        const int index = (q * 8 + row) * 8 + col;
        const float* a_row = a + (q * 8 + row) * 4;
        const float* b_col = b_transposed + (q * 8 + col) * 4;
        d[index] = d_is_f16 ? dot_f16_in_host_mode(a_row, b_col, c[index])
                            : dot_f32_in_host_mode(a_row, b_col, c[index]);
      }
}

#if defined(__x86_64__)
#define TCU_F16_SIMD __attribute__((target("avx2,fma,f16c")))
// f16_dot_tile eight columns at a time, in the same operations: F16C widens
// exactly and rounds f32 to f16 to nearest even (subnormals kept, overflow to
// Inf); NaN results become the canonical NaN as in the scalar path. Operands
// in matrix order: a (batch x 8 x 4 f16 codes), b (batch x 4 x 8), c and d
// (batch x 8 x 8, f16 codes or f32 bits).
TCU_F16_SIMD void f16_dot_tile_simd(const uint16_t* a_codes, const uint16_t* b_codes,
                                    const uint32_t* c_elems, bool c_is_f16, bool d_is_f16,
                                    uint32_t* d_elems) {
  alignas(32) float a[4 * 8 * 4];
  for (int i = 0; i < 4 * 8 * 4; i += 8)
    _mm256_store_ps(
        a + i, _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(a_codes + i))));
  for (int q = 0; q < 4; ++q) {
    __m256 b[4];
    for (int k = 0; k < 4; ++k)
      b[k] = _mm256_cvtph_ps(
          _mm_loadu_si128(reinterpret_cast<const __m128i*>(b_codes + (q * 4 + k) * 8)));
    for (int row = 0; row < 8; ++row) {
      const int first = (q * 8 + row) * 8;
      const __m256i c_bits = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(c_elems + first));
      // f16 C codes sit in the low halves of 32-bit elements.
      const __m256 c = c_is_f16
                           ? _mm256_cvtph_ps(_mm_packus_epi32(_mm256_castsi256_si128(c_bits),
                                                              _mm256_extracti128_si256(c_bits, 1)))
                           : _mm256_castsi256_ps(c_bits);
      const float* a_row = a + (q * 8 + row) * 4;
      __m256 a_k[4];
      for (int k = 0; k < 4; ++k) a_k[k] = _mm256_broadcast_ss(a_row + k);
      __m256i d_bits;
      if (d_is_f16) {
        const __m256 p01 = _mm256_fmadd_ps(a_k[1], b[1], _mm256_mul_ps(a_k[0], b[0]));
        const __m256 p23 = _mm256_fmadd_ps(a_k[3], b[3], _mm256_mul_ps(a_k[2], b[2]));
        const __m256 sum = _mm256_add_ps(_mm256_add_ps(c, p01), p23);
        const __m256i rounded =
            _mm256_cvtepu16_epi32(_mm256_cvtps_ph(sum, _MM_FROUND_TO_NEAREST_INT));
        d_bits = _mm256_blendv_epi8(rounded, _mm256_set1_epi32(kF16CanonicalNan),
                                    _mm256_castps_si256(_mm256_cmp_ps(sum, sum, _CMP_UNORD_Q)));
      } else {
        __m256 acc = _mm256_fmadd_ps(a_k[0], b[0], _mm256_setzero_ps());
        for (int k = 1; k < 4; ++k) acc = _mm256_fmadd_ps(a_k[k], b[k], acc);
        const __m256 sum = _mm256_add_ps(c, acc);
        d_bits = _mm256_blendv_epi8(_mm256_castps_si256(sum), _mm256_set1_epi32(kF32CanonicalNan),
                                    _mm256_castps_si256(_mm256_cmp_ps(sum, sum, _CMP_UNORD_Q)));
      }
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(d_elems + first), d_bits);
    }
  }
}
#undef TCU_F16_SIMD

bool host_has_f16_simd() {
  // FMA and F16C from CPUID leaf 1 (clang 14's __builtin_cpu_supports does
  // not know "f16c"); AVX2 with the OS's support for its registers.
  static const bool has = [] {
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return false;
    return __builtin_cpu_supports("avx2") && (ecx & bit_FMA) != 0 && (ecx & bit_F16C) != 0;
  }();
  return has;
}
#endif

// gather_into and scatter_into for elements of at most 32 bits.
template <typename Elem>
void gather_narrow(const FragmentLayout& layout, const Fragment& fragment, Elem* elems) {
  const uint64_t* regs = fragment.regs.data();
  for (int i = 0, count = layout.elem_count(); i < count; ++i)
    elems[i] = Elem(regs[layout.reg_of_elem(i)] >> layout.shift_of_elem(i));
}
void scatter_narrow(const FragmentLayout& layout, const uint32_t* elems, uint32_t mask,
                    Fragment* fragment) {
  fragment->regs_per_lane = layout.regs_per_lane();
  fragment->regs.assign(size_t(kLanes) * layout.regs_per_lane(), 0);
  uint64_t* regs = fragment->regs.data();
  for (int i = 0, count = layout.elem_count(); i < count; ++i)
    regs[layout.reg_of_elem(i)] |= uint64_t(elems[i] & mask) << layout.shift_of_elem(i);
}

}  // namespace

void execute_f16(const Instr& instr, const WarpOperands& warp, Fragment* d) {
  validate_selectors(instr, warp.selectors);
  const FragmentLayout& a_layout = fragment_layout(instr, Operand::kA);
  const FragmentLayout& b_layout = fragment_layout(instr, Operand::kB);
  const FragmentLayout& c_layout = fragment_layout(instr, Operand::kC);
  const FragmentLayout& d_layout = fragment_layout(instr, Operand::kD);
  if (instr.batches() != 4 || instr.shape.m != 8 || instr.shape.n != 8 || instr.shape.k != 4)
    throw std::logic_error("execute_f16: not m8n8k4: " + instr.ptx());
  constexpr int kOperandElems = 4 * 8 * 4, kAccElems = 4 * 8 * 8;
  const bool c_is_f16 = instr.c_type == ElemType::kF16, d_is_f16 = instr.d_type == ElemType::kF16;
#if defined(__x86_64__)
  if (host_has_f16_simd()) {
    uint16_t a_codes[kOperandElems], b_codes[kOperandElems];
    uint32_t c_elems[kAccElems], d_elems[kAccElems];
    gather_narrow(a_layout, warp.a, a_codes);
    gather_narrow(b_layout, warp.b, b_codes);
    gather_narrow(c_layout, warp.c, c_elems);
    if (c_is_f16)
      for (uint32_t& elem : c_elems) elem &= 0xffff;
    {
      HostFpMode host(FE_TONEAREST, "golden_execute (f16)");
      f16_dot_tile_simd(a_codes, b_codes, c_elems, c_is_f16, d_is_f16, d_elems);
    }
    scatter_narrow(d_layout, d_elems, d_is_f16 ? 0xffff : 0xffffffff, d);
    return;
  }
#endif
  uint64_t a_codes[kOperandElems], b_codes[kOperandElems], acc[kAccElems];
  a_layout.gather_into(warp.a, a_codes);
  b_layout.gather_into(warp.b, b_codes);
  c_layout.gather_into(warp.c, acc);
  float a[kOperandElems], b_transposed[kOperandElems], c[kAccElems];
  for (int i = 0; i < kOperandElems; ++i) a[i] = widen(uint16_t(a_codes[i]));
  // B is batch x k x n in matrix order.
  for (int q = 0; q < 4; ++q)
    for (int k = 0; k < 4; ++k)
      for (int col = 0; col < 8; ++col)
        b_transposed[(q * 8 + col) * 4 + k] = widen(uint16_t(b_codes[(q * 4 + k) * 8 + col]));
  for (int i = 0; i < kAccElems; ++i)
    c[i] = c_is_f16 ? widen(uint16_t(acc[i])) : as_float(uint32_t(acc[i]));
  {
    HostFpMode host(FE_TONEAREST, "golden_execute (f16)");
    f16_dot_tile(a, b_transposed, c, d_is_f16, acc);
  }
  d_layout.scatter_into(acc, d);
}

}  // namespace tcu
