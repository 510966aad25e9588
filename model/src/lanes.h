// Internal: the fast golden_execute paths that go from the lanes' registers
// to D's registers through fixed-size arrays, one per family. golden_mma
// (matrix order, one element at a time) is the straightforward reference
// they are tested against.
#pragma once

#include <cstdint>
#include <vector>

#include "tcu/golden.h"

namespace tcu {

// Upper bounds over every variant in scope.
inline constexpr int kMaxRows = 16, kMaxCols = 8, kMaxK = 64;
inline constexpr int kMaxAccElems = 256;  // m8n8k4 .f16: 4 batches x 8 x 8

#if defined(__x86_64__)
// The AVX2 kernels' runtime dispatch.
inline bool host_has_avx2() {
  static const bool has_avx2 = __builtin_cpu_supports("avx2");
  return has_avx2;
}
#endif

// Packed 4-bit operands (int4, e2m1): one row of A (or column of B) per line of
// kInt4LineBytes bytes, two codes a byte (code 2j in the low nibble of byte
// j, as in the registers), lines of shorter K padded with zero codes.
inline constexpr int kInt4LineBytes = kMaxK / 2;
// Copies a packed operand's register runs (`lines` lines of line_bytes / 4
// runs, see FragmentLayout::row_run_regs) into lines kInt4LineBytes apart: a
// register's eight codes are four bytes of its line.
inline void pack_code_runs(const Fragment& fragment, const std::vector<int16_t>& run_regs,
                           int lines, int line_bytes, uint8_t* out) {
  const uint64_t* regs = fragment.regs.data();
  const int16_t* run_reg = run_regs.data();
  const int runs_per_line = line_bytes / 4;
  for (int line = 0; line < lines; ++line)
    for (int run = 0; run < runs_per_line; ++run) {
      const uint32_t word = static_cast<uint32_t>(regs[*run_reg++]);
      uint8_t* bytes = out + line * kInt4LineBytes + run * 4;
      for (int byte = 0; byte < 4; ++byte) bytes[byte] = uint8_t(word >> (8 * byte));
    }
}

// sparse_expand on packed lines: a_compressed (m lines of k/4 bytes) and meta
// (m x k/8 nibbles) to a (m lines of k/2 bytes). A stored pair of codes is
// one byte, so each nibble places two bytes. Throws like the Matrix version.
void sparse_expand(const Instr& instr, const uint8_t* a_compressed, const uint64_t* meta,
                   uint8_t* a);

void execute_int4(const Instr& instr, const WarpOperands& warp, Fragment* d);
void execute_f16(const Instr& instr, const WarpOperands& warp, Fragment* d);
void execute_f64(const Instr& instr, const WarpOperands& warp, Fragment* d);
void execute_e2m1(const Instr& instr, const WarpOperands& warp, Fragment* d);

}  // namespace tcu
