#include <catch2/catch.hpp>
#include <string>

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
  tcu::DatapathConfig dp;
  dp.words_per_cycle = 64;
  dp.d_words_per_cycle = 64;
  CHECK(tcu::instruction_latency(dp, fe, int4) == 5 + (1 + 8 + 2) + 2);
  // Without the router's bypass, operands reach the datapath a cycle later.
  dp.gather_bypass = false;
  CHECK(tcu::instruction_latency(dp, fe, int4) == 6 + (1 + 8 + 2) + 2);
  // ... which is latency, not interval: the router takes the next
  // instruction's first beat in the cycle it hands these operands over, so
  // back-to-back collections of 320 words at 8 a cycle start 40 apart.
  fe.rf_regs_per_cycle = 8;
  CHECK(tcu::collection_cycles(dp, fe, int4) == 41);
  CHECK(tcu::collection_interval(dp, fe, int4) == 40);
  CHECK(tcu::issue_interval(dp, fe, int4) == 40);
  dp.gather_bypass = true;
  CHECK(tcu::collection_interval(dp, fe, int4) == 40);
}

TEST_CASE("collection and write-back through the operand router") {
  const auto int4 = parse_ptx("mma.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32");
  tcu::DatapathConfig dp;
  dp.words_per_cycle = 32;  // a router of 32 words a cycle each way
  dp.d_words_per_cycle = 32;
  tcu::FrontEndConfig fe;
  fe.rf_regs_per_cycle = 8;
  // 320 source words at 8 a cycle; 128 D words at 8 a cycle.
  CHECK(tcu::collection_cycles(dp, fe, int4) == 40);
  CHECK(tcu::write_back_cycles(dp, fe, int4) == 16);
  // 24 a cycle: 320 / 24 = 13.3 and 128 / 24 = 5.3 (the front-end takes a
  // 32-word beat whenever its write buffer runs short).
  fe.rf_regs_per_cycle = 24;
  CHECK(tcu::collection_cycles(dp, fe, int4) == 14);
  CHECK(tcu::write_back_cycles(dp, fe, int4) == 6);
  // D in beats of 16 at 32 a cycle: the beats bind, 128 / 16.
  dp.d_words_per_cycle = 16;
  fe.rf_regs_per_cycle = 32;
  CHECK(tcu::write_back_cycles(dp, fe, int4) == 8);
  // Beats of 48 at 32 a cycle: the register file binds, 128 / 32.
  dp.d_words_per_cycle = 48;
  CHECK(tcu::write_back_cycles(dp, fe, int4) == 4);
  // More than the router takes is refused, naming its width.
  fe.rf_regs_per_cycle = 33;
  CHECK_THAT(tcu::rf_bandwidth_error(dp, fe), Catch::Contains("WordsPerCycle=32"));
  fe.rf_regs_per_cycle = 32;
  CHECK(tcu::rf_bandwidth_error(dp, fe).empty());
}

TEST_CASE("issued MACs: m*n*k per instruction, the 32 stored products per row for sparse") {
  for (const tcu::Instr& instr : tcu::all_variants()) {
    INFO(instr.ptx());
    const long want = long(instr.batches()) * instr.shape.m * instr.shape.n *
                      (instr.sparse() ? 32 : instr.shape.k);
    CHECK(tcu::issued_macs(instr) == want);
  }
  const tcu::DatapathConfig dp;
  CHECK(tcu::peak_issued_macs_per_cycle(dp, tcu::Family::kInt4Dense) == 1024);
  CHECK(tcu::peak_issued_macs_per_cycle(dp, tcu::Family::kInt4Sparse) == 1024);
  CHECK(tcu::peak_issued_macs_per_cycle(dp, tcu::Family::kE2m1) == 1024);
  CHECK(tcu::peak_issued_macs_per_cycle(dp, tcu::Family::kF16) == 256);
  CHECK(tcu::peak_issued_macs_per_cycle(dp, tcu::Family::kF64) == 16);
}

TEST_CASE("unit counts that are not powers of two: a partial last group") {
  tcu::DatapathConfig dp;
  dp.int4_macs_per_cycle = 6 * 32;  // 256 k=64 slices over 6 units: 43 groups
  dp.e2m1_macs_per_cycle = 3 * 64;  // 128 slices over 3 units: 43 groups
  dp.f16_fmas_per_cycle = 5 * 4;    // 256 slices over 5 units: 52 groups
  CHECK(tcu::datapath_config_error(dp).empty());
  CHECK(tcu::datapath_occupancy(dp, parse_ptx("mma.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32")) ==
        43);
  CHECK(tcu::datapath_occupancy(dp, parse_ptx("mma.sync.aligned.m8n8k32.row.col.s32.s4.s4.s32")) ==
        11);
  CHECK(tcu::datapath_occupancy(
            dp, parse_ptx("mma.sync.aligned.m16n8k64.row.col.kind::mxf4.block_scale.f32.e2m1.e2m1."
                          "f32.ue8m0")) == 43);
  CHECK(tcu::datapath_occupancy(dp, parse_ptx("mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32")) ==
        52);
}

TEST_CASE("datapath_config_error names the parameter, its value and the rule") {
  tcu::DatapathConfig dp;
  CHECK(tcu::datapath_config_error(dp).empty());
  dp.int4_macs_per_cycle = 96;  // 3 units
  CHECK_THAT(tcu::datapath_config_error(dp),
             Catch::StartsWith("Int4MacsPerCycle=96 gives 3 int4 units: an odd count above 1"));
  dp.int4_macs_per_cycle = 32;  // 1 unit: the carry register
  CHECK(tcu::datapath_config_error(dp).empty());
  dp.int4_macs_per_cycle = 48;
  CHECK_THAT(tcu::datapath_config_error(dp),
             Catch::StartsWith("Int4MacsPerCycle=48: must be a positive multiple of 32"));
  dp.int4_enable = false;  // a disabled engine's figure does not matter
  CHECK(tcu::datapath_config_error(dp).empty());
  dp.f16_fmas_per_cycle = 2;
  CHECK_THAT(tcu::datapath_config_error(dp), Catch::StartsWith("F16FmasPerCycle=2:"));
  dp = tcu::DatapathConfig{};
  dp.int4_enable = dp.e2m1_enable = dp.f16_enable = dp.f64_enable = false;
  CHECK_THAT(tcu::datapath_config_error(dp), Catch::Contains("are all 0"));
}

TEST_CASE("disabled engines: the parameter that leaves a family out") {
  tcu::DatapathConfig dp;
  for (const tcu::Instr& instr : tcu::all_variants())
    CHECK(tcu::disabled_by(dp, instr.family) == nullptr);
  const tcu::Instr sparse = parse_ptx("mma.sp.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32");
  const tcu::Instr f64 = parse_ptx("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64");
  dp.sparse_enable = false;
  CHECK(std::string(tcu::disabled_by(dp, sparse.family)) == "SparseEnable");
  CHECK(tcu::disabled_by(dp, tcu::Family::kInt4Dense) == nullptr);
  dp.int4_enable = false;
  CHECK(std::string(tcu::disabled_by(dp, sparse.family)) == "Int4Enable");
  CHECK(std::string(tcu::disabled_by(dp, tcu::Family::kInt4Dense)) == "Int4Enable");
  dp.f64_enable = false;
  CHECK(tcu::disabled_error("pt", dp, f64) ==
        "configuration 'pt' is built without the f64 engine (F64Enable=0): it cannot run " +
            f64.ptx());
  CHECK(tcu::disabled_error("pt", dp, parse_ptx("mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32"))
            .empty());
}

TEST_CASE("issue interval: the longest of collection, occupancy and write-back") {
  const auto f16 = parse_ptx("mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32");
  const auto int4 = parse_ptx("mma.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32");
  tcu::DatapathConfig dp;
  tcu::FrontEndConfig fe;
  // f16 .f32: 384 source words (6 cycles at 64), occupancy 4, 256 D words.
  CHECK(tcu::collection_cycles(dp, fe, f16) == 6);
  CHECK(tcu::datapath_occupancy(dp, f16) == 4);
  CHECK(tcu::issue_interval(dp, fe, f16) == 6);
  CHECK(tcu::issue_interval(dp, fe, int4) == 8);  // the occupancy binds
  dp.d_words_per_cycle = 32;                      // 256 D words at 32 a cycle: write-back binds
  CHECK(tcu::write_back_cycles(dp, fe, f16) == 8);
  CHECK(tcu::issue_interval(dp, fe, f16) == 8);
}
