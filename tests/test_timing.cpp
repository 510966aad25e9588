#include <catch2/catch.hpp>

#include "tcu/timing.h"

using tcu::parse_ptx;

TEST_CASE("occupancy at the default parameters") {
  const tcu::DatapathConfig dp;
  CHECK(tcu::datapath_occupancy(dp, parse_ptx("mma.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32")) ==
        8);
  CHECK(tcu::datapath_occupancy(dp, parse_ptx("mma.sync.aligned.m8n8k32.row.col.s32.s4.s4.s32")) ==
        2);
  CHECK(tcu::datapath_occupancy(
            dp, parse_ptx("mma.sp.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32")) == 4);
  CHECK(tcu::datapath_occupancy(dp, parse_ptx("mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32")) ==
        4);
  CHECK(tcu::datapath_occupancy(dp, parse_ptx("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64")) ==
        16);
  CHECK(tcu::datapath_occupancy(
            dp, parse_ptx("mma.sync.aligned.m16n8k64.row.col.kind::mxf4.block_scale.f32.e2m1.e2m1."
                          "f32.ue8m0")) == 8);
}

TEST_CASE("int4 m16n8k64 takes 8, 4, 2 or 1 cycles as MACs per cycle grow") {
  const auto in = parse_ptx("mma.sync.aligned.m16n8k64.row.col.s32.u4.u4.s32");
  tcu::DatapathConfig dp;
  int expected = 8;
  for (int macs : {1024, 2048, 4096, 8192}) {
    dp.int4_macs_per_cycle = macs;
    CHECK(tcu::datapath_occupancy(dp, in) == expected);
    CHECK(tcu::datapath_latency(dp, in) == 1 + expected + dp.int_stages);
    expected /= 2;
  }
}

TEST_CASE("front-end register traffic") {
  const auto int4 = parse_ptx("mma.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32");
  CHECK(tcu::source_words(int4) == 32 * (4 + 2 + 4));
  CHECK(tcu::dest_words(int4) == 32 * 4);
  const auto f64 = parse_ptx("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64");
  CHECK(tcu::source_words(f64) == 32 * 2 * (1 + 1 + 2));
  CHECK(tcu::dest_words(f64) == 32 * 4);
  const auto sp = parse_ptx("mma.sp.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32");
  CHECK(tcu::source_words(sp) == 32 * (2 + 2 + 4 + 1));
  tcu::FrontEndConfig fe;
  fe.rf_regs_per_cycle = 64;
  const tcu::DatapathConfig dp;
  CHECK(tcu::instruction_latency(dp, fe, int4) == 5 + (1 + 8 + 2) + 2);
}
