// The co-simulation interface, in the manner of Ibex's dv/cosim/cosim.h: a
// reference behind an abstract class that any design's testbench drives.
// An instruction goes in (issue); the reference computes its D and the
// cycle at which the design must deliver it, from the handshakes the
// testbench reports cycle by cycle (datapath_accept, datapath_backpressure,
// datapath_result); the D that reached the lanes comes back in (retire) and
// is checked. A rule the testbench checks itself (a protocol rule) is
// reported through violation() so that every error names its case.
//
// The steps are the warp front-end's checker interface (FrontEndChecker,
// systemc/frontend_hooks.h). No SystemC here: the front-end drives it from
// its SystemC process, and a C++ test (tests/test_cosim.cpp) by hand.
//
// make_golden_cosim() gives the golden model's implementation
// (golden_cosim.h): D from golden_execute, the cycles from the timing model
// (timing_model.h: the datapath's pipelines and output skid register, the
// formulas of model/timing.h), the D compared by d_check.h.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "frontend_hooks.h"
#include "tcu/activity.h"
#include "tcu/golden.h"
#include "tcu/timing.h"

namespace tcu {

// What the scoreboard checks. kCycles: every D and every cycle the timing
// formulas predict (accept intervals, datapath latency through the skid
// register, whole-instruction latency). kResults: every D, in issue order,
// at any latency (a datapath of one's own whose timing is not ours:
// `tcu run --check results`); the protocol rules hold in both.
enum class CheckMode { kCycles, kResults };
// "cycles", "results"; false if unknown.
bool parse_check_mode(const std::string& name, CheckMode* mode);
const char* to_string(CheckMode mode);

class Cosim : public FrontEndChecker {
 public:
  // The D the reference expects of an issued instruction.
  virtual const Fragment& expected_d(uint64_t tag) const = 0;

  // What the reference predicts of the datapath's activity counters so far
  // (the edges its pipelines held, each engine's busy edges); none where the
  // reference has no timing (CheckMode::kResults).
  virtual std::optional<ReferenceActivity> reference_activity() const { return std::nullopt; }

  virtual uint64_t checked() const = 0;  // instructions retired
  virtual uint64_t errors() const = 0;
  // The error messages so far (the first 100), cleared.
  virtual std::vector<std::string> take_errors() = 0;
};

std::unique_ptr<Cosim> make_golden_cosim(const DatapathConfig& datapath,
                                         const FrontEndConfig& front_end,
                                         CheckMode mode = CheckMode::kCycles);

}  // namespace tcu
