// m8n8k4 .f64 as the DMMA unit executes it: a chain of binary64 FMAs from C,
// each rounded in the instruction's mode, with the unit's NaN rules. The
// host's fma does the arithmetic; HostFpMode sets its rounding mode and
// refuses an environment that flushes subnormals.
#include <cfenv>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "fp_env.h"
#include "lanes.h"
#include "tcu/golden.h"

namespace tcu {
namespace {

constexpr uint64_t kQuietBit = uint64_t(1) << 51;

double as_double(uint64_t bits) {
  double d;
  std::memcpy(&d, &bits, sizeof d);
  return d;
}
uint64_t as_bits(double d) {
  uint64_t bits;
  std::memcpy(&bits, &d, sizeof bits);
  return bits;
}
bool is_nan(uint64_t bits) { return (bits & ~(uint64_t(1) << 63)) > 0x7ff0000000000000ull; }
int host_mode(Rounding mode) {
  switch (mode) {
    case Rounding::kRz:
      return FE_TOWARDZERO;
    case Rounding::kRm:
      return FE_DOWNWARD;
    case Rounding::kRp:
      return FE_UPWARD;
    case Rounding::kRn:
      break;
  }
  return FE_TONEAREST;
}

// f64_fma in the host's current rounding mode.
inline uint64_t fma_in_host_mode(uint64_t a, uint64_t b, uint64_t c) {
  if (is_nan(b)) return b | kQuietBit;
  if (is_nan(c)) return c | kQuietBit;
  if (is_nan(a)) return a | kQuietBit;
  const double d = std::fma(as_double(a), as_double(b), as_double(c));
  return std::isnan(d) ? kF64DefaultNan : as_bits(d);
}

// D (8 x 8) from A (8 x 4), B (4 x 8) and C (8 x 8), matrix order, by the
// host's fma chain alone, without the NaN rules, keeping every step:
// steps[k][i] is element i's accumulator after step k (steps[3]: D). Where
// the chain meets no NaN (no NaN operand, no invalid step) that is each
// element's result: the same steps in the same order and rounding. Where it
// meets one, the result is a NaN too (a NaN operand of an fma gives a NaN),
// and the NaN rules' result is one as well (from the first NaN on, every
// step returns a NaN), so a NaN result marks exactly the elements the rules
// decide; up to their first NaN the rules' steps are the chain's.
void f64_dot_tile_chain_generic(const uint64_t* a, const uint64_t* b, const uint64_t* c,
                                uint64_t* const steps[4]) {
  for (int row = 0; row < 8; ++row) {
    double acc[8];
    std::memcpy(acc, c + row * 8, sizeof acc);
    for (int k = 0; k < 4; ++k) {
      const double x = as_double(a[row * 4 + k]);
      for (int col = 0; col < 8; ++col) acc[col] = std::fma(x, as_double(b[k * 8 + col]), acc[col]);
      std::memcpy(steps[k] + row * 8, acc, sizeof acc);
    }
  }
}

#if defined(__x86_64__)
// The same with the host's 4-wide fused multiply-add (AVX + FMA): a row's
// eight columns in two vectors, B's 32 elements held in eight.
__attribute__((target("avx,fma"))) void f64_dot_tile_chain_avx(const uint64_t* a,
                                                               const uint64_t* b,
                                                               const uint64_t* c,
                                                               uint64_t* const steps[4]) {
  __m256d bv[8];
  for (int i = 0; i < 8; ++i) bv[i] = _mm256_loadu_pd(reinterpret_cast<const double*>(b) + 4 * i);
  const double* ad = reinterpret_cast<const double*>(a);
  const double* cd = reinterpret_cast<const double*>(c);
  for (int row = 0; row < 8; ++row) {
    __m256d lo = _mm256_loadu_pd(cd + row * 8), hi = _mm256_loadu_pd(cd + row * 8 + 4);
    for (int k = 0; k < 4; ++k) {
      const __m256d x = _mm256_broadcast_sd(ad + row * 4 + k);
      lo = _mm256_fmadd_pd(x, bv[2 * k], lo);
      hi = _mm256_fmadd_pd(x, bv[2 * k + 1], hi);
      double* out = reinterpret_cast<double*>(steps[k]) + row * 8;
      _mm256_storeu_pd(out, lo);
      _mm256_storeu_pd(out + 4, hi);
    }
  }
}
#endif

// D (8 x 8) with the NaN rules: the fma chain, then each NaN element's
// steps with the rules (fma_in_host_mode's), the fma's value taken from the
// chain's step while the accumulator is not a NaN.
void f64_dot_tile(const uint64_t* a, const uint64_t* b, const uint64_t* c, uint64_t* d) {
  uint64_t step0[64], step1[64], step2[64];
  uint64_t* const steps[4] = {step0, step1, step2, d};
#if defined(__x86_64__)
  static const bool avx_fma = __builtin_cpu_supports("avx") && __builtin_cpu_supports("fma");
  if (avx_fma)
    f64_dot_tile_chain_avx(a, b, c, steps);
  else
#endif
    f64_dot_tile_chain_generic(a, b, c, steps);
  for (int i = 0; i < 64; ++i) {
    if (!is_nan(d[i])) continue;
    const int row = i / 8, col = i % 8;
    uint64_t acc = c[i];
    for (int k = 0; k < 4; ++k) {
      const uint64_t x = a[row * 4 + k], y = b[k * 8 + col];
      if (is_nan(y))
        acc = y | kQuietBit;
      else if (is_nan(acc))
        acc = acc | kQuietBit;
      else if (is_nan(x))
        acc = x | kQuietBit;
      else  // fma(x, y, acc): the chain's step, acc being the chain's so far
        acc = is_nan(steps[k][i]) ? kF64DefaultNan : steps[k][i];
    }
    d[i] = acc;
  }
}

}  // namespace

uint64_t f64_fma(uint64_t a, uint64_t b, uint64_t c, Rounding mode) {
  HostFpMode host(host_mode(mode), "f64_fma");
  return fma_in_host_mode(a, b, c);
}

uint64_t f64_dot(const uint64_t a[4], const uint64_t b[4], uint64_t c, Rounding mode) {
  HostFpMode host(host_mode(mode), "f64_dot");
  uint64_t acc = c;
  for (int k = 0; k < 4; ++k) acc = fma_in_host_mode(a[k], b[k], acc);
  return acc;
}

Matrix mma_f64(const Instr& instr, const Matrix& a, const Matrix& b, const Matrix& c) {
  Matrix d(1, c.rows, c.cols);
  uint64_t a_row[4], b_col[4];
  for (int row = 0; row < c.rows; ++row)
    for (int col = 0; col < c.cols; ++col) {
      for (int k = 0; k < 4; ++k) {
        a_row[k] = a.at(0, row, k);
        b_col[k] = b.at(0, k, col);
      }
      d.at(0, row, col) = f64_dot(a_row, b_col, c.at(0, row, col), instr.rounding);
    }
  return d;
}

void execute_f64(const Instr& instr, const WarpOperands& warp, Fragment* d) {
  validate_selectors(instr, warp.selectors);
  const FragmentLayout& a_layout = fragment_layout(instr, Operand::kA);
  const FragmentLayout& b_layout = fragment_layout(instr, Operand::kB);
  const FragmentLayout& c_layout = fragment_layout(instr, Operand::kC);
  const FragmentLayout& d_layout = fragment_layout(instr, Operand::kD);
  if (instr.shape.m != 8 || instr.shape.n != 8 || instr.shape.k != 4)
    throw std::logic_error("execute_f64: not m8n8k4: " + instr.ptx());
  // An operand whose registers are its matrix in order (A, C and D of
  // m8n8k4 .f64) is read, and D written, in place; the others gathered.
  uint64_t a_buf[32], b_buf[32], c_buf[64], out_buf[64];
  auto matrix_of = [](const FragmentLayout& layout, const Fragment& f, uint64_t* buf) {
    if (layout.in_register_order() && f.regs.size() == size_t(layout.elem_count()))
      return static_cast<const uint64_t*>(f.regs.data());
    layout.gather_into(f, buf);
    return static_cast<const uint64_t*>(buf);
  };
  const uint64_t* a = matrix_of(a_layout, warp.a, a_buf);
  const uint64_t* b = matrix_of(b_layout, warp.b, b_buf);
  const uint64_t* c = matrix_of(c_layout, warp.c, c_buf);
  const bool d_in_place = d_layout.in_register_order() && a != d->regs.data() &&
                          b != d->regs.data() && c != d->regs.data();
  uint64_t* out = out_buf;
  if (d_in_place) {
    d->regs_per_lane = d_layout.regs_per_lane();
    d->regs.resize(size_t(d_layout.elem_count()));
    out = d->regs.data();
  }
  {
    HostFpMode host(host_mode(instr.rounding), "golden_execute (f64)");
    f64_dot_tile(a, b, c, out);
  }
  if (!d_in_place) d_layout.scatter_into(out, d);
}

}  // namespace tcu
