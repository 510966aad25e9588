// `tcu bench`: simulation speed, one run, one core, a table per family.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace tcu {

struct BenchOptions {
  std::string config = "default";  // RTL datapath configuration
  double seconds = 1.0;            // wall time per measurement
  bool json = false;               // one JSON document instead of the table
  bool rtl = true;                 // measure the RTL (when built in)
  // Only the families whose name contains one of these (all when empty).
  std::vector<std::string> families;
};

// Returns an ExitCode.
int bench(const BenchOptions& options, std::ostream& out);

}  // namespace tcu
