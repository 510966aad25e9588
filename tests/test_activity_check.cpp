// tcu::activity_disagreements (model/src/activity.cpp), the check `tcu run`
// makes of the RTL's activity counters after every run: counters built by
// hand to agree with a run, then each rule broken by one changed field.
#include <catch2/catch.hpp>

#include "tcu/activity.h"

namespace {

using tcu::ActivityEngine;

// 100 cycles; int4 ran 3 instructions of 512 MACs, f16 one of 1,024; e2m1
// and f64 never ran (gated throughout).
struct Fixture {
  tcu::Activity counters;
  tcu::RunIssue issued{};
  Fixture() {
    counters.cycles = 100;
    counters[ActivityEngine::kInt4] = {/*busy*/ 20, /*idle*/ 12, /*stalled*/ 4, /*gated*/ 68,
                                       /*macs*/ 1536};
    counters[ActivityEngine::kF16] = {5, 12, 0, 83, 1024};
    counters[ActivityEngine::kE2m1] = {0, 0, 0, 100, 0};
    counters[ActivityEngine::kF64] = {0, 0, 0, 100, 0};
    issued[size_t(ActivityEngine::kInt4)] = {3, 1536};
    issued[size_t(ActivityEngine::kF16)] = {1, 1024};
  }
};

}  // namespace

TEST_CASE("activity counters that agree with the run pass", "[activity]") {
  Fixture f;
  CHECK(tcu::activity_disagreements(f.counters, f.issued).empty());
}

TEST_CASE("each activity rule fails on one changed counter", "[activity]") {
  Fixture f;
  auto only_problem = [&](const char* engine) {
    const auto problems = tcu::activity_disagreements(f.counters, f.issued);
    REQUIRE(problems.size() == 1);
    REQUIRE(problems[0].engine);
    CHECK(std::string(tcu::to_string(*problems[0].engine)) == engine);
    CHECK(problems[0].text.rfind(engine, 0) == 0);
    return problems[0].text;
  };
  SECTION("a MAC count one bit off") {
    f.counters[ActivityEngine::kInt4].macs ^= 1;
    CHECK(only_problem("int4").find("MACs") != std::string::npos);
  }
  SECTION("a cycle counted twice (idle and gated)") {
    f.counters[ActivityEngine::kF16].idle += 1;
    CHECK(only_problem("f16").find("cycles 100") != std::string::npos);
  }
  SECTION("an engine without instructions lingering") {
    f.counters[ActivityEngine::kF64].idle = 3;
    f.counters[ActivityEngine::kF64].gated = 97;
    CHECK(only_problem("f64").find("no instruction") != std::string::npos);
  }
  SECTION("fewer busy cycles than instructions") {
    f.counters[ActivityEngine::kInt4].busy = 2;
    f.counters[ActivityEngine::kInt4].stalled = 0;
    f.counters[ActivityEngine::kInt4].gated = 86;
    CHECK(only_problem("int4").find("busy 2 cycles for 3") != std::string::npos);
  }
  SECTION("stalls outside busy cycles") {
    f.counters[ActivityEngine::kF16].stalled = 6;
    CHECK(only_problem("f16").find("stalled") != std::string::npos);
  }
}

// The rules that need more than the counters: whether out_ready was ever low,
// and the timed reference's prediction (the held edges, each engine's busy
// edges), as the co-verification's timing model makes it.
TEST_CASE("activity counters against back-pressure and the reference", "[activity]") {
  Fixture f;
  tcu::ReferenceActivity reference;
  reference.held_edges = 4;
  reference.busy[size_t(ActivityEngine::kInt4)] = 20;
  reference.busy[size_t(ActivityEngine::kF16)] = 5;
  CHECK(tcu::activity_disagreements(f.counters, f.issued, true, reference).empty());
  SECTION("stalled cycles without back-pressure") {
    const auto problems = tcu::activity_disagreements(f.counters, f.issued, false, reference);
    REQUIRE(problems.size() == 1);
    CHECK(problems[0].engine == ActivityEngine::kInt4);
    CHECK(problems[0].text == "int4: 4 stalled cycles without back-pressure");
  }
  SECTION("stalled cycles with the write-back's back-pressure alone") {
    // The run adds none, but out_ready was low (a write-back slower than
    // the engines, as in the a100 configuration): the held edges are the
    // reference's, no disagreement.
    reference.out_ready_low_edges = 6;
    CHECK(tcu::activity_disagreements(f.counters, f.issued, false, reference).empty());
  }
  SECTION("one busy cycle more than the reference's in flight") {
    f.counters[ActivityEngine::kF16].busy += 1;
    f.counters[ActivityEngine::kF16].idle -= 1;
    const auto problems = tcu::activity_disagreements(f.counters, f.issued, true, reference);
    REQUIRE(problems.size() == 1);
    CHECK(problems[0].engine == ActivityEngine::kF16);
    CHECK(problems[0].text == "f16: busy 6 cycles, the reference's instructions were in flight 5");
  }
  SECTION("the stalled sum one off the reference's held edges") {
    reference.held_edges = 5;
    const auto problems = tcu::activity_disagreements(f.counters, f.issued, true, reference);
    REQUIRE(problems.size() == 1);
    CHECK(!problems[0].engine);
    CHECK(problems[0].text ==
          "stalled cycles 4 over the engines, the reference's pipelines held 5");
  }
}
