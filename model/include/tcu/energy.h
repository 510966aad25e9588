// The energy estimate in pJ: the activity counters (tcu/activity.h) priced
// with the dot units' physical figures from the data file
// spec/phys_osu018.toml (OSU 0.18 µm standard cells, typical corner; built
// into the library at configure time by tcu_tools.spec.gen_phys, so nothing is read
// at run time). docs/guide/energy.md gives the method.
//
// Per engine with U dot units (dot_units; 0 for an engine not built), the
// unit's figures at the configuration's stage count:
//   pJ = MACs x (busy - idle) / MACs per slice     the operations' own energy
//      + (busy + idle cycles) x U x idle pJ/cycle  every clocked cycle
//      + gated cycles x U x leakage pJ/cycle       the clock off
// so a cycle with every unit taking a slice costs U x the busy figure, a
// clocked cycle without work U x the idle figure. The operand router, on
// the ungated clock, with its busy and idle figures at the configuration's
// mean width w = (WordsPerCycle + DWordsPerCycle) / 2 (router_figures):
//   pJ += cycles x idle pJ/cycle                    every cycle clocked
//       + router words x (busy - idle) pJ/cycle / w a word's own energy
// The parts on the ungated clock, each at its idle (clocked, inputs held)
// figure every cycle (glue_pj_per_cycle):
//   pJ += cycles x (skid idle x (its flip-flops - its DataW + D) / its flip-flops
//                   + control idle + counters idle x (E + 1/5))
// with D the widest D of the E engines built (the skid's flip-flops beyond
// it are constant zero and mapped away). It leaves out the engines'
// operand, D and accumulator registers, the sparse mux, and the glue's
// data activity (the skid taking a D, the control's handshakes).
#pragma once

#include <array>
#include <cstdint>

#include "tcu/activity.h"

namespace tcu {

struct EngineEnergy {
  bool measured = false;  // the data file has its unit's figures (else pj is 0: not priced)
  double pj = 0;
  uint64_t macs = 0;
  int units = 0;                  // dot units built (0: the engine is not)
  const char* unit = "";          // the unit type priced
  int stages = 0;                 // the stage count of the figures used
  int config_stages = 0;          // the configuration's (nearest measured if not in the file)
  double dynamic_pj_per_issued_mac = 0;  // (busy - idle) pJ per cycle / MACs per slice
  double idle_pj_per_unit_cycle = 0;
  double leakage_pj_per_unit_cycle = 0;
};

struct RouterEnergy {
  bool measured = false;  // the data file has router energies (else pj is 0)
  double pj = 0;
  uint64_t words = 0;                // Activity::router_words
  double width = 0;                  // (WordsPerCycle + DWordsPerCycle) / 2
  double idle_pj_per_cycle = 0;      // at `width`
  double dynamic_pj_per_word = 0;    // (busy - idle) pJ per cycle / width
};

// The router's busy and idle pJ a cycle at mean width `width`: linear in the
// width between the narrowest and the widest point of the data file
// (beyond them, their slope; one point: its figures). False if it has none.
bool router_figures(double width, double& busy_pj_per_cycle, double& idle_pj_per_cycle);

struct GlueEnergy {
  int parts = 0;          // of tcu_output_skid, tcu_datapath_ctrl, tcu_activity: those priced
  double pj = 0;
  double pj_per_cycle = 0;
};

// The parts on the ungated clock a cycle (pJ), summed over those the data
// file has (their number in `parts`).
double glue_pj_per_cycle(const DatapathConfig& config, int* parts = nullptr);

struct EnergyEstimate {
  double pj = 0;  // the engines', the router's and the glue's
  RouterEnergy router;
  GlueEnergy glue;
  uint64_t macs = 0;
  uint64_t unpriced_macs = 0;  // MACs of engines without figures (in macs, not in pj)
  std::array<EngineEnergy, kActivityEngines> engines{};
  // pJ over the priced MACs; 0 when none were issued.
  double pj_per_issued_mac() const {
    return macs > unpriced_macs ? pj / double(macs - unpriced_macs) : 0.0;
  }
};

// "OSU 0.18 µm, typical corner": the library every figure is for.
const char* energy_library();
// The data file's date.
const char* energy_figures_date();

EnergyEstimate estimate_energy(const Activity& activity, const DatapathConfig& config);

}  // namespace tcu
