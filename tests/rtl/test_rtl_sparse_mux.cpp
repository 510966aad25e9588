// rtl/tcu_sparse_mux.sv against the golden sparse_expand: the 32 B elements
// it routes, dotted with the compressed A row, must equal the golden dot of
// the expanded A row with B's column. Every legal metadata nibble in every
// chunk position; then the silicon sparse vectors, row by column, through
// the mux and the golden int4_dot / int4_accumulate.
#include <array>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#ifdef TCU_GLS
// Gate-level: the Yosys netlist of tcu_sparse_mux (tests/rtl/gls_units.cmake).
#include "Vtcu_sparse_mux_gls.h"
using Vtcu_sparse_mux = Vtcu_sparse_mux_gls;
#else
#include "Vtcu_sparse_mux.h"
#endif
#include "int_rtl_util.h"
#include "tcu/golden.h"
#include "tcu/layout.h"
#include "tcu/vectors.h"

namespace {

using tcu_int_test::get_bits;
using tcu_int_test::set_bits;

constexpr int kStored = 32, kLogical = 64, kChunks = 8;

// mma.sp without ::ordered_metadata: all twelve nibbles with two different
// pair indices are legal.
const tcu::Instr& sparse_instr() {
  static const tcu::Instr instr =
      tcu::parse_ptx("mma.sp.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32");
  return instr;
}

std::vector<unsigned> legal_nibbles() {
  std::vector<unsigned> out;
  for (unsigned nibble = 0; nibble < 16; ++nibble)
    if (!tcu::sparse_meta_error(nibble, false)) out.push_back(nibble);
  return out;
}

struct Row {
  std::array<uint64_t, kStored> a{};         // compressed A row
  std::array<uint64_t, kChunks> meta{};      // its metadata nibbles
  std::array<uint64_t, kLogical> b{};        // B's column
};

// The mux's 32 B elements for one row.
std::array<uint64_t, kStored> route(Vtcu_sparse_mux& m, const Row& row) {
  uint32_t meta = 0;
  for (int c = 0; c < kChunks; ++c) meta |= uint32_t(row.meta[c]) << (4 * c);
  m.meta_i = meta;
  for (int k = 0; k < kLogical; ++k) set_bits(m.b_i, 4 * k, 4, row.b[k]);
  m.eval();
  std::array<uint64_t, kStored> out{};
  for (int i = 0; i < kStored; ++i) out[i] = get_bits(m.b_o, 4 * i, 4);
  return out;
}

// The golden dot of the expanded row with B's column.
int64_t golden_dot(const Row& row, bool a_signed, bool b_signed) {
  tcu::Matrix a_compressed(1, 1, kStored), meta(1, 1, kChunks);
  for (int i = 0; i < kStored; ++i) a_compressed.at(0, 0, i) = row.a[i];
  for (int c = 0; c < kChunks; ++c) meta.at(0, 0, c) = row.meta[c];
  const tcu::Matrix a = tcu::sparse_expand(sparse_instr(), a_compressed, meta);
  return tcu::int4_dot(a.elems.data(), row.b.data(), kLogical, a_signed, b_signed);
}

}  // namespace

TEST_CASE("tcu_sparse_mux routes every legal nibble in every chunk", "[rtl][sparse]") {
  VerilatedContext context;
  Vtcu_sparse_mux m(&context);
  std::mt19937_64 rng(11);
  std::uniform_int_distribution<int> code(0, 15), bit(0, 1);
  const std::vector<unsigned> legal = legal_nibbles();
  REQUIRE(legal.size() == 12);
  std::uniform_int_distribution<size_t> any_legal(0, legal.size() - 1);

  for (int chunk = 0; chunk < kChunks; ++chunk)
    for (unsigned nibble : legal)
      for (int trial = 0; trial < 8; ++trial) {
        Row row;
        for (auto& x : row.b) x = code(rng);
        for (auto& x : row.meta) x = legal[any_legal(rng)];
        row.meta[chunk] = nibble;
        INFO("chunk " << chunk << " nibble " << nibble << " trial " << trial);
        const auto routed = route(m, row);
        // One-hot A: the golden dot picks out exactly the B element that
        // stored element i multiplies; the mux must route that one.
        for (int i = 0; i < kStored; ++i) {
          Row one = row;
          one.a.fill(0);
          one.a[i] = 1;
          INFO("stored element " << i);
          REQUIRE(int64_t(routed[i]) == golden_dot(one, false, false));
        }
        // Random A and signedness: the dense 32-wide dot of the routed
        // operands equals the golden expanded dot.
        for (auto& x : row.a) x = code(rng);
        const bool as = bit(rng), bs = bit(rng);
        REQUIRE(tcu::int4_dot(row.a.data(), routed.data(), kStored, as, bs) ==
                golden_dot(row, as, bs));
      }
}

TEST_CASE("tcu_sparse_mux routes an invalid nibble by its bits", "[rtl][sparse]") {
  // The front-end rejects these; the mux still routes pair index j of slot s
  // to columns 8c+2j, 8c+2j+1.
  VerilatedContext context;
  Vtcu_sparse_mux m(&context);
  Row row;
  for (int k = 0; k < kLogical; ++k) row.b[k] = k % 16;
  for (unsigned nibble = 0; nibble < 16; ++nibble) {
    if (!tcu::sparse_meta_error(nibble, false)) continue;
    row.meta.fill(nibble);
    const auto routed = route(m, row);
    for (int i = 0; i < kStored; ++i) {
      const int c = i / 4, slot = (i / 2) % 2, half = i % 2;
      const int pair = (nibble >> (2 * slot)) & 3;
      REQUIRE(routed[i] == row.b[8 * c + 2 * pair + half]);
    }
  }
}

TEST_CASE("tcu_sparse_mux reproduces the silicon sparse vectors", "[rtl][sparse]") {
  VerilatedContext context;
  Vtcu_sparse_mux m(&context);
  tcu::VectorReader reader(std::string(TCU_TEST_DATA_DIR) + "/silicon-h200-public.jsonl.gz");
  tcu::MmaCase mma_case;
  int cases = 0;
  while (reader.next(&mma_case)) {
    const tcu::Instr& instr = mma_case.instr;
    if (!instr.sparse()) continue;
    ++cases;
    const tcu::Operands ops = tcu::gather_operands(instr, mma_case.operands);
    const tcu::Matrix d = tcu::fragment_layout(instr, tcu::Operand::kD).gather(mma_case.d);
    const bool as = instr.a_type == tcu::ElemType::kS4, bs = instr.b_type == tcu::ElemType::kS4;
    for (int r = 0; r < instr.shape.m; ++r)
      for (int col = 0; col < instr.shape.n; ++col) {
        Row row;
        for (int i = 0; i < kStored; ++i) row.a[i] = ops.a.at(0, r, i);
        for (int c = 0; c < kChunks; ++c) row.meta[c] = ops.meta.at(0, r, c);
        for (int k = 0; k < kLogical; ++k) row.b[k] = ops.b.at(0, k, col);
        const auto routed = route(m, row);
        const int64_t dot = tcu::int4_dot(row.a.data(), routed.data(), kStored, as, bs);
        INFO(mma_case.where() << " row " << r << " col " << col);
        REQUIRE(tcu::int4_accumulate(uint32_t(ops.c.at(0, r, col)), dot, instr.satfinite) ==
                d.at(0, r, col));
      }
  }
  REQUIRE(cases > 0);
}
