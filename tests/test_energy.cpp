// The energy estimate (model/src/energy.cpp) against the data file's figures
// as generated into tcu/phys_figures.h: what each counter is charged.
#include <catch2/catch.hpp>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "tcu/energy.h"
#include "tcu/phys_figures.h"

namespace {

// The data file's figures of an engine's unit at `stages`; nullptr if none.
const tcu::phys::DotUnitFigures* find(tcu::ActivityEngine engine, int stages) {
  for (const auto& f : tcu::phys::kDotUnits)
    if (f.engine == int(engine) && f.stages == stages) return &f;
  return nullptr;
}

const tcu::phys::DotUnitFigures& figures(tcu::ActivityEngine engine, int stages) {
  const tcu::phys::DotUnitFigures* f = find(engine, stages);
  if (!f) FAIL("no figures for " << tcu::to_string(engine) << " at " << stages << " stages");
  return *f;
}

// The engines' units' part of an estimate (the engines' registers, the
// router's and the glue's are their own test cases').
double engines_pj(const tcu::EnergyEstimate& e) {
  double pj = 0;
  for (const tcu::EngineEnergy& x : e.engines) pj += x.pj - x.regs_pj;
  return pj;
}

double regs_pj(const tcu::EnergyEstimate& e) {
  double pj = 0;
  for (const tcu::EngineEnergy& x : e.engines) pj += x.regs_pj;
  return pj;
}

constexpr tcu::ActivityEngine kEngines[] = {tcu::ActivityEngine::kInt4, tcu::ActivityEngine::kE2m1,
                                            tcu::ActivityEngine::kF16, tcu::ActivityEngine::kF64};

}  // namespace

TEST_CASE("energy: no cycles, no energy; the library is named") {
  const tcu::EnergyEstimate e = tcu::estimate_energy(tcu::Activity{}, tcu::DatapathConfig{});
  CHECK(e.pj == 0);
  CHECK(e.pj_per_issued_mac() == 0);
  CHECK(std::strcmp(tcu::energy_library(), "OSU 0.18 µm, typical corner") == 0);
}

TEST_CASE("energy: a cycle with every unit taking a slice costs units x the busy figure") {
  const tcu::DatapathConfig dp;  // default: IntStages, E2m1Stages, FmaStages 2
  for (tcu::ActivityEngine engine : kEngines) {
    const tcu::Family family = tcu::engine_family(engine);
    tcu::Activity a;
    a.cycles = 100;
    a[engine].busy = 100;
    a[engine].macs = 100 * uint64_t(tcu::peak_issued_macs_per_cycle(dp, family));
    const tcu::EnergyEstimate e = tcu::estimate_energy(a, dp);
    INFO(tcu::to_string(engine));
    if (!find(engine, 2)) {  // not in the data file: not priced, and said so
      CHECK_FALSE(e.engines[size_t(engine)].measured);
      CHECK(engines_pj(e) == 0);
      CHECK(e.unpriced_macs == a[engine].macs);
      continue;
    }
    const auto& f = figures(engine, 2);
    CHECK(e.engines[size_t(engine)].measured);
    const int units = tcu::dot_units(dp, family);
    CHECK(e.engines[size_t(engine)].units == units);
    CHECK(engines_pj(e) == Approx(100.0 * units * f.busy_pj_per_cycle).epsilon(1e-12));
    CHECK(engines_pj(e) / double(a[engine].macs) ==
          Approx(f.busy_pj_per_cycle / f.issued_macs_per_cycle).epsilon(1e-12));
  }
}

TEST_CASE("energy: clocked cycles without work cost the idle figure, gated ones leakage") {
  const tcu::DatapathConfig dp;
  for (tcu::ActivityEngine engine : kEngines) {
    if (!find(engine, 2)) continue;  // not priced (the case above)
    const auto& f = figures(engine, 2);
    const int units = tcu::dot_units(dp, tcu::engine_family(engine));
    INFO(tcu::to_string(engine));
    tcu::Activity idle;
    idle.cycles = 50;
    idle[engine].idle = 50;
    CHECK(engines_pj(tcu::estimate_energy(idle, dp)) ==
          Approx(50.0 * units * f.idle_pj_per_cycle).epsilon(1e-12));
    tcu::Activity gated;
    gated.cycles = 50;
    gated[engine].gated = 50;
    const double leak = engines_pj(tcu::estimate_energy(gated, dp));
    CHECK(leak == Approx(50.0 * units * f.leakage_pj_per_cycle).epsilon(1e-12));
    CHECK(leak > 0);
    CHECK(leak < 50.0 * units * f.idle_pj_per_cycle);
  }
}

TEST_CASE("energy: more MACs in the same cycles cost more") {
  const tcu::DatapathConfig dp;
  tcu::Activity a;
  a.cycles = 64;
  a[tcu::ActivityEngine::kInt4].busy = 64;
  double last = -1;
  for (uint64_t macs : {0, 1024, 4096, 65536}) {
    a[tcu::ActivityEngine::kInt4].macs = macs;
    const double pj = engines_pj(tcu::estimate_energy(a, dp));
    CHECK(pj > last);
    last = pj;
  }
}

TEST_CASE("energy: an engine not built costs nothing; units follow the configuration") {
  tcu::DatapathConfig dp;
  dp.f64_enable = false;
  tcu::Activity a;
  a.cycles = 10;
  a[tcu::ActivityEngine::kF64].gated = 10;
  CHECK(engines_pj(tcu::estimate_energy(a, dp)) == 0);
  CHECK(tcu::estimate_energy(a, dp).engines[size_t(tcu::ActivityEngine::kF64)].units == 0);
  dp = tcu::DatapathConfig{};
  dp.int4_macs_per_cycle = 256;  // 8 units, not 32
  a = tcu::Activity{};
  a.cycles = 10;
  a[tcu::ActivityEngine::kInt4].idle = 10;
  CHECK(engines_pj(tcu::estimate_energy(a, dp)) ==
        Approx(10.0 * 8 * figures(tcu::ActivityEngine::kInt4, 2).idle_pj_per_cycle));
}

TEST_CASE("energy: the figures are those of the configuration's stage count") {
  tcu::DatapathConfig dp;
  dp.int_stages = 1;  // the small configuration's
  tcu::Activity a;
  a.cycles = 10;
  a[tcu::ActivityEngine::kInt4].idle = 10;
  const tcu::EngineEnergy e = tcu::estimate_energy(a, dp).engines[0];
  CHECK(e.stages == 1);
  CHECK(e.config_stages == 1);
  CHECK(
      e.pj - e.regs_pj ==
      Approx(10.0 * 32 * figures(tcu::ActivityEngine::kInt4, 1).idle_pj_per_cycle).epsilon(1e-12));
  CHECK(figures(tcu::ActivityEngine::kInt4, 1).idle_pj_per_cycle !=
        figures(tcu::ActivityEngine::kInt4, 2).idle_pj_per_cycle);
  dp.int_stages = 7;  // not measured: the nearest stage count that is
  const tcu::EngineEnergy far = tcu::estimate_energy(a, dp).engines[0];
  CHECK(far.config_stages == 7);
  CHECK(far.stages == 2);
}

TEST_CASE("energy: the router costs its idle figure every cycle and its dynamic figure a word") {
  // spec/phys_osu018.toml, tcu_operand_router points with energy (pJ a
  // cycle): 1/1 words busy 5912.854847 idle 3160.184133; 4/4 words busy
  // 7598.710082 idle 3160.22168.
  tcu::DatapathConfig dp;
  tcu::Activity a;
  a.cycles = 100;
  a.router_words = 300;
  dp.words_per_cycle = dp.d_words_per_cycle = 4;  // a measured width
  tcu::EnergyEstimate e = tcu::estimate_energy(a, dp);
  CHECK(e.router.measured);
  CHECK(e.router.pj ==
        Approx(100 * 3160.22168 + 300 * (7598.710082 - 3160.22168) / 4).epsilon(1e-12));
  CHECK(engines_pj(e) == 0);  // no engine cycles
  // 2/2 words, a third of the way from 1/1 to 4/4: busy 6474.806592,
  // idle 3160.196649 (hand: 5912.854847 + 1685.855235 / 3,
  // 3160.184133 + 0.037547 / 3).
  dp.words_per_cycle = dp.d_words_per_cycle = 2;
  e = tcu::estimate_energy(a, dp);
  CHECK(e.router.pj ==
        Approx(100 * 3160.196649 + 300 * (6474.806592 - 3160.196649) / 2).epsilon(1e-9));
  // 1 gather and 7 scatter words: the mean width 4, the 4/4 figures.
  dp.words_per_cycle = 1;
  dp.d_words_per_cycle = 7;
  CHECK(tcu::estimate_energy(a, dp).router.idle_pj_per_cycle == Approx(3160.22168).epsilon(1e-12));
  // Words without cycles, cycles without words.
  a.cycles = 0;
  CHECK(tcu::estimate_energy(a, dp).router.pj ==
        Approx(300 * (7598.710082 - 3160.22168) / 4).epsilon(1e-12));
  a.cycles = 10;
  a.router_words = 0;
  CHECK(tcu::estimate_energy(a, dp).router.pj == Approx(10 * 3160.22168).epsilon(1e-12));
}

TEST_CASE("energy: the router's rule over points given (a point held out)") {
  // Made up: 1/1 busy 100 idle 10, 4/4 busy 400 idle 40, 8/8 busy 600 idle 40.
  const std::vector<tcu::RouterEnergyPoint> points = {
      {8, 8, 600.0, 40.0}, {1, 1, 100.0, 10.0}, {4, 4, 400.0, 40.0}};
  double busy = 0, idle = 0;
  REQUIRE(tcu::router_figures(points, 6.0, busy, idle));
  CHECK(busy == Approx(500.0));  // halfway from 4/4 to 8/8
  CHECK(idle == Approx(40.0));
  REQUIRE(tcu::router_figures(points, 16.0, busy, idle));
  CHECK(busy == Approx(1000.0));  // beyond the widest: the slope of 4/4 to 8/8, 50 a word
  REQUIRE(tcu::router_figures(points, 0.0, busy, idle));
  CHECK(busy == Approx(0.0));  // below the narrowest: the slope of 1/1 to 4/4, 100 a word
  CHECK(idle == Approx(0.0));
  // 2 gather and 6 scatter words sit at the mean width 4.
  const std::vector<tcu::RouterEnergyPoint> skewed = {{1, 1, 100.0, 10.0}, {2, 6, 400.0, 40.0}};
  REQUIRE(tcu::router_figures(skewed, 4.0, busy, idle));
  CHECK(busy == Approx(400.0));
  CHECK_FALSE(tcu::router_figures({}, 4.0, busy, idle));
}

TEST_CASE("energy: the skid, the control and the counters cost their idle figures every cycle") {
  // spec/phys_osu018.toml [[glue]] (idle pJ a cycle): tcu_output_skid at
  // DataW 4096, 4113 flip-flops, 827.438498; tcu_datapath_ctrl 8.00905;
  // tcu_activity 53.391493 a set of five counters.
  tcu::DatapathConfig dp;  // every engine built: D 8192 bits (f16's), 4 sets
  tcu::Activity a;
  a.cycles = 100;
  for (tcu::EngineActivity& e : a.engines) e.gated = 100;
  const double all = 827.438498 * (4113 - 4096 + 8192) / 4113.0 + 8.00905 + 53.391493 * 4.2;
  tcu::EnergyEstimate e = tcu::estimate_energy(a, dp);
  CHECK(e.glue.parts == 3);
  CHECK(e.glue.pj_per_cycle == Approx(all).epsilon(1e-9));  // 1885.36 pJ
  CHECK(e.glue.pj == Approx(100 * all).epsilon(1e-9));
  CHECK(engines_pj(e) + regs_pj(e) + e.router.pj + e.glue.pj == Approx(e.pj).epsilon(1e-12));
  // The int4 engine alone: D 4096 bits, the skid as measured; one set.
  dp.e2m1_enable = dp.f16_enable = dp.f64_enable = false;
  CHECK(tcu::glue_pj_per_cycle(dp) == Approx(827.438498 + 8.00905 + 53.391493 * 1.2).epsilon(1e-9));
  // No engine: the control alone.
  dp.int4_enable = false;
  CHECK(tcu::glue_pj_per_cycle(dp) == Approx(8.00905).epsilon(1e-9));
}

TEST_CASE("energy: piecewise linear between points, the end slopes beyond") {
  const std::vector<std::pair<double, double>> p = {{4, 24}, {1, 10}, {2, 20}};
  CHECK(tcu::piecewise_linear(p, 1) == 10);
  CHECK(tcu::piecewise_linear(p, 3) == 22);  // between 2 and 4
  CHECK(tcu::piecewise_linear(p, 8) == 32);  // 24 + 4 x 2
  CHECK(tcu::piecewise_linear(p, 0) == 0);   // 10 - 1 x 10
  CHECK(tcu::piecewise_linear(p, 1.5) == 15);
  CHECK(tcu::piecewise_linear({{2, 5}, {2, 7}, {4, 10}}, 3) == 8);  // equal x averaged: 6
  CHECK(tcu::piecewise_linear({{3, 9}}, 100) == 9);
  CHECK(tcu::piecewise_linear({}, 1) == 0);
}

TEST_CASE("energy: the engines' registers, their flip-flops between the settings mapped") {
  // spec/phys_osu018.toml [[engine_regs]] tcu_int4_engine flip-flops:
  // SparseEnable 1: Units 1 Stages 1 14445, Units 4 Stages 1 14521, Units
  // 1 Stages 2 14506, Units 4 Stages 2 14678; SparseEnable 0: Units 1
  // Stages 2 14504, Units 4 Stages 2 14670. tcu_e2m1_engine Stages 2:
  // Units 1 15135, Units 2 15180. tcu_f64_engine: Units 1 FmaStages 2 12515.
  using tcu::ActivityEngine;
  tcu::EngineRegs r = tcu::engine_regs_figures(ActivityEngine::kInt4, 4, 2, 1);
  CHECK(r.found);
  CHECK(r.exact);
  CHECK(r.flip_flops == 14678);
  // Units 2 Stages 1: a third of the way from 1 to 4 units, 14445 + 76 / 3.
  r = tcu::engine_regs_figures(ActivityEngine::kInt4, 2, 1, 1);
  CHECK_FALSE(r.exact);
  CHECK(r.flip_flops == Approx(14445 + 76.0 / 3).epsilon(1e-12));
  // Stages 6 at one unit: beyond 2 stages at the 1-2 slope, 14506 + 4 x 61.
  CHECK(tcu::engine_regs_figures(ActivityEngine::kInt4, 1, 6, 1).flip_flops ==
        Approx(14506 + 4 * 61.0).epsilon(1e-12));
  // Units 2 Stages 2: the stage-2 tables alone, 14506 + 172 / 3.
  CHECK(tcu::engine_regs_figures(ActivityEngine::kInt4, 2, 2, 1).flip_flops ==
        Approx(14506 + 172.0 / 3).epsilon(1e-12));
  // Without the sparse path: its own tables, 14504 + 166 / 3 at two units.
  CHECK(tcu::engine_regs_figures(ActivityEngine::kInt4, 2, 2, 0).flip_flops ==
        Approx(14504 + 166.0 / 3).epsilon(1e-12));
  // 16 e2m1 units: beyond 2 at the 1-2 slope, 15180 + 14 x 45; one stage
  // count mapped: the same at every stage count.
  CHECK(tcu::engine_regs_figures(ActivityEngine::kE2m1, 16, 2, -1).flip_flops ==
        Approx(15180 + 14 * 45.0).epsilon(1e-12));
  CHECK(tcu::engine_regs_figures(ActivityEngine::kE2m1, 16, 4, -1).flip_flops ==
        Approx(15180 + 14 * 45.0).epsilon(1e-12));
  // One table: its count at every setting.
  CHECK(tcu::engine_regs_figures(ActivityEngine::kF64, 4, 9, -1).flip_flops == 12515);
}

namespace {

// The gate-level record's datapath: an int4 engine of two units (64 MACs a
// cycle), one stage, the sparse path, the other engines not built.
tcu::DatapathConfig int4_record_datapath() {
  tcu::DatapathConfig dp;
  dp.int4_macs_per_cycle = 64;
  dp.int_stages = 1;
  dp.e2m1_enable = dp.f16_enable = dp.f64_enable = false;
  return dp;
}

// The record's activity: 740 cycles, the int4 engine busy 518, idle 6,
// gated 216, 32,768 MACs issued.
tcu::Activity int4_record_activity() {
  tcu::Activity a;
  a.cycles = 740;
  a[tcu::ActivityEngine::kInt4] = {518, 6, 0, 216, 32768};
  return a;
}

}  // namespace

TEST_CASE("energy: the engines' registers cost their idle figure every clocked cycle") {
  // No [[engine_regs]] table measures an idle figure: each flip-flop costs
  // the output skid's, [[glue]] tcu_output_skid 827.438498 pJ over 4113
  // flip-flops, 0.201176 pJ (the liberty's clocked DFFPOSX1 by hand,
  // 0.201175: tests/phys/test_glue_hand.py). An int4 engine of two units,
  // one stage, the sparse path: 14445 + 76 / 3 flip-flops (above), 2911.09
  // pJ a clocked cycle; none gated. Every MAC issued charges the engine's
  // logic around its units measured busy ([[engine_glue]] int4, 12.196509 pJ
  // per issued MAC at Units 2, Stages 1, SparseEnable 1), which holds the
  // registers' data toggles: [[engine_regs_toggles]] int4, 0.877129 toggles
  // per issued MAC (counted on an RTL run) at 0.211251 pJ (the liberty's
  // DFFPOSX1 with its nets by hand, 0.211202:
  // tests/phys/test_engine_regs_toggles_hand.py), kept beside it.
  tcu::DatapathConfig dp = int4_record_datapath();
  tcu::Activity a = int4_record_activity();
  const tcu::EnergyEstimate estimate = tcu::estimate_energy(a, dp);
  const tcu::EngineEnergy& e = estimate.engines[0];
  const double per_cycle = (14445 + 76.0 / 3) * 827.438498 / 4113;
  CHECK(e.regs_flip_flops == Approx(14445 + 76.0 / 3).epsilon(1e-12));
  CHECK(std::string(e.regs_source) == "interpolated");
  CHECK(e.regs_idle_pj_per_cycle == Approx(per_cycle).epsilon(1e-12));
  CHECK(e.regs_idle_pj_per_cycle == Approx(2911.089443).epsilon(1e-9));
  CHECK(e.regs_dynamic_priced);
  CHECK(e.regs_data_pj_per_issued_mac == Approx(0.877129 * 0.211251).epsilon(1e-12));
  CHECK(std::string(e.glue_source) == "measured");
  CHECK(e.glue_pj_per_issued_mac == 12.196509);
  CHECK(e.around_pj_per_issued_mac == 12.196509);
  CHECK(e.regs_pj == Approx((518 + 6) * per_cycle + 32768 * 12.196509).epsilon(1e-12));
  // The f64 engine has no toggles table; its logic around its units is
  // measured busy ([[engine_glue]] f64, 66.159952 pJ per issued FMA at
  // Units 2, FmaStages 2: the default's 4 units per issued FMA). Its
  // registers: one [[engine_regs]] table, 12515 flip-flops (at every
  // setting), each at the skid's idle figure.
  dp.f64_enable = true;
  tcu::Activity f64;
  f64.cycles = 100;
  f64[tcu::ActivityEngine::kF64] = {90, 10, 0, 0, 1440};
  const tcu::EnergyEstimate f64_estimate = tcu::estimate_energy(f64, dp);
  const tcu::EngineEnergy& x = f64_estimate.engines[3];
  CHECK_FALSE(x.regs_dynamic_priced);
  CHECK(std::string(x.glue_source) == "per issued MAC");
  CHECK(x.glue_pj_per_issued_mac == 66.159952);
  CHECK(x.around_pj_per_issued_mac == 66.159952);
  CHECK(x.regs_idle_pj_per_cycle == Approx(12515 * 827.438498 / 4113).epsilon(1e-9));
  CHECK(x.regs_pj == Approx(100 * x.regs_idle_pj_per_cycle + 1440 * 66.159952).epsilon(1e-12));
  dp.f64_enable = false;
  // A measured setting says so; an engine not built has none.
  dp.int4_macs_per_cycle = 128;
  dp.int_stages = 2;
  const tcu::EnergyEstimate other = tcu::estimate_energy(a, dp);
  CHECK(std::string(other.engines[0].regs_source) == "measured");
  // The glue's figure per issued MAC at a setting it was not measured at.
  CHECK(std::string(other.engines[0].glue_source) == "per issued MAC");
  CHECK(other.engines[0].around_pj_per_issued_mac == 12.196509);
  // The e2m1 engine's own table ([[engine_glue]] e2m1, 8.661088 pJ per
  // issued MAC at Units 1, Stages 2: the default's 16 units, per issued
  // MAC); the f16 engine's ([[engine_glue]] f16, 78.456366 pJ per issued
  // product at Units 4, FmaStages 2: the default's 64 units), in place of
  // its registers' toggles ([[engine_regs_toggles]] f16, 4.387024 toggles
  // per issued MAC at 0.21393 pJ, kept beside it).
  dp.int4_enable = false;
  dp.e2m1_enable = dp.f16_enable = true;
  tcu::Activity mix;
  mix.cycles = 100;
  mix[tcu::ActivityEngine::kE2m1] = {100, 0, 0, 0, 6400};
  mix[tcu::ActivityEngine::kF16] = {100, 0, 0, 0, 1600};
  const tcu::EnergyEstimate mix_estimate = tcu::estimate_energy(mix, dp);
  CHECK(std::string(mix_estimate.engines[1].glue_source) == "per issued MAC");
  CHECK(mix_estimate.engines[1].around_pj_per_issued_mac == 8.661088);
  CHECK(std::string(mix_estimate.engines[2].glue_source) == "per issued MAC");
  CHECK(mix_estimate.engines[2].around_pj_per_issued_mac == 78.456366);
  CHECK(mix_estimate.engines[2].regs_data_pj_per_issued_mac ==
        Approx(4.387024 * 0.21393).epsilon(1e-12));
  dp.e2m1_enable = dp.f16_enable = false;
  dp.int4_enable = false;
  CHECK(tcu::estimate_energy(a, dp).engines[0].regs_pj == 0);
}

TEST_CASE("energy: each engine's energy a cycle in each state sums to its energy") {
  // The int4 engine of two units, one stage, the sparse path, over the
  // gate-level record's activity: busy = MACs x (the unit's and the data
  // pJ per issued MAC) / busy cycles + U x idle + the registers' idle;
  // idle = U x idle + the registers' idle; gated = U x leakage.
  tcu::DatapathConfig dp = int4_record_datapath();
  tcu::Activity a = int4_record_activity();
  const tcu::EnergyEstimate estimate = tcu::estimate_energy(a, dp);
  const tcu::EngineEnergy& e = estimate.engines[0];
  const tcu::phys::DotUnitFigures& f = figures(tcu::ActivityEngine::kInt4, 1);
  const double unit_per_mac = (f.busy_pj_per_cycle - f.idle_pj_per_cycle) / f.issued_macs_per_cycle;
  const double idle = 2 * f.idle_pj_per_cycle + e.regs_idle_pj_per_cycle;
  CHECK(e.idle_pj_per_cycle == Approx(idle).epsilon(1e-12));
  CHECK(e.gated_pj_per_cycle == Approx(2 * f.leakage_pj_per_cycle).epsilon(1e-12));
  CHECK(e.busy_pj_per_cycle ==
        Approx(32768 * (unit_per_mac + e.around_pj_per_issued_mac) / 518 + idle).epsilon(1e-12));
  CHECK(518 * e.busy_pj_per_cycle + 6 * e.idle_pj_per_cycle + 216 * e.gated_pj_per_cycle ==
        Approx(e.pj).epsilon(1e-12));
  // Without busy cycles: no busy figure.
  a[tcu::ActivityEngine::kInt4] = {0, 10, 0, 730, 0};
  CHECK(tcu::estimate_energy(a, dp).engines[0].busy_pj_per_cycle == 0);
}
