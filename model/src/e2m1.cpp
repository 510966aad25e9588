// Block-scaled e2m1 mma.m16n8k64 (.kind::mxf4 / .kind::mxf4nvf4), bit-exact
// to MMA-Sim's "RTX Blackwell" mma_block_scale model. All arithmetic is in
// integers: a K group's term is an integer significand with 8 fractional bits
// (quarters from the e2m1 products times eighths from each scale), C is its
// 24-bit significand with 23 fractional bits, and the aligned sum is a signed
// fixed-point integer with kWindowFracBits fractional bits below the largest
// term exponent.
#include <array>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>

#include "lanes.h"
#include "tcu/golden.h"
#include "tcu/values.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace tcu {

// e2m1 magnitudes 0, 0.5, 1, 1.5, 2, 3, 4, 6 in halves.
int e2m1_halves(uint64_t code) {
  static constexpr int kE2m1Halves[8] = {0, 1, 2, 3, 4, 6, 8, 12};
  int magnitude = kE2m1Halves[code & 7];
  return (code & 8) ? -magnitude : magnitude;
}

namespace {

constexpr int kGroupSize = 16;       // K elements summed exactly per term
constexpr int kMaxGroups = 4;        // k = 64
constexpr int kWindowFracBits = 35;  // kept below the alignment exponent
constexpr int kGroupFracBits = 8;    // 2 (e2m1 quarters) + 3 + 3 (scale eighths)
constexpr int kF32FracBits = 23;
constexpr int kF32MinExponent = -126;
constexpr int kF32MaxExponent = 127;
constexpr uint32_t kF32SignBit = 0x80000000u;
constexpr uint32_t kF32ExponentMask = 0x7f800000u;
constexpr uint32_t kF32FractionMask = 0x007fffffu;
// MMA-Sim gives every zero the exponent -126 (a zero C, a zero ue4m3 scale),
// whatever its format.
constexpr int kZeroExponent = -126;


// A scale factor: eighths / 8 * 2^exponent.
struct Scale {
  int eighths = 0;
  int exponent = 0;
  bool is_nan = false;
};

Scale decode_scale(uint64_t raw, ElemType type) {
  const unsigned byte = raw & 0xff;
  if (type == ElemType::kUe8m0) {
    if (byte == 0xff) return {0, 0, true};
    return {8, static_cast<int>(byte) - 127, false};  // 0x00 is 2^-127
  }
  const unsigned magnitude = byte & 0x7f;  // ue4m3 is read through abs()
  if (magnitude == 0x7f) return {0, 0, true};
  const int exponent_field = magnitude >> 3;
  const int mantissa = magnitude & 7;
  if (exponent_field == 0) {
    if (mantissa == 0) return {0, kZeroExponent, false};
    return {mantissa, -6, false};  // subnormal
  }
  return {8 + mantissa, exponent_field - 7, false};
}

// value * 2^shift, truncated toward zero. Left shifts stay below 2^47 here: a
// group term is under 2^20 and shifts at most 27, C under 2^24 and at most 12.
int64_t shift_toward_zero(int64_t value, int shift) {
  if (shift >= 0) return value * (int64_t{1} << shift);
  if (shift <= -63) return 0;
  const int64_t magnitude = (value < 0 ? -value : value) >> -shift;
  return value < 0 ? -magnitude : magnitude;
}

int msb_index(uint64_t value) { return 63 - __builtin_clzll(value); }

// sum * 2^lsb_exponent rounded toward zero to f32. Exact zero and results
// that truncate to zero give +0 whatever the sign; 2^128 and above give Inf.
uint32_t fixed_to_f32_rz(int64_t sum, int lsb_exponent) {
  if (sum == 0) return 0;
  const uint32_t sign = sum < 0 ? kF32SignBit : 0;
  const uint64_t magnitude = sum < 0 ? uint64_t{0} - static_cast<uint64_t>(sum) : uint64_t(sum);
  const int msb = msb_index(magnitude);
  const int exponent = msb + lsb_exponent;
  if (exponent > kF32MaxExponent) return sign | kF32ExponentMask;
  if (exponent >= kF32MinExponent) {
    const uint64_t significand =
        msb >= kF32FracBits ? magnitude >> (msb - kF32FracBits) : magnitude << (kF32FracBits - msb);
    return sign | uint32_t(exponent - kF32MinExponent + 1) << kF32FracBits |
           (uint32_t(significand) & kF32FractionMask);
  }
  // Subnormal: count units of 2^-149.
  const int64_t units =
      shift_toward_zero(int64_t(magnitude), lsb_exponent - (kF32MinExponent - kF32FracBits));
  if (units == 0) return 0;
  return sign | uint32_t(units);
}

// One D element from its K groups' exact dots (in quarters), the row's and
// column's decoded scales (one per block) and C.
uint32_t combine_groups(const int64_t* group_quarters, int groups, int groups_per_block,
                        const Scale* scale_a, const Scale* scale_b, bool scale_is_nan, uint32_t c) {
  const uint32_t c_magnitude = c & ~kF32SignBit;
  const bool c_is_nan = c_magnitude > kF32ExponentMask;
  if (c_is_nan || scale_is_nan) return kF32CanonicalNan;
  // MMA-Sim cannot take an infinite C; a finite sum cannot change it.
  if (c_magnitude == kF32ExponentMask) return c;

  // C as a signed significand with 23 fractional bits; subnormal C and zero
  // sit at exponent -126.
  const int c_exponent_field = int(c_magnitude >> kF32FracBits);
  int64_t c_significand = c_magnitude & kF32FractionMask;
  if (c_exponent_field != 0) c_significand |= int64_t{1} << kF32FracBits;
  if (c & kF32SignBit) c_significand = -c_significand;
  const int c_exponent = c_exponent_field == 0 ? kF32MinExponent : c_exponent_field - 127;

  // Each group term: exact dot in quarters times both scale significands in
  // eighths, at the scales' exponent sum. Not renormalised, so the term's
  // exponent does not depend on its value (a zero term included).
  std::array<int64_t, kMaxGroups> term_significand{};
  std::array<int, kMaxGroups> term_exponent{};
  int max_exponent = c_exponent;
  for (int g = 0; g < groups; ++g) {
    const Scale& sa = scale_a[g / groups_per_block];
    const Scale& sb = scale_b[g / groups_per_block];
    term_significand[g] = group_quarters[g] * sa.eighths * sb.eighths;
    term_exponent[g] = sa.exponent + sb.exponent;
    if (term_exponent[g] > max_exponent) max_exponent = term_exponent[g];
  }

  // Align every term to max_exponent, truncating below the window, and add.
  int64_t sum =
      shift_toward_zero(c_significand, kWindowFracBits - kF32FracBits + c_exponent - max_exponent);
  for (int g = 0; g < groups; ++g)
    sum += shift_toward_zero(term_significand[g],
                             kWindowFracBits - kGroupFracBits + term_exponent[g] - max_exponent);
  return fixed_to_f32_rz(sum, max_exponent - kWindowFracBits);
}

int groups_per_block(const Instr& instr) {
  const int k = instr.shape.k;
  if (k % kGroupSize != 0 || k / kGroupSize > kMaxGroups || instr.scale_block() % kGroupSize != 0)
    throw std::invalid_argument("e2m1_dot: unsupported k or scale block for " + instr.ptx());
  return instr.scale_block() / kGroupSize;
}

// Decodes `count` scale bytes `stride` apart; returns whether any is NaN.
bool decode_scales(const uint64_t* raw, int count, int stride, ElemType type, Scale* out) {
  bool any_nan = false;
  for (int j = 0; j < count; ++j) {
    out[j] = decode_scale(raw[j * stride], type);
    any_nan |= out[j].is_nan;
  }
  return any_nan;
}

}  // namespace

uint32_t e2m1_dot(const Instr& instr, const uint64_t* a, const uint64_t* b, int b_stride,
                  const uint64_t* scale_a, const uint64_t* scale_b, int scale_b_stride,
                  uint32_t c) {
  const int per_block = groups_per_block(instr);
  const int groups = instr.shape.k / kGroupSize;
  Scale row_scales[kMaxGroups], col_scales[kMaxGroups];
  bool scale_is_nan = decode_scales(scale_a, instr.scale_blocks(), 1, instr.scale_type, row_scales);
  scale_is_nan |=
      decode_scales(scale_b, instr.scale_blocks(), scale_b_stride, instr.scale_type, col_scales);
  int64_t group_quarters[kMaxGroups] = {};
  for (int g = 0; g < groups; ++g)
    for (int i = g * kGroupSize; i < (g + 1) * kGroupSize; ++i)
      group_quarters[g] += e2m1_halves(a[i]) * e2m1_halves(b[i * b_stride]);
  return combine_groups(group_quarters, groups, per_block, row_scales, col_scales, scale_is_nan, c);
}

Matrix mma_e2m1(const Instr& instr, const Matrix& a, const Matrix& b, const Matrix& c,
                const Matrix& scale_a, const Matrix& scale_b) {
  const int m = instr.shape.m, n = instr.shape.n, k = instr.shape.k;
  const int blocks = instr.scale_blocks();
  auto has_shape = [](const Matrix& x, int rows, int cols) {
    return x.batches == 1 && x.rows == rows && x.cols == cols;
  };
  if (!has_shape(a, m, k) || !has_shape(b, k, n) || !has_shape(c, m, n) ||
      !has_shape(scale_a, m, blocks) || !has_shape(scale_b, blocks, n))
    throw std::invalid_argument("mma_e2m1: operand shapes do not match " + instr.ptx());
  Matrix d(1, m, n);
  for (int row = 0; row < m; ++row)
    for (int col = 0; col < n; ++col)
      d.at(0, row, col) = e2m1_dot(instr, a.elems.data() + size_t(row) * k, b.elems.data() + col, n,
                                   scale_a.elems.data() + size_t(row) * blocks,
                                   scale_b.elems.data() + col, n, uint32_t(c.at(0, row, col)));
  return d;
}

namespace {

// Every scale byte decoded, for each scale type.
struct ScaleTable {
  Scale ue8m0[256], ue4m3[256];
  ScaleTable() {
    for (int byte = 0; byte < 256; ++byte) {
      ue8m0[byte] = decode_scale(byte, ElemType::kUe8m0);
      ue4m3[byte] = decode_scale(byte, ElemType::kUe4m3);
    }
  }
};
const ScaleTable kScaleTable;

// shift_toward_zero without branches, for shift <= 27.
inline int64_t shift_magnitude(int64_t value, int shift) {
  const int64_t sign = value >> 63;
  const uint64_t magnitude = uint64_t((value ^ sign) - sign);
  const uint64_t shifted =
      shift >= 0 ? magnitude << shift : magnitude >> (-shift < 63 ? -shift : 63);
  return (int64_t(shifted) ^ sign) - sign;
}

// combine_groups for k = 64 with the scales already per group (block of
// group g at index g): C first, the four terms aligned to the largest
// exponent and truncated, the sum truncated to f32.
// group_quarters[g * stride]: group g's dot.
inline uint32_t combine_four_groups(const int32_t* group_quarters, int stride,
                                    const Scale* row_scales, const Scale* col_scales, uint32_t c) {
  const uint32_t c_magnitude = c & ~kF32SignBit;
  if (c_magnitude >= kF32ExponentMask)  // NaN (canonical) or Inf (unchanged)
    return c_magnitude > kF32ExponentMask ? kF32CanonicalNan : c;
  const int c_exponent_field = int(c_magnitude >> kF32FracBits);
  const int64_t c_unsigned =
      (c_magnitude & kF32FractionMask) | (c_exponent_field != 0 ? int64_t{1} << kF32FracBits : 0);
  const int64_t c_significand = (c & kF32SignBit) ? -c_unsigned : c_unsigned;
  const int c_exponent = c_exponent_field == 0 ? kF32MinExponent : c_exponent_field - 127;

  int64_t term_significand[kMaxGroups];
  int term_exponent[kMaxGroups];
  int max_exponent = c_exponent;
  for (int g = 0; g < kMaxGroups; ++g) {
    term_significand[g] =
        int64_t(group_quarters[g * stride]) * (row_scales[g].eighths * col_scales[g].eighths);
    term_exponent[g] = row_scales[g].exponent + col_scales[g].exponent;
    max_exponent = term_exponent[g] > max_exponent ? term_exponent[g] : max_exponent;
  }
  int64_t sum =
      shift_magnitude(c_significand, kWindowFracBits - kF32FracBits + c_exponent - max_exponent);
  for (int g = 0; g < kMaxGroups; ++g)
    sum += shift_magnitude(term_significand[g],
                           kWindowFracBits - kGroupFracBits + term_exponent[g] - max_exponent);
  return fixed_to_f32_rz(sum, max_exponent - kWindowFracBits);
}

constexpr int kLineBytes = kInt4LineBytes;

// out[(row * kMaxGroups + g) * n + col]: the exact dot of K group g of line
// `row` of a and line `col` of b, in quarters.
void e2m1_group_dot_tile_generic(const uint8_t* a, const uint8_t* b, int m, int n, int32_t* out) {
  for (int row = 0; row < m; ++row)
    for (int col = 0; col < n; ++col)
      for (int g = 0; g < kMaxGroups; ++g) {
        int32_t sum = 0;
        for (int j = g * kGroupSize / 2; j < (g + 1) * kGroupSize / 2; ++j) {
          const uint8_t x = a[row * kLineBytes + j], y = b[col * kLineBytes + j];
          sum += e2m1_halves(x & 0xf) * e2m1_halves(y & 0xf) +
                 e2m1_halves(x >> 4) * e2m1_halves(y >> 4);
        }
        out[(row * kMaxGroups + g) * n + col] = sum;
      }
}

#if defined(__x86_64__)
#define TCU_AVX2 __attribute__((target("avx2")))
// Codes to values in halves through a 16-entry byte table.
TCU_AVX2 inline __m256i lookup_codes(__m256i table, __m256i codes) {
  return _mm256_shuffle_epi8(table, codes);
}

// The four group dots of one line of A (low and high codes' values as
// unsigned bytes) with the eight columns of B (signed bytes), as int16 in two
// vectors: columns 0..3, then 4..7, each 128-bit half holding
// (column, group) pairs c0g, c0g', c1g, c1g', ... for groups 0, 1 (low half)
// and 2, 3 (high half).
TCU_AVX2 inline void group_dots_with_columns(__m256i a_low, __m256i a_high, const __m256i* b_low,
                                             const __m256i* b_high, __m256i* cols_0123,
                                             __m256i* cols_4567) {
  __m256i sums[8];
  // 16 int16 lanes, four per group: bytes 8g..8g+7 hold codes 16g..16g+15.
  for (int col = 0; col < 8; ++col)
    sums[col] = _mm256_add_epi16(_mm256_maddubs_epi16(a_low, b_low[col]),
                                 _mm256_maddubs_epi16(a_high, b_high[col]));
  *cols_0123 =
      _mm256_hadd_epi16(_mm256_hadd_epi16(sums[0], sums[1]), _mm256_hadd_epi16(sums[2], sums[3]));
  *cols_4567 =
      _mm256_hadd_epi16(_mm256_hadd_epi16(sums[4], sums[5]), _mm256_hadd_epi16(sums[6], sums[7]));
}

// The (column, group) int16 sums of columns 0..3 and 4..7 to int32, eight
// columns of group 0, then of groups 1, 2, 3.
TCU_AVX2 inline void store_group_sums(__m256i cols_0123, __m256i cols_4567, int32_t* out) {
  // In each 128-bit half: groups g, g' of four columns to g's four, g''s four.
  const __m256i by_group = _mm256_setr_epi8(0, 1, 4, 5, 8, 9, 12, 13, 2, 3, 6, 7, 10, 11, 14, 15, 0,
                                            1, 4, 5, 8, 9, 12, 13, 2, 3, 6, 7, 10, 11, 14, 15);
  const __m256i left = _mm256_shuffle_epi8(cols_0123, by_group);
  const __m256i right = _mm256_shuffle_epi8(cols_4567, by_group);
  const __m256i groups_0_2 = _mm256_unpacklo_epi64(left, right);
  const __m256i groups_1_3 = _mm256_unpackhi_epi64(left, right);
  const __m128i by_g[kMaxGroups] = {
      _mm256_castsi256_si128(groups_0_2), _mm256_castsi256_si128(groups_1_3),
      _mm256_extracti128_si256(groups_0_2, 1), _mm256_extracti128_si256(groups_1_3, 1)};
  for (int g = 0; g < kMaxGroups; ++g)
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + 8 * g), _mm256_cvtepi16_epi32(by_g[g]));
}

// n = 8. A's values are read offset by +12 (unsigned) and corrected by 12 *
// (B's group sum). Every partial sum fits int16: 16 products of at most
// 24 * 12.
TCU_AVX2 void e2m1_group_dot_tile_avx2(const uint8_t* a, const uint8_t* b, int m, int32_t* out) {
  const __m256i nibble_mask = _mm256_set1_epi8(0x0f);
  const __m256i signed_halves =
      _mm256_setr_epi8(0, 1, 2, 3, 4, 6, 8, 12, 0, -1, -2, -3, -4, -6, -8, -12, 0, 1, 2, 3, 4, 6, 8,
                       12, 0, -1, -2, -3, -4, -6, -8, -12);
  const __m256i twelve = _mm256_set1_epi8(12);
  const __m256i offset_halves = _mm256_add_epi8(signed_halves, twelve);
  __m256i b_low[8], b_high[8];
  for (int col = 0; col < 8; ++col) {
    const __m256i line = _mm256_load_si256(reinterpret_cast<const __m256i*>(b + col * kLineBytes));
    b_low[col] = lookup_codes(signed_halves, _mm256_and_si256(line, nibble_mask));
    b_high[col] =
        lookup_codes(signed_halves, _mm256_and_si256(_mm256_srli_epi16(line, 4), nibble_mask));
  }
  __m256i correction_0123, correction_4567;
  group_dots_with_columns(twelve, twelve, b_low, b_high, &correction_0123, &correction_4567);
  for (int row = 0; row < m; ++row) {
    const __m256i line = _mm256_load_si256(reinterpret_cast<const __m256i*>(a + row * kLineBytes));
    const __m256i a_low = lookup_codes(offset_halves, _mm256_and_si256(line, nibble_mask));
    const __m256i a_high =
        lookup_codes(offset_halves, _mm256_and_si256(_mm256_srli_epi16(line, 4), nibble_mask));
    __m256i cols_0123, cols_4567;
    group_dots_with_columns(a_low, a_high, b_low, b_high, &cols_0123, &cols_4567);
    store_group_sums(_mm256_sub_epi16(cols_0123, correction_0123),
                     _mm256_sub_epi16(cols_4567, correction_4567), out + row * kMaxGroups * 8);
  }
}
TCU_AVX2 inline __m128i half_lanes(__m256i v, int half) {
  return half ? _mm256_extracti128_si256(v, 1) : _mm256_castsi256_si128(v);
}

// value * 2^shift truncated toward zero, four lanes: magnitudes below 2^32,
// shift <= 27 (sign-extended to 64 bits), negative lanes all ones.
TCU_AVX2 inline __m256i shift_lanes_toward_zero(__m128i magnitude, __m128i negative,
                                                __m128i shift) {
  const __m256i magnitude64 = _mm256_cvtepu32_epi64(magnitude);
  const __m256i shift64 = _mm256_cvtepi32_epi64(shift);
  const __m256i negative64 = _mm256_cvtepi32_epi64(negative);
  // Counts of 64 and more (negative ones read as such) give 0, so one of the
  // two shifts is the magnitude shifted and the other 0 (both it at 0).
  const __m256i shifted = _mm256_or_si256(
      _mm256_sllv_epi64(magnitude64, shift64),
      _mm256_srlv_epi64(magnitude64, _mm256_sub_epi64(_mm256_setzero_si256(), shift64)));
  return _mm256_sub_epi64(_mm256_xor_si256(shifted, negative64), negative64);
}

// combine_four_groups for the eight columns of one row, where neither C nor
// a scale is NaN or Inf (lanes where one is are the caller's): quarters[g * 8
// + col], the row's scales per group, the columns' scale significands and
// exponents [g * 8 + col]. Returns a mask of the lanes with a special C.
TCU_AVX2 int combine_row_avx2(const int32_t* quarters, const Scale* row_scales,
                              const int32_t* col_eighths, const int32_t* col_exponents,
                              const uint32_t* c, uint32_t* d) {
  const __m256i c_bits = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(c));
  const __m256i c_magnitude = _mm256_and_si256(c_bits, _mm256_set1_epi32(0x7fffffff));
  const __m256i c_field = _mm256_srli_epi32(c_magnitude, kF32FracBits);
  const __m256i c_subnormal = _mm256_cmpeq_epi32(c_field, _mm256_setzero_si256());
  const __m256i c_unsigned =
      _mm256_or_si256(_mm256_and_si256(c_magnitude, _mm256_set1_epi32(kF32FractionMask)),
                      _mm256_andnot_si256(c_subnormal, _mm256_set1_epi32(1 << kF32FracBits)));
  const __m256i c_exponent = _mm256_blendv_epi8(_mm256_sub_epi32(c_field, _mm256_set1_epi32(127)),
                                                _mm256_set1_epi32(kF32MinExponent), c_subnormal);
  const __m256i c_negative = _mm256_srai_epi32(c_bits, 31);

  __m256i term_magnitude[kMaxGroups], term_negative[kMaxGroups], term_exponent[kMaxGroups];
  __m256i max_exponent = c_exponent;
  for (int g = 0; g < kMaxGroups; ++g) {
    const __m256i q = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(quarters + 8 * g));
    const __m256i eighths = _mm256_mullo_epi32(
        _mm256_set1_epi32(row_scales[g].eighths),
        _mm256_loadu_si256(reinterpret_cast<const __m256i*>(col_eighths + 8 * g)));
    term_magnitude[g] = _mm256_mullo_epi32(_mm256_abs_epi32(q), eighths);
    term_negative[g] = _mm256_srai_epi32(q, 31);
    term_exponent[g] = _mm256_add_epi32(
        _mm256_set1_epi32(row_scales[g].exponent),
        _mm256_loadu_si256(reinterpret_cast<const __m256i*>(col_exponents + 8 * g)));
    max_exponent = _mm256_max_epi32(max_exponent, term_exponent[g]);
  }
  const __m256i c_shift = _mm256_add_epi32(_mm256_set1_epi32(kWindowFracBits - kF32FracBits),
                                           _mm256_sub_epi32(c_exponent, max_exponent));
  __m256i term_shift[kMaxGroups];
  for (int g = 0; g < kMaxGroups; ++g)
    term_shift[g] = _mm256_add_epi32(_mm256_set1_epi32(kWindowFracBits - kGroupFracBits),
                                     _mm256_sub_epi32(term_exponent[g], max_exponent));

  alignas(32) int64_t sums[8];
  for (int half = 0; half < 2; ++half) {
    __m256i sum = shift_lanes_toward_zero(half_lanes(c_unsigned, half),
                                          half_lanes(c_negative, half), half_lanes(c_shift, half));
    for (int g = 0; g < kMaxGroups; ++g)
      sum = _mm256_add_epi64(sum, shift_lanes_toward_zero(half_lanes(term_magnitude[g], half),
                                                          half_lanes(term_negative[g], half),
                                                          half_lanes(term_shift[g], half)));
    _mm256_store_si256(reinterpret_cast<__m256i*>(sums + 4 * half), sum);
  }
  alignas(32) int32_t lsb_exponents[8];
  _mm256_store_si256(reinterpret_cast<__m256i*>(lsb_exponents),
                     _mm256_sub_epi32(max_exponent, _mm256_set1_epi32(kWindowFracBits)));
  for (int col = 0; col < 8; ++col) d[col] = fixed_to_f32_rz(sums[col], lsb_exponents[col]);
  return _mm256_movemask_ps(_mm256_castsi256_ps(
      _mm256_cmpgt_epi32(c_magnitude, _mm256_set1_epi32(kF32ExponentMask - 1))));
}
#undef TCU_AVX2

#endif

void e2m1_group_dot_tile(const uint8_t* a, const uint8_t* b, int m, int n, int32_t* out) {
#if defined(__x86_64__)
  if (n == 8 && host_has_avx2()) return e2m1_group_dot_tile_avx2(a, b, m, out);
#endif
  e2m1_group_dot_tile_generic(a, b, m, n, out);
}

}  // namespace

void execute_e2m1(const Instr& instr, const WarpOperands& warp, Fragment* d) {
  validate_selectors(instr, warp.selectors);
  const FragmentLayout& a_layout = fragment_layout(instr, Operand::kA);
  const FragmentLayout& b_layout = fragment_layout(instr, Operand::kB);
  const FragmentLayout& c_layout = fragment_layout(instr, Operand::kC);
  const FragmentLayout& d_layout = fragment_layout(instr, Operand::kD);
  const FragmentLayout& scale_a_layout = fragment_layout(instr, Operand::kScaleA, warp.selectors);
  const FragmentLayout& scale_b_layout = fragment_layout(instr, Operand::kScaleB, warp.selectors);
  const int m = instr.shape.m, n = instr.shape.n, blocks = instr.scale_blocks();
  const int per_block = groups_per_block(instr);
  if (instr.shape.k != kMaxK || m > kMaxRows || n > kMaxCols || a_layout.row_run_regs().empty() ||
      b_layout.col_run_regs().empty())
    throw std::logic_error("execute_e2m1: no register-run layout for " + instr.ptx());

  alignas(32) uint8_t a[kMaxRows * kLineBytes];
  alignas(32) uint8_t b_transposed[kMaxCols * kLineBytes];
  pack_code_runs(warp.a, a_layout.row_run_regs(), m, kLineBytes, a);
  pack_code_runs(warp.b, b_layout.col_run_regs(), n, kLineBytes, b_transposed);
  int32_t group_sums[kMaxRows * kMaxCols * kMaxGroups];
  e2m1_group_dot_tile(a, b_transposed, m, n, group_sums);

  // Each row's and column's scales, one per K group.
  uint64_t raw_scale_a[kMaxRows * kMaxGroups], raw_scale_b[kMaxGroups * kMaxCols];
  scale_a_layout.gather_into(warp.scale_a, raw_scale_a);
  scale_b_layout.gather_into(warp.scale_b, raw_scale_b);
  const Scale* table = instr.scale_type == ElemType::kUe8m0 ? kScaleTable.ue8m0 : kScaleTable.ue4m3;
  Scale row_scales[kMaxRows][kMaxGroups], col_scales[kMaxCols][kMaxGroups];
  bool row_nan[kMaxRows], col_nan[kMaxCols];
  for (int row = 0; row < m; ++row) {
    row_nan[row] = false;
    for (int g = 0; g < kMaxGroups; ++g) {
      row_scales[row][g] = table[raw_scale_a[row * blocks + g / per_block] & 0xff];
      row_nan[row] |= row_scales[row][g].is_nan;
    }
  }
  for (int col = 0; col < n; ++col) {
    col_nan[col] = false;
    for (int g = 0; g < kMaxGroups; ++g) {
      col_scales[col][g] = table[raw_scale_b[(g / per_block) * n + col] & 0xff];
      col_nan[col] |= col_scales[col][g].is_nan;
    }
  }

  uint64_t acc[kMaxRows * kMaxCols];
  c_layout.gather_into(warp.c, acc);
  // The scalar combine for one element (NaN and Inf C and scales included).
  auto combine_one = [&](int row, int col) {
    uint64_t& elem = acc[row * n + col];
    // A NaN scale gives the canonical NaN whatever C is.
    elem = row_nan[row] || col_nan[col]
               ? kF32CanonicalNan
               : combine_four_groups(group_sums + row * kMaxGroups * n + col, n, row_scales[row],
                                     col_scales[col], uint32_t(elem));
  };
#if defined(__x86_64__)
  if (n == 8 && host_has_avx2()) {
    alignas(32) int32_t col_eighths[kMaxGroups * 8], col_exponents[kMaxGroups * 8];
    int col_nan_mask = 0;
    for (int col = 0; col < 8; ++col) {
      col_nan_mask |= col_nan[col] << col;
      for (int g = 0; g < kMaxGroups; ++g) {
        col_eighths[g * 8 + col] = col_scales[col][g].eighths;
        col_exponents[g * 8 + col] = col_scales[col][g].exponent;
      }
    }
    for (int row = 0; row < m; ++row) {
      uint32_t c[8], result[8];
      for (int col = 0; col < 8; ++col) c[col] = uint32_t(acc[row * 8 + col]);
      const int special_c = combine_row_avx2(group_sums + row * kMaxGroups * 8, row_scales[row],
                                             col_eighths, col_exponents, c, result);
      const int special = row_nan[row] ? 0xff : special_c | col_nan_mask;
      for (int col = 0; col < 8; ++col) {
        if ((special >> col) & 1)
          combine_one(row, col);
        else
          acc[row * 8 + col] = result[col];
      }
    }
    d_layout.scatter_into(acc, d);
    return;
  }
#endif
  for (int row = 0; row < m; ++row)
    for (int col = 0; col < n; ++col) combine_one(row, col);
  d_layout.scatter_into(acc, d);
}

}  // namespace tcu
