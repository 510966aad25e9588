// m8n8k4 .f64 as the DMMA unit executes it: a chain of binary64 FMAs from C,
// each rounded in the instruction's mode, with the unit's NaN rules.
#include <cfenv>
#include <cmath>
#include <cstring>

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
bool is_nan(uint64_t bits) {
  return (bits & 0x7ff0000000000000ull) == 0x7ff0000000000000ull &&
         (bits & 0x000fffffffffffffull) != 0;
}
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

}  // namespace

uint64_t f64_fma(uint64_t a, uint64_t b, uint64_t c, Rounding mode) {
  if (is_nan(b)) return b | kQuietBit;
  if (is_nan(c)) return c | kQuietBit;
  if (is_nan(a)) return a | kQuietBit;
  // The host FPU gives IEEE fma in every mode; set it for this one call.
  const int saved = std::fegetround();
  std::fesetround(host_mode(mode));
  const double d = std::fma(as_double(a), as_double(b), as_double(c));
  std::fesetround(saved);
  return std::isnan(d) ? kF64DefaultNan : as_bits(d);
}

uint64_t f64_dot(const uint64_t a[4], const uint64_t b[4], uint64_t c, Rounding mode) {
  uint64_t acc = c;
  for (int k = 0; k < 4; ++k) acc = f64_fma(a[k], b[k], acc, mode);
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

}  // namespace tcu
