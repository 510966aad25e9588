// `tcu timing`: a configuration's modelled latency and issue interval per
// family beside the NVIDIA A100's (sm_80) figures and their sources
// (tcu/reference_timing.h). Reads the configuration's parameters only: no
// Verilated model is needed.
#pragma once

#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "tcu/timing.h"

namespace tcu {

struct TimingOptions {
  std::string config = "default";
  DatapathConfig datapath;  // the configuration's parameters
  bool json = false;        // one JSON document instead of the table
  // Exit kExitMismatch unless the configuration keeps every figure the a100
  // preset claims (latency within one cycle of NAK's, interval equal).
  bool check = false;
};

// Prints the comparison; returns an ExitCode.
int timing(const TimingOptions& options, std::ostream& out);

}  // namespace tcu
