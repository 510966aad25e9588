#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "lanes.h"
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

int32_t int4_dot(const int16_t* a, const int16_t* b, int n) {
  int32_t sum = 0;
  for (int k = 0; k < n; ++k) sum += int32_t(a[k]) * int32_t(b[k]);
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

namespace {

// Unpacks a packed int4 operand, one register per run of 8 elements.
void unpack_runs(const Fragment& fragment, const std::vector<int16_t>& run_regs, bool is_signed,
                 int16_t* out) {
  for (size_t run = 0; run < run_regs.size(); ++run)
    unpack_int4(fragment.regs[run_regs[run]], is_signed, out + 8 * run);
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

  alignas(32) int16_t a[kMaxRows * kMaxK];
  alignas(32) int16_t b_transposed[kMaxCols * kMaxK];
  if (instr.sparse()) {
    alignas(32) int16_t a_compressed[kMaxRows * kMaxK / 2];
    uint64_t meta[kMaxRows * kMaxK / 8];
    unpack_runs(warp.a, a_layout.row_run_regs(), a_signed, a_compressed);
    fragment_layout(instr, Operand::kMeta, warp.selectors).gather_into(warp.e, meta);
    sparse_expand(instr, a_compressed, meta, a);
  } else {
    unpack_runs(warp.a, a_layout.row_run_regs(), a_signed, a);
  }
  unpack_runs(warp.b, b_layout.col_run_regs(), b_signed, b_transposed);

  int32_t dots[kMaxRows * kMaxCols];
  dot_tile(a, b_transposed, m, n, k / kGroupK, dots);

  uint64_t acc[kMaxRows * kMaxCols];
  c_layout.gather_into(warp.c, acc);
  for (int i = 0; i < m * n; ++i)
    acc[i] = int4_accumulate(static_cast<uint32_t>(acc[i]), dots[i], instr.satfinite);
  d_layout.scatter_into(acc, d);
}

}  // namespace tcu
