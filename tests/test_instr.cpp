#include <catch2/catch.hpp>

#include "tcu/instr.h"

using tcu::Family;
using tcu::InstrError;
using tcu::parse_ptx;

TEST_CASE("parse_ptx accepts every variant in scope and prints it back unchanged") {
  REQUIRE(tcu::all_variants().size() == 16 + 16 + 12 + 5 + 3);
  for (const auto& instr : tcu::all_variants()) {
    const std::string spelling = instr.ptx();
    INFO(spelling);
    CHECK(parse_ptx(spelling).ptx() == spelling);
    CHECK(parse_ptx(spelling + ";").ptx() == spelling);
  }
}

TEST_CASE("parse_ptx decodes the qualifiers") {
  auto sp =
      parse_ptx("mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.satfinite.s32.u4.s4.s32");
  CHECK(sp.family == Family::kInt4Sparse);
  CHECK(sp.ordered_metadata);
  CHECK(sp.satfinite);
  CHECK(sp.a_type == tcu::ElemType::kU4);
  CHECK(sp.b_type == tcu::ElemType::kS4);

  auto f16 = parse_ptx("mma.sync.aligned.m8n8k4.col.row.f32.f16.f16.f16");
  CHECK(f16.family == Family::kF16);
  CHECK(f16.a_layout == tcu::MatrixLayout::kCol);
  CHECK(f16.b_layout == tcu::MatrixLayout::kRow);
  CHECK(f16.d_type == tcu::ElemType::kF32);
  CHECK(f16.c_type == tcu::ElemType::kF16);
  CHECK(f16.batches() == 4);

  auto f64 = parse_ptx("mma.sync.aligned.m8n8k4.row.col.rm.f64.f64.f64.f64");
  CHECK(f64.family == Family::kF64);
  CHECK(f64.rounding == tcu::Rounding::kRm);
  CHECK(parse_ptx("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64").rounding ==
        tcu::Rounding::kRn);

  auto e2m1 = parse_ptx(
      "mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale.scale_vec::4X.f32.e2m1.e2m1."
      "f32.ue4m3");
  CHECK(e2m1.family == Family::kE2m1);
  CHECK(e2m1.scale_block() == 16);
  CHECK(e2m1.scale_blocks() == 4);
  auto mxf4 =
      parse_ptx("mma.sync.aligned.m16n8k64.row.col.kind::mxf4.block_scale.f32.e2m1.e2m1.f32.ue8m0");
  CHECK(mxf4.scale_vec == tcu::ScaleVec::k2X);
  CHECK(mxf4.scale_blocks() == 2);
}

TEST_CASE("parse_ptx rejects illegal spellings and says why") {
  struct Bad {
    const char* text;
    const char* reason;
  };
  const Bad bad[] = {
      {"", "expected '.mma'"},
      {"mma.sync.aligned.m16n8k64.col.row.s32.s4.s4.s32", "only .row.col"},
      {"mma.sync.aligned.m8n8k32.row.row.s32.s4.s4.s32", "only .row.col"},
      {"mma.sync.aligned.m8n8k4.row.col.f16.f16.f16.f32", ".f16 D with .f32 C"},
      {"mma.sync.aligned.m8n8k4.col.col.f64.f64.f64.f64", "only .row.col"},
      {"mma.sync.aligned.m8n8k4.row.col.rn.f32.f16.f16.f32", "m8n8k4 .f64 is all-.f64"},
      {"mma.sync.aligned.m16n8k64.row.col.s32.s8.s4.s32", "the A type"},
      {"mma.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32.extra", "unexpected trailing"},
      {"mma.sync.aligned.m16n8k64.row.col.s32.s4.s4", "int4 mma has an .s32 accumulator"},
      {"mma.sync.aligned.m16n8k32.row.col.s32.s4.s4.s32", "a shape in scope"},
      {"mma.sp.sync.aligned.m8n8k32.row.col.s32.s4.s4.s32", "sparse int4 mma is m16n8k64 only"},
      {"mma.sp::unordered.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32", "expected '.sync'"},
      {"mma.sync.m16n8k64.row.col.s32.s4.s4.s32", "expected '.aligned'"},
      {"mma.sync.aligned.m16n8k64.row.col.kind::mxf4.block_scale.scale_vec::4X.f32.e2m1.e2m1.f32."
       "ue4m3",
       "needs .kind::mxf4nvf4"},
      {"mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale.scale_vec::4X.f32.e2m1.e2m1."
       "f32.ue8m0",
       "takes .ue4m3"},
      {"mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale.f32.e2m1.e2m1.f32.ue8m0",
       "explicit .scale_vec"},
      {"mma.sync.aligned.m16n8k64.row.col.kind::mxf8f6f4.block_scale.f32.e2m1.e2m1.f32.ue8m0",
       "block-scaled kind"},
      {"MMA.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32", "expected '.mma'"},
  };
  for (const auto& b : bad) {
    INFO(b.text);
    try {
      parse_ptx(b.text);
      FAIL("accepted an illegal spelling");
    } catch (const InstrError& e) {
      const std::string what = e.what();
      CHECK_THAT(what, Catch::Contains(b.reason));
      CHECK_THAT(what, Catch::Contains("invalid instruction"));
    }
  }
}
