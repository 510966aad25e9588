// The scoreboard flags wrong results and wrong timing: feed it events as the
// front-end would, once right and once wrong.
#include <algorithm>
#include <catch2/catch.hpp>
#include <iterator>
#include <map>
#include <tuple>
#include <vector>

#include "fault.h"
#include "golden_cosim.h"
#include "tag_table.h"
#include "tcu/generator.h"

namespace {

const tcu::Instr kInt4 = tcu::parse_ptx("mma.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32");

struct Run {
  tcu::DatapathConfig dp;
  tcu::FrontEndConfig fe;
  tcu::GoldenCosim cosim{dp, fe};
  tcu::WarpOperands ops = tcu::generate_operands(kInt4, 1, 0);
};

}  // namespace

TEST_CASE("cosim accepts an instruction timed by the formula") {
  Run r;
  const int n = r.fe.rf_regs_per_cycle;
  const uint64_t collect = (tcu::source_words(kInt4) + n - 1) / n;
  const uint64_t accept = 100 + collect;
  const uint64_t out = accept + tcu::datapath_latency(r.dp, kInt4);
  const int d = std::min(n, r.dp.d_words_per_cycle);  // write-back words a cycle
  const uint64_t retire = out + (tcu::dest_words(kInt4) + d - 1) / d;
  r.cosim.issue(1, kInt4, r.ops, "c0", 100);
  r.cosim.datapath_accept(1, accept, accept);
  r.cosim.datapath_result(1, out);
  r.cosim.retire(1, tcu::golden_execute(kInt4, r.ops), retire, true);
  CHECK(r.cosim.errors() == 0);
  CHECK(r.cosim.checked() == 1);
}

TEST_CASE("cosim times collection and write-back by the register file's banks") {
  // 2 banks of one port: int4 m16n8k64's 10 source registers take 5 cycles,
  // its 4 D registers 2, at the router's widest (64 words, two registers).
  tcu::DatapathConfig dp;
  dp.words_per_cycle = 64;
  dp.d_words_per_cycle = 64;
  tcu::FrontEndConfig fe;
  fe.rf_regs_per_cycle = 64;
  fe.rf_banks = 2;
  fe.rf_read_ports = 1;
  fe.rf_write_ports = 1;
  const tcu::WarpOperands ops = tcu::generate_operands(kInt4, 1, 0);
  const tcu::Fragment d = tcu::golden_execute(kInt4, ops);
  for (const auto& [collect, write_back, errors] :
       {std::tuple{5, 2, 0}, {1, 1, 1}, {5, 1, 1}, {4, 2, 1}}) {
    tcu::GoldenCosim cosim(dp, fe);
    const uint64_t out = 100 + collect + tcu::datapath_latency(dp, kInt4);
    cosim.issue(1, kInt4, ops, "banked", 100);
    cosim.datapath_accept(1, 100 + collect, 100 + collect);
    cosim.datapath_result(1, out);
    cosim.retire(1, d, out + write_back, true);
    INFO("collect " << collect << " write-back " << write_back);
    CHECK(cosim.errors() == errors);
  }
}

TEST_CASE("cosim flags a wrong register with its lane, register and cycle") {
  Run r;
  r.cosim.issue(7, kInt4, r.ops, "case-x", 0);
  r.cosim.datapath_accept(7, 10, 10);
  r.cosim.datapath_result(7, 10 + tcu::datapath_latency(r.dp, kInt4));
  tcu::Fragment d = tcu::golden_execute(kInt4, r.ops);
  d.at(13, 2) ^= 1;
  r.cosim.retire(7, d, 40, false);
  const auto errors = r.cosim.take_errors();
  REQUIRE(errors.size() == 1);
  CHECK_THAT(errors[0], Catch::Contains("case case-x cycle 40") && Catch::Contains("lane 13 d[2]"));
}

TEST_CASE("cosim flags latency and occupancy that differ from the formula") {
  Run r;
  const auto ops2 = tcu::generate_operands(kInt4, 1, 1);
  r.cosim.issue(1, kInt4, r.ops, "a", 0);
  r.cosim.issue(2, kInt4, ops2, "b", 0);
  r.cosim.datapath_accept(1, 10, 10);
  // Offered while the first was accepted, taken one cycle late.
  r.cosim.datapath_accept(2, 10 + tcu::datapath_occupancy(r.dp, kInt4) + 1, 10);
  r.cosim.datapath_result(1, 10 + tcu::datapath_latency(r.dp, kInt4) - 1);  // one early
  const auto errors = r.cosim.take_errors();
  REQUIRE(errors.size() == 2);
  CHECK_THAT(errors[0], Catch::Contains("the formula says 8 (its occupancy)"));
  CHECK_THAT(errors[1], Catch::Contains("datapath latency 10 cycles; the formula says 11"));
}

namespace {

// Cycle-ordered calls as the front-end makes them: in each cycle the
// back-pressure first (out_ready low at the cycles in `low`), then the
// results and accepts listed for it.
struct Event {
  uint64_t cycle;
  enum { kAccept, kWaitedAccept, kResult } kind;
  uint64_t tag;
};

void play(Run& r, const std::vector<uint64_t>& low, const std::vector<Event>& events) {
  uint64_t last = 0;
  for (uint64_t c : low) last = std::max(last, c);
  for (const Event& e : events) last = std::max(last, e.cycle);
  for (uint64_t cycle = 0; cycle <= last; ++cycle) {
    if (std::find(low.begin(), low.end(), cycle) != low.end()) r.cosim.datapath_backpressure(cycle);
    for (const Event& e : events) {
      if (e.cycle != cycle) continue;
      if (e.kind == Event::kResult)
        r.cosim.datapath_result(e.tag, cycle);
      else
        // A waited accept's operands were offered long before.
        r.cosim.datapath_accept(e.tag, cycle, e.kind == Event::kWaitedAccept ? 0 : cycle);
    }
  }
}

std::vector<uint64_t> cycles(uint64_t from, uint64_t count) {
  std::vector<uint64_t> c;
  for (uint64_t i = 0; i < count; ++i) c.push_back(from + i);
  return c;
}

void issue_int4(Run& r, int count) {
  for (int i = 1; i <= count; ++i)
    r.cosim.issue(uint64_t(i), kInt4, tcu::generate_operands(kInt4, 1, uint64_t(i)), "i", 0);
}

}  // namespace

// Four int4 instructions back to back from cycle 10; the first D reaches
// the output at `first_out`, where out_ready goes low for `low` cycles.
TEST_CASE("cosim: a refused D waits in the skid register while the pipelines go on") {
  Run r;
  const uint64_t occupancy = tcu::datapath_occupancy(r.dp, kInt4);
  const uint64_t latency = tcu::datapath_latency(r.dp, kInt4);
  REQUIRE(occupancy >= 2);
  const uint64_t first_out = 10 + latency;
  // Shorter than the occupancy: the skid is empty again before the next D
  // arrives, so nothing holds; only the first D's handshake moves.
  const uint64_t low = occupancy - 1;
  const std::vector<Event> right = {
      {10, Event::kAccept, 1},
      {10 + occupancy, Event::kWaitedAccept, 2},
      {10 + 2 * occupancy, Event::kWaitedAccept, 3},
      {first_out + low, Event::kResult, 1},
      {first_out + occupancy, Event::kResult, 2},
  };
  issue_int4(r, 3);
  play(r, cycles(first_out, low), right);
  CHECK(r.cosim.take_errors().empty());
  // A datapath that stalled for the refused cycles (the old rule) fails.
  Run q;
  issue_int4(q, 3);
  play(q, cycles(first_out, low),
       {{10, Event::kAccept, 1},
        {10 + occupancy, Event::kWaitedAccept, 2},
        {10 + 2 * occupancy + low, Event::kWaitedAccept, 3},
        {first_out + low, Event::kResult, 1},
        {first_out + occupancy + low, Event::kResult, 2}});
  const auto errors = q.cosim.take_errors();
  REQUIRE(errors.size() == 2);
  CHECK_THAT(errors[0], Catch::Contains("case i") &&
                            Catch::Contains("the formula says " + std::to_string(occupancy) +
                                            " (its occupancy)") &&
                            !Catch::Contains("held"));
  CHECK_THAT(errors[1], Catch::Contains("datapath latency " + std::to_string(latency + low) +
                                        " cycles; the formula says " + std::to_string(latency)) &&
                            !Catch::Contains("held"));
}

TEST_CASE("cosim: with the skid register full the pipelines hold") {
  const tcu::DatapathConfig dp;
  const uint64_t occupancy = tcu::datapath_occupancy(dp, kInt4);
  const uint64_t latency = tcu::datapath_latency(dp, kInt4);
  REQUIRE(latency > occupancy);
  const uint64_t first_out = 10 + latency;
  // The first D waits in the skid from first_out to first_out + low; the
  // second reaches the output at first_out + occupancy and holds there
  // (with every pipeline) through the edge the skid empties: low -
  // occupancy + 1 held edges. The third instruction, accepted before them,
  // is held as long; the fourth's accept waits as long.
  const uint64_t low = occupancy + 2;
  const uint64_t held = low - occupancy + 1;
  REQUIRE(10 + 2 * occupancy < first_out + occupancy);
  auto events = [&](uint64_t off_by) {
    return std::vector<Event>{
        {10, Event::kAccept, 1},
        {10 + occupancy, Event::kWaitedAccept, 2},
        {10 + 2 * occupancy, Event::kWaitedAccept, 3},
        {first_out + low, Event::kResult, 1},
        {first_out + low + 1, Event::kResult, 2},
        {10 + 3 * occupancy + held + off_by, Event::kWaitedAccept, 4},
        {10 + 2 * occupancy + latency + held + off_by, Event::kResult, 3},
    };
  };
  Run r;
  issue_int4(r, 4);
  play(r, cycles(first_out, low), events(0));
  CHECK(r.cosim.take_errors().empty());
  for (int64_t off_by : {-1, 1}) {
    INFO("off by " << off_by);
    Run q;
    issue_int4(q, 4);
    play(q, cycles(first_out, low), events(uint64_t(off_by)));
    const auto errors = q.cosim.take_errors();
    REQUIRE(errors.size() == 2);
    CHECK_THAT(errors[0], Catch::Contains(" (its occupancy) + " + std::to_string(held) + " held"));
    if (off_by > 0)
      CHECK_THAT(errors[1], Catch::Contains("the formula says " + std::to_string(latency) + " + " +
                                            std::to_string(held) + " held"));
    else
      CHECK_THAT(errors[1], Catch::Contains("not yet out of the pipelines"));
  }
}

TEST_CASE("cosim: the drain rule counts a D that went into the skid register") {
  const tcu::Instr f64 = tcu::parse_ptx("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64");
  Run r;
  const uint64_t latency = tcu::datapath_latency(r.dp, kInt4);
  const uint64_t first_out = 10 + latency;
  r.cosim.issue(1, kInt4, r.ops, "a", 0);
  r.cosim.issue(2, f64, tcu::generate_operands(f64, 1, 0), "b", 0);
  // int4's D is refused for 5 cycles; f64 is accepted as it leaves the
  // pipeline, and its D follows its own latency.
  play(r, cycles(first_out, 5),
       {{10, Event::kAccept, 1},
        {first_out, Event::kWaitedAccept, 2},
        {first_out + 5, Event::kResult, 1},
        {first_out + tcu::datapath_latency(r.dp, f64), Event::kResult, 2}});
  CHECK(r.cosim.take_errors().empty());
}

TEST_CASE("cosim checks the drain rule on an engine change") {
  const tcu::Instr f64 = tcu::parse_ptx("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64");
  const tcu::Instr sparse = tcu::parse_ptx("mma.sp.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32");
  Run r;
  const uint64_t latency = tcu::datapath_latency(r.dp, kInt4);
  r.cosim.issue(1, kInt4, r.ops, "a", 0);
  r.cosim.issue(2, f64, tcu::generate_operands(f64, 1, 0), "b", 0);
  r.cosim.issue(3, sparse, tcu::generate_operands(sparse, 1, 0), "c", 0);
  r.cosim.datapath_accept(1, 10, 10);
  r.cosim.datapath_accept(2, 10 + latency, 12);  // drained: int4's D leaves
  const uint64_t f64_latency = tcu::datapath_latency(r.dp, f64);
  // Offered when the f64 instruction could first have drained: one late.
  r.cosim.datapath_accept(3, 10 + latency + f64_latency + 1, 10 + latency + f64_latency);
  const auto errors = r.cosim.take_errors();
  REQUIRE(errors.size() == 1);
  CHECK_THAT(errors[0], Catch::Contains("case c") && Catch::Contains("the drain rule"));
}

TEST_CASE("cosim checks no interval when the operands came after the datapath was ready") {
  Run r;
  const auto ops2 = tcu::generate_operands(kInt4, 1, 1);
  const uint64_t occupancy = tcu::datapath_occupancy(r.dp, kInt4);
  r.cosim.issue(1, kInt4, r.ops, "a", 0);
  r.cosim.issue(2, kInt4, ops2, "b", 0);
  r.cosim.datapath_accept(1, 10, 10);
  // Offered one cycle after the datapath could take it: collection decided.
  r.cosim.datapath_accept(2, 10 + occupancy + 5, 10 + occupancy + 1);
  CHECK(r.cosim.errors() == 0);
  // Offered in time, the same interval is wrong.
  Run q;
  q.cosim.issue(1, kInt4, q.ops, "a", 0);
  q.cosim.issue(2, kInt4, ops2, "b", 0);
  q.cosim.datapath_accept(1, 10, 10);
  q.cosim.datapath_accept(2, 10 + occupancy + 5, 10 + occupancy);
  CHECK(q.cosim.errors() == 1);
}

TEST_CASE("cosim counts write-back stalls into an isolated instruction's latency") {
  Run r;
  const int n = r.fe.rf_regs_per_cycle;
  const uint64_t accept = 100 + (tcu::source_words(kInt4) + n - 1) / n;
  const uint64_t out = accept + tcu::datapath_latency(r.dp, kInt4);
  const int d = std::min(n, r.dp.d_words_per_cycle);  // write-back words a cycle
  const uint64_t retire = out + (tcu::dest_words(kInt4) + d - 1) / d + 3;
  r.cosim.issue(1, kInt4, r.ops, "c0", 100);
  r.cosim.datapath_accept(1, accept, accept);
  r.cosim.datapath_result(1, out);
  r.cosim.retire(1, tcu::golden_execute(kInt4, r.ops), retire, true, 3);
  CHECK(r.cosim.errors() == 0);
  Run q;
  q.cosim.issue(1, kInt4, q.ops, "c0", 100);
  q.cosim.datapath_accept(1, accept, accept);
  q.cosim.datapath_result(1, out);
  q.cosim.retire(1, tcu::golden_execute(kInt4, q.ops), retire, true, 2);
  const auto errors = q.cosim.take_errors();
  REQUIRE(errors.size() == 1);
  CHECK_THAT(errors[0], Catch::Contains("instruction latency"));
}

TEST_CASE("cosim reports a front-end violation with the case") {
  Run r;
  r.cosim.issue(4, kInt4, r.ops, "case-4", 0);
  r.cosim.violation(4, 33, "D bit 4100 is set above the instruction's D");
  const auto errors = r.cosim.take_errors();
  REQUIRE(errors.size() == 1);
  CHECK_THAT(errors[0], Catch::Contains("case case-4 cycle 33") && Catch::Contains("bit 4100"));
  CHECK(r.cosim.case_name(4) == "case-4");
}

TEST_CASE("cosim in the results mode checks D at any latency") {
  // The events of a datapath of one's own: accepted late, delivered after
  // 500 cycles, retired much later. The cycles mode flags them; the results
  // mode passes the right D and flags a wrong one.
  tcu::DatapathConfig dp;
  tcu::FrontEndConfig fe;
  const tcu::WarpOperands ops = tcu::generate_operands(kInt4, 1, 0);
  tcu::Fragment d = tcu::golden_execute(kInt4, ops);
  auto replay_events = [&](tcu::Cosim& cosim, const tcu::Fragment& got) {
    cosim.issue(1, kInt4, ops, "slow", 100);
    cosim.datapath_accept(1, 120, 105);
    cosim.datapath_result(1, 620);
    cosim.retire(1, got, 700, true, 0);
  };
  auto cycles = tcu::make_golden_cosim(dp, fe, tcu::CheckMode::kCycles);
  replay_events(*cycles, d);
  CHECK(cycles->errors() == 2);  // the datapath latency and the whole latency
  auto results = tcu::make_golden_cosim(dp, fe, tcu::CheckMode::kResults);
  replay_events(*results, d);
  CHECK(results->errors() == 0);
  CHECK(results->checked() == 1);
  d.at(3, 1) ^= 0x10;
  replay_events(*results, d);
  const auto errors = results->take_errors();
  REQUIRE(errors.size() == 1);
  CHECK_THAT(errors[0], Catch::Contains("case slow cycle 700") && Catch::Contains("lane 3 d[1]"));
}

TEST_CASE("check modes and fault names parse, each stated once") {
  tcu::CheckMode mode = tcu::CheckMode::kCycles;
  CHECK(tcu::parse_check_mode("results", &mode));
  CHECK(mode == tcu::CheckMode::kResults);
  CHECK_FALSE(tcu::parse_check_mode("timing", &mode));
  const std::vector<std::string> names = tcu::fault_names();
  CHECK(names == std::vector<std::string>{"d-bit", "late", "lane-swap", "meta"});
  for (const std::string& name : names) {
    tcu::Fault fault = tcu::Fault::kNone;
    REQUIRE(tcu::parse_fault(name, &fault));
    CHECK(tcu::to_string(fault) == name);
    CHECK(tcu::fault_info(fault)->timing == (name == "late"));
  }
  tcu::Fault fault = tcu::Fault::kDBit;
  CHECK_FALSE(tcu::parse_fault("bit-flip", &fault));
}

// The scoreboard's per-tag records (cosim/tag_table.h) against a plain map,
// over a stream of issues and retirements in and out of tag order: every
// record found where the map has one, with its value, and none elsewhere.
TEST_CASE("tag table keeps each tag's record, in order or not") {
  tcu::TagTable<int> table;
  std::map<uint64_t, int> want;
  uint64_t state = 12345;
  auto next = [&state] { return state = state * 6364136223846793005ull + 1442695040888963407ull; };
  uint64_t issued = 1000;
  for (int step = 0; step < 20000; ++step) {
    const uint64_t r = next() >> 33;
    if (r % 3 != 0 || want.empty()) {
      // Mostly the next tag; now and then one far off or an old one again.
      const uint64_t tag = r % 17 == 0 ? r % 5000 : issued++;
      const int value = int(r % 100000);
      table.insert(tag) = value;
      want[tag] = value;
    } else {
      // Mostly the oldest; now and then one from the middle.
      auto it = want.begin();
      if (r % 4 == 0) std::advance(it, r % want.size());
      table.erase(it->first);
      want.erase(it);
    }
    if (step % 97 == 0)
      for (uint64_t tag = 0; tag < issued + 20; ++tag) {
        const int* found = table.find(tag);
        auto w = want.find(tag);
        REQUIRE((found != nullptr) == (w != want.end()));
        if (found) REQUIRE(*found == w->second);
      }
  }
}
