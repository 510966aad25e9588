// estimate_gemm_cycles (tcu/gemm_timing.h): the GEMM cycle estimate `tcu
// gemm` prints, checked against figures worked out by hand from the
// per-instruction figures test_timing.cpp holds.
#include <catch2/catch.hpp>

#include "tcu/gemm_timing.h"

using tcu::parse_ptx;

TEST_CASE("gemm estimate: delivery hidden behind occupancy at the default parameters") {
  const auto int4 = parse_ptx("mma.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32");
  const tcu::DatapathConfig dp;
  const tcu::FrontEndConfig fe;  // 64 words a cycle: 320 source words in 5 cycles
  // 3 k-steps of 4 instructions; each 8 cycles busy, latency 1 + 8 + 2,
  // write-back 128 / 64 = 2.
  const auto e = tcu::estimate_gemm_cycles(dp, fe, int4, 3, 4);
  CHECK(e.occupancy == 3 * 4 * 8);
  CHECK(e.delivery == 3 * 5);  // only each k-step's first collection shows
  CHECK(e.fill_drain == 3 * (11 - 8 + 2));
  CHECK(e.switches == 0);
  CHECK(e.total() == 96 + 15 + 15);
}

TEST_CASE("gemm estimate: a narrow register file exposes collection between instructions") {
  const auto int4 = parse_ptx("mma.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32");
  tcu::DatapathConfig dp;
  dp.words_per_cycle = 32;
  dp.d_words_per_cycle = 32;
  tcu::FrontEndConfig fe;
  fe.rf_regs_per_cycle = 8;  // collection 320 / 8 = 40, write-back 128 / 8 = 16
  const auto e = tcu::estimate_gemm_cycles(dp, fe, int4, 2, 3);
  CHECK(e.delivery_per_instr == 40);
  CHECK(e.occupancy == 2 * 3 * 8);
  // The first collection of a k-step whole, the next two only beyond the
  // 8 cycles the datapath is busy: 40 + 2 x 32.
  CHECK(e.delivery == 2 * (40 + 2 * 32));
  CHECK(e.fill_drain == 2 * (11 - 8 + 16));
  CHECK(e.total() == 48 + 208 + 38);
}

TEST_CASE("gemm estimate: a narrow D write-back spaces the instructions") {
  const auto int4 = parse_ptx("mma.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32");
  tcu::DatapathConfig dp;
  dp.d_words_per_cycle = 8;  // write-back 128 / 8 = 16 cycles, collection still 5
  const tcu::FrontEndConfig fe;
  const auto e = tcu::estimate_gemm_cycles(dp, fe, int4, 1, 3);
  CHECK(e.write_back == 16);
  CHECK(e.occupancy == 3 * 8);
  // The first collection, then two gaps of 16 - 8 the write-back adds.
  CHECK(e.delivery == 5 + 2 * 8);
  CHECK(e.fill_drain == 11 - 8 + 16);
  CHECK(e.total() == 24 + 21 + 19);
}

TEST_CASE("gemm estimate: nothing to do costs nothing") {
  const auto f64 = parse_ptx("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64");
  const auto e = tcu::estimate_gemm_cycles({}, {}, f64, 0, 4);
  CHECK(e.total() == 0);
  CHECK(e.occupancy_per_instr == 16);
}

TEST_CASE("peak dense-equivalent MACs a cycle of each engine") {
  const tcu::DatapathConfig dp;
  CHECK(tcu::peak_dense_macs_per_cycle(
            dp, parse_ptx("mma.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32")) == 1024);
  // A sparse slice's 32 stored products stand for 64 logical k.
  CHECK(tcu::peak_dense_macs_per_cycle(
            dp, parse_ptx("mma.sp.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32")) == 2048);
  CHECK(tcu::peak_dense_macs_per_cycle(
            dp, parse_ptx("mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32")) == 256);
  CHECK(tcu::peak_dense_macs_per_cycle(
            dp, parse_ptx("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64")) == 16);
}

TEST_CASE("gemm tiling: dimensions padded up to the instruction's") {
  const auto int4 = parse_ptx("mma.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32");
  const auto f16 = parse_ptx("mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32");
  const tcu::GemmTiling t = tcu::gemm_tiling(int4, 17, 8, 65);
  CHECK(t.tile_rows == 2);  // 17 rows: a second, padded tile row
  CHECK(t.tile_cols == 1);
  CHECK(t.slots == 2);
  CHECK(t.k_steps == 2);  // 65 = 64 + 1: a second k-step
  const tcu::GemmTiling q = tcu::gemm_tiling(f16, 24, 8, 4);
  CHECK(q.tiles == 3);
  CHECK(q.slots == 1);  // four 8x8 tiles an instruction, one unused
  CHECK(q.tile_of(0, 3) == -1);
}

// The activity counters the RTL left (tcu gemm --engine rtl, the default
// configuration, seed 1) for these GEMMs at four register-file bandwidths:
// the estimate must give them exactly.
TEST_CASE("gemm activity estimate: the RTL's counters") {
  struct Case {
    const char* ptx;
    int m, n, k, rf;
    uint64_t cycles, busy, idle, gated;
  };
  const char* int4 = "mma.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32";
  const char* f16 = "mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32";
  const Case cases[] = {
      {int4, 32, 16, 128, 8, 374, 96, 96, 182}, {int4, 32, 16, 128, 16, 198, 96, 68, 34},
      {int4, 32, 16, 128, 32, 110, 84, 16, 10}, {int4, 32, 16, 128, 64, 84, 72, 8, 4},
      {f16, 16, 16, 8, 16, 110, 32, 24, 54},    {f16, 16, 16, 8, 64, 50, 32, 13, 5},
  };
  for (const Case& c : cases) {
    INFO(c.ptx << " rf " << c.rf);
    const auto instr = parse_ptx(c.ptx);
    const tcu::DatapathConfig dp;
    tcu::FrontEndConfig fe;
    fe.rf_regs_per_cycle = c.rf;
    const auto a =
        tcu::estimate_gemm_activity(dp, fe, instr, tcu::gemm_tiling(instr, c.m, c.n, c.k));
    const auto& used = a[tcu::activity_engine(instr.family)];
    CHECK(a.cycles == c.cycles);
    CHECK(used.busy == c.busy);
    CHECK(used.idle == c.idle);
    CHECK(used.gated == c.gated);
    CHECK(used.macs == uint64_t(c.m) * c.n * c.k);
  }
}
