// Internal: the fast golden_execute paths that go from the lanes' registers
// to D's registers through fixed-size arrays, one per family. golden_mma
// (matrix order, one element at a time) is the straightforward reference
// they are tested against.
#pragma once

#include <cstdint>
#include <cstring>

#include "tcu/golden.h"

namespace tcu {

// Upper bounds over every variant in scope.
inline constexpr int kMaxRows = 16, kMaxCols = 8, kMaxK = 64;
inline constexpr int kMaxAccElems = 256;  // m8n8k4 .f16: 4 batches x 8 x 8

// Eight 4-bit codes of a register, code i in byte i of the result.
inline uint64_t spread_nibbles(uint64_t reg) {
  uint64_t x = reg & 0xffffffffu;
  x = (x | x << 16) & 0x0000ffff0000ffffull;
  x = (x | x << 8) & 0x00ff00ff00ff00ffull;
  x = (x | x << 4) & 0x0f0f0f0f0f0f0f0full;
  return x;
}

// Unpacks the eight int4 codes of a register to int16 values.
inline void unpack_int4(uint64_t reg, bool is_signed, int16_t out[8]) {
  const uint64_t bytes = spread_nibbles(reg);
  for (int half = 0; half < 2; ++half) {
    // Four codes, code i in 16-bit lane i.
    uint64_t lanes = (bytes >> (32 * half)) & 0xffffffffu;
    lanes = (lanes | lanes << 16) & 0x0000ffff0000ffffull;
    lanes = (lanes | lanes << 8) & 0x00ff00ff00ff00ffull;
    // Codes 8..15 of a signed operand are -8..-1: set the lane's upper bits.
    if (is_signed) lanes |= ((lanes >> 3) & 0x0001000100010001ull) * 0xfff0;
    std::memcpy(out + 4 * half, &lanes, sizeof lanes);
  }
}

// Dot products in K groups of kGroupK: out[(row * n + col) * groups + g] is
// the exact sum over the group of a[row][k] * b_transposed[col][k], rows of
// kGroupK * groups values. Every group sum must fit in int32.
inline constexpr int kGroupK = 16;
void group_dot_tile(const int16_t* a, const int16_t* b_transposed, int m, int n, int groups,
                    int32_t* out);
// The same with the groups added: out[row * n + col] is the whole dot.
void dot_tile(const int16_t* a, const int16_t* b_transposed, int m, int n, int groups,
              int32_t* out);

void execute_int4(const Instr& instr, const WarpOperands& warp, Fragment* d);
void execute_f16(const Instr& instr, const WarpOperands& warp, Fragment* d);
void execute_f64(const Instr& instr, const WarpOperands& warp, Fragment* d);
void execute_e2m1(const Instr& instr, const WarpOperands& warp, Fragment* d);

}  // namespace tcu
