// `tcu explore`: runs tools/explore.py (the sweep driver: per-point builds,
// runs, Yosys, CSV and plots) with the project's Python environment.
#pragma once

#include <string>
#include <vector>

namespace tcu {

// Replaces the process with `python tools/explore.py args...`; returns an
// exit code only when that cannot start (after printing why).
int launch_explore(const std::string& program_name, const std::vector<std::string>& args);

}  // namespace tcu
