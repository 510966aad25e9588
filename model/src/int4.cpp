#include <cstdint>
#include <limits>

#include "tcu/golden.h"

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

uint32_t int4_accumulate(uint32_t c, int64_t dot, bool satfinite) {
  const int64_t exact = static_cast<int64_t>(static_cast<int32_t>(c)) + dot;
  if (satfinite) {
    constexpr int64_t kMin = std::numeric_limits<int32_t>::min();
    constexpr int64_t kMax = std::numeric_limits<int32_t>::max();
    return static_cast<uint32_t>(exact < kMin ? kMin : exact > kMax ? kMax : exact);
  }
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

}  // namespace tcu
