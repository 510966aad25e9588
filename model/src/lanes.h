// Internal: the fast golden_execute paths that go from the lanes' registers
// to D's registers through fixed-size arrays, one per family. golden_mma
// (matrix order, one element at a time) is the straightforward reference
// they are tested against.
#pragma once

#include <cstdint>

#include "tcu/golden.h"

namespace tcu {

// Upper bounds over every variant in scope.
inline constexpr int kMaxRows = 16, kMaxCols = 8, kMaxK = 64;
inline constexpr int kMaxAccElems = 256;  // m8n8k4 .f16: 4 batches x 8 x 8

// Packed int4 operands: one row of A (or column of B) per line of
// kInt4LineBytes bytes, two codes a byte (code 2j in the low nibble of byte
// j, as in the registers), lines of shorter K padded with zero codes.
inline constexpr int kInt4LineBytes = kMaxK / 2;
// sparse_expand on packed lines: a_compressed (m lines of k/4 bytes) and meta
// (m x k/8 nibbles) to a (m lines of k/2 bytes). A stored pair of codes is
// one byte, so each nibble places two bytes. Throws like the Matrix version.
void sparse_expand(const Instr& instr, const uint8_t* a_compressed, const uint64_t* meta,
                   uint8_t* a);

// Dot products in K groups of kGroupK: out[(row * n + col) * groups + g] is
// the exact sum over the group of a[row][k] * b_transposed[col][k], rows of
// kGroupK * groups values. Every group sum must fit in int32.
inline constexpr int kGroupK = 16;
void group_dot_tile(const int16_t* a, const int16_t* b_transposed, int m, int n, int groups,
                    int32_t* out);

void execute_int4(const Instr& instr, const WarpOperands& warp, Fragment* d);
void execute_f16(const Instr& instr, const WarpOperands& warp, Fragment* d);
void execute_f64(const Instr& instr, const WarpOperands& warp, Fragment* d);
void execute_e2m1(const Instr& instr, const WarpOperands& warp, Fragment* d);

}  // namespace tcu
