#include <cstring>
#include <string>

#include "tcu/golden.h"

namespace tcu {

// A nibble holds two 2-bit pair indices: bits 1:0 the first, 3:2 the second.
const char* sparse_meta_error(unsigned nibble, bool ordered) {
  const unsigned first = nibble & 3, second = (nibble >> 2) & 3;
  if (first == second) return "selects the same element pair twice";
  if (ordered && first > second)
    return "pair indices are not in increasing order (::ordered_metadata)";
  return nullptr;
}

namespace {

[[noreturn]] void throw_meta_error(int row, int chunk, unsigned nibble, const char* why) {
  throw OperandError("invalid sparse metadata for row " + std::to_string(row) + ", chunk " +
                     std::to_string(chunk) + " (nibble 0x" + "0123456789abcdef"[nibble & 0xf] +
                     "): " + why);
}

}  // namespace

void sparse_expand(const Instr& instr, const int16_t* a_compressed, const uint64_t* meta,
                   int16_t* a) {
  const int rows = instr.shape.m, k = instr.shape.k, chunks = k / 8;
  for (int row = 0; row < rows; ++row)
    for (int chunk = 0; chunk < chunks; ++chunk) {
      const unsigned nibble = static_cast<unsigned>(meta[row * chunks + chunk]);
      if (const char* why = sparse_meta_error(nibble, instr.ordered_metadata))
        throw_meta_error(row, chunk, nibble, why);
      int16_t* logical = a + row * k + 8 * chunk;
      const int16_t* stored = a_compressed + row * (k / 2) + 4 * chunk;
      for (int i = 0; i < 8; ++i) logical[i] = 0;
      for (int slot = 0; slot < 2; ++slot) {
        const int pair = (nibble >> (2 * slot)) & 3;
        logical[2 * pair] = stored[2 * slot];
        logical[2 * pair + 1] = stored[2 * slot + 1];
      }
    }
}

Matrix sparse_expand(const Instr& instr, const Matrix& a_compressed, const Matrix& meta) {
  Matrix a(1, a_compressed.rows, instr.shape.k);
  for (int row = 0; row < a.rows; ++row)
    for (int chunk = 0; chunk < meta.cols; ++chunk) {
      const unsigned nibble = static_cast<unsigned>(meta.at(0, row, chunk));
      if (const char* why = sparse_meta_error(nibble, instr.ordered_metadata))
        throw_meta_error(row, chunk, nibble, why);
      for (int slot = 0; slot < 2; ++slot) {
        const int pair = (nibble >> (2 * slot)) & 3;
        for (int half = 0; half < 2; ++half)
          a.at(0, row, 8 * chunk + 2 * pair + half) =
              a_compressed.at(0, row, 4 * chunk + 2 * slot + half);
      }
    }
  return a;
}

}  // namespace tcu
