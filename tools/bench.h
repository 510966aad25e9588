// `tcu bench`: simulation speed, one run, one core, a table per family.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "tcu/timing.h"

namespace tcu {

struct BenchOptions {
  std::string config = "default";  // RTL datapath configuration
  double seconds = 1.0;            // wall time per measurement
  // Measure the process's CPU time instead of wall time: on a machine that
  // other processes share, their time slices then lower no figure.
  bool cpu_time = false;
  // Each measurement is the best of this many rounds (seconds / rounds
  // each; a family's golden, raw, stack and run rounds take turns), so that
  // another process's bursts lower no figure.
  int rounds = 5;
  bool json = false;               // one JSON document instead of the table
  bool rtl = true;                 // measure the RTL (when built in)
  // The co-verification stack's register file (rf_regs_per_cycle at most
  // the configuration's WordsPerCycle; tcu bench defaults it to that).
  FrontEndConfig front_end;
  // Only the families whose name contains one of these (all when empty).
  std::vector<std::string> families;
};

// Returns an ExitCode.
int bench(const BenchOptions& options, std::ostream& out);

}  // namespace tcu
