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
// clocked cycle without work U x the idle figure. The engine's registers
// around its units (engine_regs_figures: F flip-flops on its gated clock):
//   pJ += (busy + idle cycles) x F x idle pJ per flip-flop
//       + MACs x the engine's data pJ per issued MAC
// the data energy being, where the data file measured the engine's logic
// around its units busy (engine_glue_figures: [[engine_glue]], the engine
// mapped around its units and simulated at gate level with them, its own
// cells charged, busy - idle per issued MAC: operand selection, D buffer
// writes, pipes, sequencer, the registers' data toggles among them), that
// figure; elsewhere the registers' dynamic figure plus their data toggles
// (toggles per issued MAC x pJ per toggle: the operand registers loaded and
// the D buffer written once an instruction, counted on an RTL run's
// waveform, each at a DFFPOSX1's energy with its D and Q nets from the
// liberty at the mapped engine's loads), which leave the logic out
// (the int4 engine's sparse path, on a clock of its own, is left out).
// Per engine the estimate gives its energy a cycle in each state (units
// and registers): busy, MACs x (the units' and the data pJ per issued MAC)
// / busy cycles + U x idle + F x idle per flip-flop; idle, U x idle + F x
// idle per flip-flop; gated, U x leakage; times the cycles in each state
// they sum to the engine's pJ. The operand router, on
// the ungated clock, with its busy and idle figures at the configuration's
// mean width w = (WordsPerCycle + DWordsPerCycle) / 2 (router_figures):
//   pJ += cycles x idle pJ/cycle                    every cycle clocked
//       + router words x (busy - idle) pJ/cycle / w a word's own energy
// The parts on the ungated clock, each at its idle (clocked, inputs held)
// figure every cycle (glue_pj_per_cycle):
//   pJ += cycles x (skid idle x (its flip-flops - its DataW + D) / its flip-flops
//                   + control idle + counters idle x (E + 1/5))
// with D the widest D of the E engines built (the skid's flip-flops beyond
// it are constant zero and mapped away). It leaves out the int4 engine's
// sparse path and the sparse mux, and the glue's data activity (the skid
// taking a D, the control's handshakes).
#pragma once

#include <array>
#include <cstdint>
#include <utility>
#include <vector>

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
  // The engine's registers around its units (engine_regs_figures), in pj.
  double regs_flip_flops = 0;            // on its gated clock, not a unit's
  const char* regs_source = "";          // measured, interpolated ("" : none in the data file)
  double regs_idle_pj_per_cycle = 0;     // every clocked cycle
  double regs_dynamic_pj_per_issued_mac = 0;
  bool regs_dynamic_priced = false;      // the data file has a busy figure for the engine
  double regs_toggles_per_issued_mac = 0;  // register bits changing, per MAC issued
  double regs_pj_per_toggle = 0;
  double regs_data_pj_per_issued_mac = 0;  // toggles per issued MAC x pJ per toggle
  // The engine's logic around its units, busy (engine_glue_figures).
  const char* glue_source = "";  // measured, per issued MAC ("": none in the data file)
  double glue_pj_per_issued_mac = 0;
  // The data energy priced per issued MAC: glue_pj_per_issued_mac where the
  // data file has it, else regs_dynamic_pj_per_issued_mac + regs_data_pj_per_issued_mac.
  double around_pj_per_issued_mac = 0;
  double regs_pj = 0;
  // The engine's energy a cycle in each state (its units and registers).
  double busy_pj_per_cycle = 0;   // 0 without busy cycles
  double idle_pj_per_cycle = 0;
  double gated_pj_per_cycle = 0;
};

// An engine's registers around its units at a configuration: the
// flip-flops of the data file's [[engine_regs]] tables of that engine (the
// int4 engine's at the configuration's SparseEnable where any are), piecewise
// linear in the units between the two nearest unit counts mapped at a stage
// count, then piecewise linear in the stages between the two nearest stage
// counts mapped (piecewise_linear); the idle pJ per flip-flop and the
// dynamic pJ per issued MAC, the mean of the engine's tables that measured
// them (the idle figure, where the engine has none, the mean of every
// engine's, and where none has one the output skid's [[glue]] idle figure
// a flip-flop: the same cells with their load enables, inputs held).
struct EngineRegs {
  bool found = false;        // the data file has tables of the engine
  bool exact = false;        // one of them is at these units and stages
  double flip_flops = 0;
  double idle_pj_per_flip_flop = 0;
  bool idle_own = false;     // measured on this engine (else every engine's mean)
  double dynamic_pj_per_issued_mac = 0;
  bool dynamic_priced = false;
  // The data toggles ([[engine_regs_toggles]]: the engine's own table).
  double toggles_per_issued_mac = 0;
  double pj_per_toggle = 0;
  bool toggles_priced = false;
};
EngineRegs engine_regs_figures(ActivityEngine engine, int units, int stages, int sparse);

// An engine's logic around its units, busy: the engine's [[engine_glue]]
// table (the last of the engine's), its pJ per issued MAC taken at any
// setting (exact: the table's units, stages and, int4, SparseEnable).
struct EngineGlue {
  bool found = false;
  bool exact = false;
  double dynamic_pj_per_issued_mac = 0;
};
EngineGlue engine_glue_figures(ActivityEngine engine, int units, int stages, int sparse);

// y at x on the line through the points (sorted by x or not): between the
// two that bracket x, beyond them the slope of the two nearest ends; one
// point: its y; none: 0. Points of equal x are averaged first.
double piecewise_linear(std::vector<std::pair<double, double>> points, double x);

struct RouterEnergy {
  bool measured = false;  // the data file has router energies (else pj is 0)
  double pj = 0;
  uint64_t words = 0;                // Activity::router_words
  double width = 0;                  // (WordsPerCycle + DWordsPerCycle) / 2
  double idle_pj_per_cycle = 0;      // at `width`
  double dynamic_pj_per_word = 0;    // (busy - idle) pJ per cycle / width
};

// A router point measured with energy: its widths, busy and idle pJ a cycle.
struct RouterEnergyPoint {
  int words_per_cycle = 0;
  int d_words_per_cycle = 0;
  double busy_pj_per_cycle = 0;
  double idle_pj_per_cycle = 0;
};

// The router's busy and idle pJ a cycle at mean width `width`: piecewise
// linear in the mean width between the data file's points
// (piecewise_linear: beyond the narrowest and the widest, the slope of the
// two nearest). False if it has none. The one statement of the router's
// energy rule (the Python module's router_figures is this function).
bool router_figures(double width, double& busy_pj_per_cycle, double& idle_pj_per_cycle);
// The same rule over the points given instead of the data file's (a point
// held out: the validation's check of the rule on a point it did not use).
bool router_figures(const std::vector<RouterEnergyPoint>& points, double width,
                    double& busy_pj_per_cycle, double& idle_pj_per_cycle);

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
