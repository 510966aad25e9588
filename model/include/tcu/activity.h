// The RTL's activity counters (rtl/tcu_activity.sv), as read at the end of a
// run, and the figures derived from them: MAC utilization (and, in
// tcu/energy.h, the energy estimate in pJ). docs/architecture.md ("Activity
// counters") defines each counter.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tcu/timing.h"

namespace tcu {

// The datapath's engines, in the order the counters are reported.
enum class ActivityEngine { kInt4, kE2m1, kF16, kF64 };
constexpr int kActivityEngines = 4;
const char* to_string(ActivityEngine engine);
// The engine a family runs on (int4 dense and sparse share one).
ActivityEngine activity_engine(Family family);
// A family that runs on `engine` (for the engine's peak: int4 dense).
Family engine_family(ActivityEngine engine);

// One engine's counters. Every cycle is exactly one of busy, idle, gated.
struct EngineActivity {
  uint64_t busy = 0;     // an instruction of the engine in flight (accept to D leaving the pipes)
  uint64_t idle = 0;     // not busy, its clock running (the linger after its last instruction)
  uint64_t stalled = 0;  // busy while the pipelines hold (output skid full, next D waiting)
  uint64_t gated = 0;    // its clock off (every cycle, for an engine not built)
  uint64_t macs = 0;     // products issued to its units (tcu::issued_macs per instruction)
};

struct Activity {
  uint64_t cycles = 0;  // clock cycles since reset
  std::array<EngineActivity, kActivityEngines> engines{};
  // 32-bit register words through the operand router: each instruction's
  // source_words + dest_words (tcu/timing.h). Not an RTL counter: the
  // words of the instructions a run issued (the energy estimate prices them).
  uint64_t router_words = 0;

  EngineActivity& operator[](ActivityEngine e) { return engines[size_t(e)]; }
  const EngineActivity& operator[](ActivityEngine e) const { return engines[size_t(e)]; }
  // Sums (runs in several processes) and differences (a part of a run).
  Activity& operator+=(const Activity& other);
  Activity operator-(const Activity& other) const;
};

// The register words one instruction moves through the operand router:
// source_words + dest_words (tcu/timing.h).
uint64_t router_words(const Instr& instr);

// MACs / (the engine's peak MACs per cycle x cycles): 1.0 is every unit
// busy with a useful slice in every cycle.
double mac_utilization(const Activity& activity, const DatapathConfig& config,
                       ActivityEngine engine);

// What a run issued to one engine: its instructions and their MACs
// (tcu::issued_macs each).
struct EngineIssue {
  uint64_t instructions = 0;
  uint64_t macs = 0;
};
using RunIssue = std::array<EngineIssue, kActivityEngines>;

// What a timed reference (the co-verification's timing model, which follows
// the handshakes edge by edge) predicts of the counters.
struct ReferenceActivity {
  // The edges at which the pipelines held: the stalled counters' sum (a
  // held pipeline's D belongs to the one busy engine: the drain rule).
  uint64_t held_edges = 0;
  // The edges at which out_ready was low: back-pressure from the write-back
  // (a configuration whose engines finish D faster than DWordsPerCycle
  // writes it back, as a100's do) even where the run adds none.
  uint64_t out_ready_low_edges = 0;
  // Per engine, the edges from an instruction's accept to its D leaving the
  // pipelines, each counted once: its busy counter.
  std::array<uint64_t, kActivityEngines> busy{};
};

// One disagreement: the engine whose counters it is about (none: the sum
// over the engines), and what disagrees.
struct ActivityDisagreement {
  std::optional<ActivityEngine> engine;
  std::string text;  // "f16: busy 5 cycles for 6 instructions"
};

// The counters read after a run from reset against what it issued: each
// engine's cycles counted once (busy + idle + gated = cycles), its MACs the
// issued ones, an engine without instructions never busy or idle, one with
// instructions busy at least a cycle per instruction (an engine accepts at
// most one a cycle), stalled cycles among the busy ones and none without
// back-pressure (the run's, or out_ready low at an edge of the reference's);
// with a reference, each engine's busy cycles and the
// stalled sum exactly as it predicts. `tcu run` checks them after every
// run: a wrong counter or clock-gate enable fails the run (scripts/mutate.sh
// found the regression blind to them).
std::vector<ActivityDisagreement> activity_disagreements(
    const Activity& counters, const RunIssue& issued, bool backpressure = true,
    const std::optional<ReferenceActivity>& reference = std::nullopt);

// The energy estimate in pJ from these counters: tcu/energy.h.

}  // namespace tcu
