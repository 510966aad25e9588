#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "lanes.h"
#include "tcu/golden.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace tcu {

int int4_value(uint64_t code, bool is_signed) {
  int v = static_cast<int>(code & 0xf);
  return is_signed && v >= 8 ? v - 16 : v;
}

int64_t int4_dot(const uint64_t* a, const uint64_t* b, int n, bool a_signed, bool b_signed,
                 int b_stride) {
  int64_t sum = 0;
  for (int k = 0; k < n; ++k)
    sum += int4_value(a[k], a_signed) * int4_value(b[k * b_stride], b_signed);
  return sum;
}

namespace {

inline uint32_t clamp_to_int32(int64_t exact) {
  constexpr int64_t kMin = std::numeric_limits<int32_t>::min();
  constexpr int64_t kMax = std::numeric_limits<int32_t>::max();
  return static_cast<uint32_t>(exact < kMin ? kMin : exact > kMax ? kMax : exact);
}

}  // namespace

uint32_t int4_accumulate(uint32_t c, int64_t dot, bool satfinite) {
  const int64_t exact = static_cast<int64_t>(static_cast<int32_t>(c)) + dot;
  if (satfinite) return clamp_to_int32(exact);
  return static_cast<uint32_t>(static_cast<uint64_t>(exact));
}

Matrix mma_int4(const Instr& instr, const Matrix& a, const Matrix& b, const Matrix& c) {
  const bool a_signed = instr.a_type == ElemType::kS4;
  const bool b_signed = instr.b_type == ElemType::kS4;
  Matrix d(1, c.rows, c.cols);
  for (int row = 0; row < c.rows; ++row)
    for (int col = 0; col < c.cols; ++col) {
      int64_t dot = int4_dot(&a.elems[size_t(row) * a.cols], &b.elems[col], a.cols, a_signed,
                             b_signed, b.cols);
      d.at(0, row, col) =
          int4_accumulate(static_cast<uint32_t>(c.at(0, row, col)), dot, instr.satfinite);
    }
  return d;
}

namespace {

// One row of A or column of B as packed codes (see kInt4LineBytes).
constexpr int kLineBytes = kInt4LineBytes;

void int4_dot_tile_generic(const uint8_t* a, const uint8_t* b, int m, int n, bool a_signed,
                           bool b_signed, int32_t* out) {
  for (int row = 0; row < m; ++row)
    for (int col = 0; col < n; ++col) {
      const uint8_t* a_line = a + row * kLineBytes;
      const uint8_t* b_line = b + col * kLineBytes;
      int32_t sum = 0;
      for (int j = 0; j < kLineBytes; ++j)
        sum += int4_value(a_line[j], a_signed) * int4_value(b_line[j], b_signed) +
               int4_value(a_line[j] >> 4, a_signed) * int4_value(b_line[j] >> 4, b_signed);
      out[row * n + col] = sum;
    }
}

#if defined(__x86_64__)
#define TCU_AVX2 __attribute__((target("avx2")))
TCU_AVX2 inline __m256i low_codes(__m256i line) {
  return _mm256_and_si256(line, _mm256_set1_epi8(0x0f));
}
TCU_AVX2 inline __m256i high_codes(__m256i line) {
  return _mm256_and_si256(_mm256_srli_epi16(line, 4), _mm256_set1_epi8(0x0f));
}
// s4 codes to their values, one a byte.
TCU_AVX2 inline __m256i s4_values(__m256i codes) {
  const __m256i eights = _mm256_set1_epi8(8);
  return _mm256_sub_epi8(_mm256_xor_si256(codes, eights), eights);
}

// The dots of one line of A (low and high codes as unsigned bytes) with the
// eight columns of B (values as signed bytes), as eight int32.
TCU_AVX2 inline __m256i dots_with_columns(__m256i a_low, __m256i a_high, const __m256i* b_low,
                                          const __m256i* b_high) {
  __m256i sums[8];
  for (int col = 0; col < 8; ++col)
    sums[col] = _mm256_add_epi16(_mm256_maddubs_epi16(a_low, b_low[col]),
                                 _mm256_maddubs_epi16(a_high, b_high[col]));
  const __m256i total = _mm256_hadd_epi16(
      _mm256_hadd_epi16(_mm256_hadd_epi16(sums[0], sums[1]), _mm256_hadd_epi16(sums[2], sums[3])),
      _mm256_hadd_epi16(_mm256_hadd_epi16(sums[4], sums[5]), _mm256_hadd_epi16(sums[6], sums[7])));
  // Each 128-bit half holds the eight columns' partial sums.
  return _mm256_cvtepi16_epi32(
      _mm_add_epi16(_mm256_castsi256_si128(total), _mm256_extracti128_si256(total, 1)));
}

// n = 8. The order of a dot's products does not matter (integer sums), so
// low and high codes go through separate unsigned x signed byte multiplies.
// A signed A is read as code ^ 8 = value + 8 and corrected by 8 * (sum of
// B's column). Every partial sum fits int16: 64 products of at most 15 * 15.
TCU_AVX2 void int4_dot_tile_avx2(const uint8_t* a, const uint8_t* b, int m, bool a_signed,
                                 bool b_signed, int32_t* out) {
  const __m256i eights = _mm256_set1_epi8(8);
  __m256i b_low[8], b_high[8];
  for (int col = 0; col < 8; ++col) {
    const __m256i line = _mm256_load_si256(reinterpret_cast<const __m256i*>(b + col * kLineBytes));
    b_low[col] = b_signed ? s4_values(low_codes(line)) : low_codes(line);
    b_high[col] = b_signed ? s4_values(high_codes(line)) : high_codes(line);
  }
  const __m256i correction =
      a_signed ? dots_with_columns(eights, eights, b_low, b_high) : _mm256_setzero_si256();
  for (int row = 0; row < m; ++row) {
    const __m256i line = _mm256_load_si256(reinterpret_cast<const __m256i*>(a + row * kLineBytes));
    __m256i a_low = low_codes(line), a_high = high_codes(line);
    if (a_signed) {
      a_low = _mm256_xor_si256(a_low, eights);
      a_high = _mm256_xor_si256(a_high, eights);
    }
    _mm256_storeu_si256(
        reinterpret_cast<__m256i*>(out + row * 8),
        _mm256_sub_epi32(dots_with_columns(a_low, a_high, b_low, b_high), correction));
  }
}
#undef TCU_AVX2

#endif

// out[row * n + col]: the exact dot of line `row` of a and line `col` of b.
void int4_dot_tile(const uint8_t* a, const uint8_t* b, int m, int n, bool a_signed, bool b_signed,
                   int32_t* out) {
#if defined(__x86_64__)
  if (n == 8 && host_has_avx2()) return int4_dot_tile_avx2(a, b, m, a_signed, b_signed, out);
#endif
  int4_dot_tile_generic(a, b, m, n, a_signed, b_signed, out);
}

}  // namespace

void execute_int4(const Instr& instr, const WarpOperands& warp, Fragment* d) {
  validate_selectors(instr, warp.selectors);
  const FragmentLayout& a_layout = fragment_layout(instr, Operand::kA);
  const FragmentLayout& b_layout = fragment_layout(instr, Operand::kB);
  const FragmentLayout& c_layout = fragment_layout(instr, Operand::kC);
  const FragmentLayout& d_layout = fragment_layout(instr, Operand::kD);
  const int m = instr.shape.m, n = instr.shape.n, k = instr.shape.k;
  if (a_layout.row_run_regs().empty() || b_layout.col_run_regs().empty() || (k != 64 && k != 32) ||
      m > kMaxRows || n > kMaxCols)
    throw std::logic_error("execute_int4: no register-run layout for " + instr.ptx());
  const bool a_signed = instr.a_type == ElemType::kS4;
  const bool b_signed = instr.b_type == ElemType::kS4;

  alignas(32) uint8_t a[kMaxRows * kLineBytes];
  alignas(32) uint8_t b_transposed[kMaxCols * kLineBytes];
  if (k / 2 < kLineBytes) {  // zero codes pad the lines; they add nothing
    std::memset(a, 0, sizeof a);
    std::memset(b_transposed, 0, sizeof b_transposed);
  }
  if (instr.sparse()) {
    alignas(32) uint8_t a_compressed[kMaxRows * kLineBytes];
    uint64_t meta[kMaxRows * kMaxK / 8];
    pack_code_runs(warp.a, a_layout.row_run_regs(), m, k / 4, a_compressed);
    fragment_layout(instr, Operand::kMeta, warp.selectors).gather_into(warp.e, meta);
    sparse_expand(instr, a_compressed, meta, a);
  } else {
    pack_code_runs(warp.a, a_layout.row_run_regs(), m, k / 2, a);
  }
  pack_code_runs(warp.b, b_layout.col_run_regs(), n, k / 2, b_transposed);

  int32_t dots[kMaxRows * kMaxCols];
  int4_dot_tile(a, b_transposed, m, n, a_signed, b_signed, dots);

  // C and D hold one element per register: element to register directly.
  const int count = m * n;
  const size_t reg_count = size_t(kLanes) * d_layout.regs_per_lane();
  if (c_layout.elems_per_reg() == 1 && d_layout.elems_per_reg() == 1 &&
      size_t(count) == reg_count && warp.c.regs.size() == reg_count) {
    d->regs_per_lane = d_layout.regs_per_lane();
    d->regs.resize(reg_count);
    const uint64_t* c_regs = warp.c.regs.data();
    uint64_t* d_regs = d->regs.data();
    if (instr.satfinite) {
      for (int i = 0; i < count; ++i)
        d_regs[d_layout.reg_of_elem(i)] = clamp_to_int32(
            int64_t(static_cast<int32_t>(c_regs[c_layout.reg_of_elem(i)])) + dots[i]);
    } else {  // wraps modulo 2^32
      for (int i = 0; i < count; ++i)
        d_regs[d_layout.reg_of_elem(i)] =
            static_cast<uint32_t>(c_regs[c_layout.reg_of_elem(i)] + uint32_t(dots[i]));
    }
    return;
  }
  uint64_t acc[kMaxRows * kMaxCols];
  c_layout.gather_into(warp.c, acc);
  for (int i = 0; i < count; ++i)
    acc[i] = int4_accumulate(static_cast<uint32_t>(acc[i]), dots[i], instr.satfinite);
  d_layout.scatter_into(acc, d);
}

}  // namespace tcu
