// The register file's coverage bins (group "regfile", tcu/coverage.h):
// hand-built traffic hits exactly the bins it should and not its
// neighbours, the traffic of real schedules at three register files hits
// what the schedules show, and FunctionalCoverage counts them per
// instruction under group "regfile".
#include <algorithm>
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "coverage.h"
#include "tcu/coverage.h"
#include "tcu/register_file.h"

namespace {

using Bins = std::vector<std::string>;

bool has(const Bins& bins, const std::string& name) {
  return std::find(bins.begin(), bins.end(), name) != bins.end();
}

// Traffic of an f64 instruction: `collected` words per collection cycle at
// 64 a cycle, `written` per write-back cycle at 64, bank cycles as given.
tcu::RegisterFileTraffic traffic(std::vector<int> collected, int read_cycles,
                                 std::vector<int> written, int write_cycles, uint64_t stalls = 0) {
  tcu::RegisterFileTraffic t;
  t.family = tcu::Family::kF64;
  t.collect_bandwidth = 64;
  t.collected = std::move(collected);
  t.read_cycles = read_cycles;
  t.write_back_bandwidth = 64;
  t.written_back = std::move(written);
  t.write_cycles = write_cycles;
  t.write_back_stalls = stalls;
  return t;
}

tcu::FrontEndConfig rf(int words, int banks, int read_ports = 1, int write_ports = 1) {
  tcu::FrontEndConfig c;
  c.rf_regs_per_cycle = words;
  c.rf_banks = banks;
  c.rf_read_ports = read_ports;
  c.rf_write_ports = write_ports;
  return c;
}

}  // namespace

TEST_CASE("regfile: one cycle each way at full rate hits nothing", "[coverage][regfile]") {
  CHECK(tcu::register_file_hits(traffic({64}, 1, {64}, 1)).empty());
  // A last cycle with fewer words than the bandwidth is not held back.
  CHECK(tcu::register_file_hits(traffic({64, 32}, 1, {64, 10}, 1)) ==
        Bins{"f64.collect.bandwidth", "f64.write_back.bandwidth"});
}

TEST_CASE("regfile: the collector's bandwidth binds", "[coverage][regfile]") {
  const Bins hit = tcu::register_file_hits(traffic({64, 64, 64}, 1, {32}, 1));
  CHECK(hit == Bins{"f64.collect.bandwidth"});
  // Fewer than the bandwidth in every cycle: not bandwidth-bound, held back.
  const Bins slow = tcu::register_file_hits(traffic({32, 32, 32}, 3, {32}, 1));
  CHECK_FALSE(has(slow, "f64.collect.bandwidth"));
}

TEST_CASE("regfile: a collection cycle held back by the bank reads", "[coverage][regfile]") {
  // 32 of 96 words in cycle 0 where 64 could go: a bank conflict that costs.
  const Bins hit = tcu::register_file_hits(traffic({32, 32, 32}, 3, {32}, 1));
  CHECK(has(hit, "f64.collect.bank_stall"));
  CHECK_FALSE(has(hit, "f64.collect.bank_conflict_hidden"));
  // Held back in a middle cycle only.
  CHECK(has(tcu::register_file_hits(traffic({64, 32, 64}, 3, {32}, 1)), "f64.collect.bank_stall"));
  // The same words at full rate: no stall, though the banks took 2 cycles.
  const Bins hidden = tcu::register_file_hits(traffic({64, 32}, 2, {32}, 1));
  CHECK_FALSE(has(hidden, "f64.collect.bank_stall"));
  CHECK(has(hidden, "f64.collect.bank_conflict_hidden"));
  // One read cycle: no conflict at all.
  CHECK_FALSE(has(tcu::register_file_hits(traffic({64, 32}, 1, {32}, 1)),
                  "f64.collect.bank_conflict_hidden"));
}

TEST_CASE("regfile: write-back held back by the write ports", "[coverage][regfile]") {
  // Every word arrived in cycle 0; cycle 1 only drains the buffer.
  const Bins drain = tcu::register_file_hits(traffic({32}, 1, {64, 0}, 2));
  CHECK(drain == Bins{"f64.write_back.port_stall"});
  // Fewer words than the rate with words left.
  const Bins slow = tcu::register_file_hits(traffic({32}, 1, {32, 32}, 2));
  CHECK(has(slow, "f64.write_back.port_stall"));
  CHECK_FALSE(has(slow, "f64.write_back.bank_conflict_hidden"));
  // The banks took two cycles, the rate two as well: hidden.
  const Bins hidden = tcu::register_file_hits(traffic({32}, 1, {64, 64}, 2));
  CHECK(hidden == Bins{"f64.write_back.bandwidth", "f64.write_back.bank_conflict_hidden"});
}

TEST_CASE("regfile: write-back held by back-pressure", "[coverage][regfile]") {
  CHECK(tcu::register_file_hits(traffic({32}, 1, {32}, 1, 3)) ==
        Bins{"f64.write_back.backpressure"});
  CHECK_FALSE(
      has(tcu::register_file_hits(traffic({32}, 1, {32}, 1, 0)), "f64.write_back.backpressure"));
}

TEST_CASE("regfile: the schedules of three register files", "[coverage][regfile]") {
  // m16n8k64 s4: more than two registers each way (register_file.h).
  const tcu::Instr int4 = tcu::parse_ptx("mma.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32");
  const int sources = int(tcu::source_registers(int4).size());
  const int dests = int(tcu::dest_registers(int4).size());
  REQUIRE(sources > 2);
  REQUIRE(dests > 2);
  // The defaults (16 banks, 64 words): the bandwidth binds, no conflict.
  Bins hit = tcu::register_file_hits(tcu::register_file_traffic(int4, rf(64, 16), rf(64, 16), 0));
  CHECK(hit == Bins{"int4_dense.collect.bandwidth", "int4_dense.write_back.bandwidth"});
  // One bank: a register a cycle, both ways held back.
  hit = tcu::register_file_hits(tcu::register_file_traffic(int4, rf(64, 1), rf(64, 1), 0));
  CHECK(hit == Bins{"int4_dense.collect.bank_stall", "int4_dense.write_back.bandwidth",
                    "int4_dense.write_back.port_stall"});
  // Two banks: two registers a cycle, as many as the 64 words: hidden.
  hit = tcu::register_file_hits(tcu::register_file_traffic(int4, rf(64, 2), rf(64, 2), 5));
  CHECK(hit == Bins{"int4_dense.collect.bandwidth", "int4_dense.collect.bank_conflict_hidden",
                    "int4_dense.write_back.bandwidth", "int4_dense.write_back.bank_conflict_hidden",
                    "int4_dense.write_back.backpressure"});
}

TEST_CASE("regfile: FunctionalCoverage counts the bins per instruction", "[coverage][regfile]") {
  tcu::FunctionalCoverage coverage;
  size_t regfile_bins = 0;
  for (const tcu::CoverageBin& bin : coverage.bins())
    if (bin.group == "regfile") {
      ++regfile_bins;
      CHECK(bin.kind == "regfile");
    }
  CHECK(regfile_bins == 5 * 7);
  coverage.sample_register_file(traffic({32, 32, 32}, 3, {64, 0}, 2, 1));
  coverage.sample_register_file(traffic({64, 32}, 2, {32}, 1));
  auto hits = [&](const std::string& name) {
    for (const tcu::CoverageBin& bin : coverage.bins())
      if (bin.group == "regfile" && bin.name == name) return bin.hits;
    FAIL("no regfile bin " << name);
    return uint64_t(0);
  };
  CHECK(hits("f64.collect.bank_stall") == 1);
  CHECK(hits("f64.collect.bank_conflict_hidden") == 1);
  CHECK(hits("f64.write_back.port_stall") == 1);
  CHECK(hits("f64.write_back.backpressure") == 1);
  CHECK(hits("f64.collect.bandwidth") == 1);
  CHECK(hits("f16.collect.bank_stall") == 0);
  // Merged from functional.json like every bin.
  CHECK(coverage.add("regfile", "f64.collect.bank_stall", 2));
  CHECK(hits("f64.collect.bank_stall") == 3);
}
