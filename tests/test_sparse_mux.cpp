#include <catch2/catch.hpp>
#include <string>

#include "tcu/golden.h"

namespace {

const tcu::Instr kOrdered =
    tcu::parse_ptx("mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32");
const tcu::Instr kPlain = tcu::parse_ptx("mma.sp.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32");

}  // namespace

TEST_CASE("sparse_meta_error classifies all sixteen nibbles") {
  for (unsigned nibble = 0; nibble < 16; ++nibble) {
    const unsigned first = nibble & 3, second = nibble >> 2;
    INFO("nibble " << nibble);
    if (first == second) {
      CHECK(tcu::sparse_meta_error(nibble, false) != nullptr);
      CHECK(tcu::sparse_meta_error(nibble, true) != nullptr);
    } else if (first > second) {
      CHECK(tcu::sparse_meta_error(nibble, false) == nullptr);
      CHECK(tcu::sparse_meta_error(nibble, true) != nullptr);
    } else {
      CHECK(tcu::sparse_meta_error(nibble, false) == nullptr);
      CHECK(tcu::sparse_meta_error(nibble, true) == nullptr);
    }
  }
  // The six legal ordered patterns, as the PTX ISA lists them for 2:4.
  for (unsigned nibble : {0x4u, 0x8u, 0xcu, 0x9u, 0xdu, 0xeu})
    CHECK(tcu::sparse_meta_error(nibble, true) == nullptr);
}

TEST_CASE("sparse_expand places each stored pair at its metadata index") {
  for (unsigned nibble = 0; nibble < 16; ++nibble) {
    const unsigned first = nibble & 3, second = nibble >> 2;
    if (first == second) continue;
    tcu::Matrix compressed(1, 16, 32), meta(1, 16, 8);
    for (int col = 0; col < 32; ++col) compressed.at(0, 5, col) = (col % 4) + 1;
    for (int chunk = 0; chunk < 8; ++chunk)
      for (int row = 0; row < 16; ++row) meta.at(0, row, chunk) = nibble;
    const auto a = tcu::sparse_expand(kPlain, compressed, meta);
    for (int chunk = 0; chunk < 8; ++chunk)
      for (int j = 0; j < 4; ++j) {
        uint64_t want0 = 0, want1 = 0;
        if (j == int(first)) want0 = 1, want1 = 2;
        if (j == int(second)) want0 = 3, want1 = 4;
        INFO("nibble " << nibble << " chunk " << chunk << " pair " << j);
        CHECK(a.at(0, 5, 8 * chunk + 2 * j) == want0);
        CHECK(a.at(0, 5, 8 * chunk + 2 * j + 1) == want1);
      }
  }
}

TEST_CASE("sparse_expand rejects invalid metadata naming row and chunk") {
  tcu::Matrix compressed(1, 16, 32), meta(1, 16, 8);
  for (auto& m : meta.elems) m = 0x4;
  meta.at(0, 9, 6) = 0x5;  // pair 1 twice
  CHECK_THROWS_WITH(tcu::sparse_expand(kOrdered, compressed, meta),
                    Catch::Contains("row 9, chunk 6") && Catch::Contains("same element pair"));
  meta.at(0, 9, 6) = 0x1;  // (1, 0): legal for mma.sp, not for ::ordered_metadata
  CHECK_NOTHROW(tcu::sparse_expand(kPlain, compressed, meta));
  CHECK_THROWS_WITH(tcu::sparse_expand(kOrdered, compressed, meta),
                    Catch::Contains("increasing order"));
}

TEST_CASE("validate_sparse_meta rejects what sparse_expand rejects, expanding nothing") {
  tcu::Matrix compressed(1, 16, 32), meta(1, 16, 8);
  for (auto& m : meta.elems) m = 0x4;
  CHECK_NOTHROW(tcu::validate_sparse_meta(kOrdered, meta));
  meta.at(0, 12, 1) = 0x1;  // (1, 0): legal for mma.sp, not for ::ordered_metadata
  meta.at(0, 3, 7) = 0xa;   // pair 2 twice: the first invalid nibble, row-major
  std::string expand_message;
  try {
    tcu::sparse_expand(kOrdered, compressed, meta);
  } catch (const tcu::OperandError& e) {
    expand_message = e.what();
  }
  CHECK_THROWS_WITH(tcu::validate_sparse_meta(kOrdered, meta),
                    Catch::Contains("row 3, chunk 7") && Catch::Contains("same element pair"));
  CHECK_THROWS_WITH(tcu::validate_sparse_meta(kOrdered, meta), expand_message);
  meta.at(0, 3, 7) = 0x4;
  CHECK_NOTHROW(tcu::validate_sparse_meta(kPlain, meta));
  CHECK_THROWS_WITH(tcu::validate_sparse_meta(kOrdered, meta),
                    Catch::Contains("row 12, chunk 1") && Catch::Contains("increasing order"));
}

TEST_CASE("sparse selectors outside 0..1 are rejected") {
  tcu::Selectors sel;
  sel.sparsity = 2;
  CHECK_THROWS_AS(tcu::validate_selectors(kOrdered, sel), tcu::OperandError);
  sel.sparsity = 1;
  CHECK_NOTHROW(tcu::validate_selectors(kOrdered, sel));
}
