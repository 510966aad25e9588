// `tcu bench`: simulation speed, one run, one core, a table per family.
#pragma once

#include <ostream>
#include <string>

#include "tcu/timing.h"

namespace tcu {

struct BenchOptions {
  std::string config = "default";  // RTL datapath configuration
  double seconds = 1.0;            // wall time per measurement
  bool json = false;               // one JSON document instead of the table
  bool rtl = true;                 // measure the RTL (when built in)
  // The co-verification stack's register file: measured at front_end, then
  // with rf_regs_per_cycle 4096 (operands in one cycle where the banks allow).
  FrontEndConfig front_end;
};

// Returns an ExitCode.
int bench(const BenchOptions& options, std::ostream& out);

}  // namespace tcu
