#include <cstdint>

#include "lanes.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace tcu {
namespace {

void group_dot_tile_generic(const int16_t* a, const int16_t* b_transposed, int m, int n, int groups,
                            int32_t* out) {
  const int k = kGroupK * groups;
  for (int row = 0; row < m; ++row)
    for (int col = 0; col < n; ++col)
      for (int g = 0; g < groups; ++g) {
        int32_t sum = 0;
        for (int i = 0; i < kGroupK; ++i)
          sum += int32_t(a[row * k + g * kGroupK + i]) *
                 int32_t(b_transposed[col * k + g * kGroupK + i]);
        out[(row * n + col) * groups + g] = sum;
      }
}

#if defined(__x86_64__)
// One multiply-add of 16 pairs per group, and a horizontal-add tree that
// reduces eight of them to one vector of eight sums.
__attribute__((target("avx2"))) void group_dot_tile_avx2(const int16_t* a,
                                                         const int16_t* b_transposed, int m, int n,
                                                         int groups, int32_t* out) {
  const int k = kGroupK * groups;
  for (int row = 0; row < m; ++row) {
    const int16_t* a_row = a + row * k;
    int32_t* out_row = out + row * n * groups;
    for (int first = 0; first < n * groups; first += 8) {
      __m256i sums[8];
      for (int j = 0; j < 8; ++j) {
        const int col = (first + j) / groups, g = (first + j) % groups;
        const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a_row + g * kGroupK));
        const __m256i y = _mm256_loadu_si256(
            reinterpret_cast<const __m256i*>(b_transposed + col * k + g * kGroupK));
        sums[j] = _mm256_madd_epi16(x, y);
      }
      const __m256i s0123 = _mm256_hadd_epi32(_mm256_hadd_epi32(sums[0], sums[1]),
                                              _mm256_hadd_epi32(sums[2], sums[3]));
      const __m256i s4567 = _mm256_hadd_epi32(_mm256_hadd_epi32(sums[4], sums[5]),
                                              _mm256_hadd_epi32(sums[6], sums[7]));
      // Low 128-bit halves hold elements 0..3 of each sum, high halves 4..7.
      const __m256i total = _mm256_add_epi32(_mm256_permute2x128_si256(s0123, s4567, 0x20),
                                             _mm256_permute2x128_si256(s0123, s4567, 0x31));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(out_row + first), total);
    }
  }
}

bool host_has_avx2() {
  static const bool has_avx2 = __builtin_cpu_supports("avx2");
  return has_avx2;
}
#endif

}  // namespace

void group_dot_tile(const int16_t* a, const int16_t* b_transposed, int m, int n, int groups,
                    int32_t* out) {
#if defined(__x86_64__)
  if ((n * groups) % 8 == 0 && host_has_avx2())
    return group_dot_tile_avx2(a, b_transposed, m, n, groups, out);
#endif
  group_dot_tile_generic(a, b_transposed, m, n, groups, out);
}

}  // namespace tcu
