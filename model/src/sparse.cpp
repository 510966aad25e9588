#include <cstring>
#include <string>

#include "lanes.h"
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

// Bit x set: nibble x is legal metadata.
uint16_t legal_nibbles(bool ordered) {
  uint16_t mask = 0;
  for (unsigned nibble = 0; nibble < 16; ++nibble)
    if (!sparse_meta_error(nibble, ordered)) mask |= uint16_t(1u << nibble);
  return mask;
}

}  // namespace

void sparse_expand(const Instr& instr, const uint8_t* a_compressed, const uint64_t* meta,
                   uint8_t* a) {
  const int rows = instr.shape.m, chunks = instr.shape.k / 8;
  static const uint16_t kLegal[2] = {legal_nibbles(false), legal_nibbles(true)};
  const unsigned legal = kLegal[instr.ordered_metadata ? 1 : 0];
  for (int row = 0; row < rows; ++row) {
    const uint8_t* stored = a_compressed + row * kInt4LineBytes;
    uint8_t* logical = a + row * kInt4LineBytes;
    for (int chunk = 0; chunk < chunks; ++chunk) {
      const unsigned nibble = static_cast<unsigned>(meta[row * chunks + chunk]) & 0xf;
      if (!((legal >> nibble) & 1))
        throw_meta_error(row, chunk, nibble, sparse_meta_error(nibble, instr.ordered_metadata));
      const uint32_t word = uint32_t(stored[2 * chunk]) << (8 * (nibble & 3)) |
                            uint32_t(stored[2 * chunk + 1]) << (8 * (nibble >> 2));
      for (int byte = 0; byte < 4; ++byte) logical[4 * chunk + byte] = uint8_t(word >> (8 * byte));
    }
  }
}

void validate_sparse_meta(const Instr& instr, const Matrix& meta) {
  for (int row = 0; row < instr.shape.m; ++row)
    for (int chunk = 0; chunk < meta.cols; ++chunk) {
      const unsigned nibble = static_cast<unsigned>(meta.at(0, row, chunk));
      if (const char* why = sparse_meta_error(nibble, instr.ordered_metadata))
        throw_meta_error(row, chunk, nibble, why);
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
