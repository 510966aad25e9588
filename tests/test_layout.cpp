#include <catch2/catch.hpp>
#include <random>
#include <set>

#include "tcu/layout.h"

using tcu::Coord;
using tcu::fragment_layout;
using tcu::Operand;
using tcu::parse_ptx;
using tcu::Selectors;
using tcu::Slot;

namespace {

std::vector<Operand> operands_of(const tcu::Instr& in) {
  std::vector<Operand> ops = {Operand::kA, Operand::kB, Operand::kC, Operand::kD};
  if (in.sparse()) ops.push_back(Operand::kMeta);
  if (in.block_scaled()) {
    ops.push_back(Operand::kScaleA);
    ops.push_back(Operand::kScaleB);
  }
  return ops;
}

std::vector<Selectors> selectors_of(const tcu::Instr& in) {
  std::vector<Selectors> out;
  if (in.sparse()) {
    for (int s = 0; s < 2; ++s) out.push_back(Selectors{s});
  } else if (in.block_scaled()) {
    const bool four_x = in.scale_vec == tcu::ScaleVec::k4X;
    for (int byte_id : {0, 2}) {
      if (four_x && byte_id) continue;
      for (int ta = 0; ta < 2; ++ta)
        for (int tb = 0; tb < 4; ++tb) out.push_back(Selectors{0, byte_id, ta, byte_id, tb});
    }
  } else {
    out.push_back(Selectors{});
  }
  return out;
}

Coord coord(const tcu::Instr& in, Operand op, Slot slot, Selectors sel = {}) {
  Coord c;
  REQUIRE(fragment_layout(in, op, sel).coord_of(slot, &c));
  return c;
}

}  // namespace

TEST_CASE("every layout is a bijection between used slots and matrix elements") {
  for (const auto& in : tcu::all_variants())
    for (Operand op : operands_of(in))
      for (const Selectors& sel : selectors_of(in)) {
        INFO(in.ptx() << " operand " << tcu::to_string(op));
        const auto& layout = fragment_layout(in, op, sel);
        std::set<std::tuple<int, int, int>> seen;
        int used = 0;
        for (int lane = 0; lane < tcu::kLanes; ++lane)
          for (int reg = 0; reg < layout.regs_per_lane(); ++reg)
            for (int elem = 0; elem < layout.elems_per_reg(); ++elem) {
              Coord c;
              if (!layout.coord_of({lane, reg, elem}, &c)) continue;
              ++used;
              CHECK(seen.insert({c.batch, c.row, c.col}).second);
              Slot back = layout.slot_of(c);
              CHECK(back.lane == lane);
              CHECK(back.reg == reg);
              CHECK(back.elem == elem);
            }
        CHECK(used == layout.elem_count());
        CHECK(int(seen.size()) == layout.batches() * layout.rows() * layout.cols());
        // Dense operands use every slot of every lane.
        if (op != Operand::kMeta && op != Operand::kScaleA && op != Operand::kScaleB)
          CHECK(used == layout.slot_count());
      }
}

TEST_CASE("gather and scatter are inverse") {
  std::mt19937_64 rng(7);
  for (const auto& in : tcu::all_variants())
    for (Operand op : {Operand::kA, Operand::kB, Operand::kC, Operand::kD}) {
      const auto& layout = fragment_layout(in, op);
      tcu::Fragment f = layout.empty_fragment();
      const uint64_t mask = layout.reg_bits() == 64 ? ~0ull : 0xffffffffull;
      for (auto& r : f.regs) r = rng() & mask;
      CHECK(layout.scatter(layout.gather(f)).regs == f.regs);
    }
}

TEST_CASE("layout spot checks against the PTX ISA formulas") {
  const auto k64 = parse_ptx("mma.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32");
  // A: lane 5 (group 1, thread 1), a19 -> row 1, col 8 + 3 + 32.
  Coord c = coord(k64, Operand::kA, {5, 2, 3});
  CHECK((c.row == 1 && c.col == 43));
  c = coord(k64, Operand::kA, {6, 1, 0});  // a8 -> row 9, col 16
  CHECK((c.row == 9 && c.col == 16));
  c = coord(k64, Operand::kB, {7, 1, 5});  // b13 of lane 7 -> row 24+5+32, col 1
  CHECK((c.row == 61 && c.col == 1));
  c = coord(k64, Operand::kC, {30, 3, 0});  // c3 of lane 30 -> row 15, col 5
  CHECK((c.row == 15 && c.col == 5));

  const auto k32 = parse_ptx("mma.sync.aligned.m8n8k32.row.col.s32.u4.u4.s32");
  c = coord(k32, Operand::kA, {14, 0, 6});  // group 3, thread 2: row 3, col 22
  CHECK((c.row == 3 && c.col == 22));
  c = coord(k32, Operand::kB, {14, 0, 6});  // row 22, col 3
  CHECK((c.row == 22 && c.col == 3));
  c = coord(k32, Operand::kC, {14, 1, 0});  // row 3, col 5
  CHECK((c.row == 3 && c.col == 5));

  const auto f32acc = parse_ptx("mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32");
  // lane 19: high group of quad pair 0; c6: X = 1 + 2 -> row 7, col 4 + 2 + 0.
  c = coord(f32acc, Operand::kC, {19, 6, 0});
  CHECK((c.batch == 0 && c.row == 7 && c.col == 6));
  const auto colrow = parse_ptx("mma.sync.aligned.m8n8k4.col.row.f16.f16.f16.f16");
  c = coord(colrow, Operand::kA, {21, 1, 0});  // a2 of lane 21: quad pair 1, row 2+4, col 1
  CHECK((c.batch == 1 && c.row == 6 && c.col == 1));
  c = coord(colrow, Operand::kB, {18, 0, 1});  // b1 of lane 18: row 2, col 1+4
  CHECK((c.batch == 0 && c.row == 2 && c.col == 5));
  c = coord(colrow, Operand::kC, {13, 2, 1});  // c5 of lane 13: quad pair 3, row 1, col 5
  CHECK((c.batch == 3 && c.row == 1 && c.col == 5));

  const auto f64 = parse_ptx("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64");
  c = coord(f64, Operand::kA, {13, 0, 0});
  CHECK((c.row == 3 && c.col == 1));
  c = coord(f64, Operand::kB, {13, 0, 0});
  CHECK((c.row == 1 && c.col == 3));

  const auto sp = parse_ptx("mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32");
  // Selector 1: lane 4*3 + 2 + 1 holds row 3 + 8; nibble 5 is chunk 5.
  c = coord(sp, Operand::kMeta, {15, 0, 5}, Selectors{1});
  CHECK((c.row == 11 && c.col == 5));
  Coord unused;
  CHECK_FALSE(fragment_layout(sp, Operand::kMeta, Selectors{0}).coord_of({15, 0, 5}, &unused));
  c = coord(sp, Operand::kA, {9, 1, 2});  // a10 of lane 9: row 2+8, stored col 8+2
  CHECK((c.row == 10 && c.col == 10));

  const auto mx = parse_ptx(
      "mma.sync.aligned.m16n8k64.row.col.kind::mxf4.block_scale.scale_vec::2X.f32.e2m1.e2m1.f32."
      "ue8m0");
  Selectors sel{0, 2, 1, 0, 3};
  // Row 12 of A's scales: lane 4*4 + 2*1 + 1; block 1 in byte 2 + 1.
  c = coord(mx, Operand::kScaleA, {19, 0, 3}, sel);
  CHECK((c.row == 12 && c.col == 1));
  CHECK_FALSE(fragment_layout(mx, Operand::kScaleA, sel).coord_of({19, 0, 1}, &unused));
  c = coord(mx, Operand::kScaleB, {4 * 6 + 3, 0, 0}, sel);  // column 6, block 0
  CHECK((c.row == 0 && c.col == 6));
}
