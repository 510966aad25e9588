// `tcu gemm`: a whole GEMM D = A*B + C tiled into one mma variant, the
// accumulators chained over the k-steps, issued as W warps of a compiled
// kernel would issue it, checked against an independent matrix product, with
// cycles, MAC utilization and an estimate of where the cycles went.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

#include "report.h"
#include "tcu/coverage.h"
#include "tcu/engine.h"
#include "tcu/timing.h"

namespace tcu {

struct GemmOptions {
  Instr instr;
  int m = 0, n = 0, k = 0;  // the GEMM's shape: A is m x k, B k x n, C and D m x n
  int warps = 1;
  uint64_t seed = 1;
  // What the timing estimate assumes; the RTL engine's own configuration.
  DatapathConfig datapath;
  FrontEndConfig front_end;
  double backpressure = 0;  // the RTL engine's, so the estimate can name it
  int max_details = 5;      // mismatching elements printed
  // --estimate: the timing estimate alone, nothing run (no instruction limit).
  bool estimate_only = false;
  std::string compare;  // --compare: a GPU whose peak rate to compare with ("a100")
  // Functional coverage of the GEMM's instructions (`--coverage`), or null.
  FunctionalCoverage* coverage = nullptr;
};

// Why the options cannot be run, starting with the option at fault
// ("--m 30: ..."); empty when they can.
std::string gemm_options_error(const GemmOptions& options);

// Runs the GEMM through `engine` (one execute_stream per k-step), checks D,
// prints the summary. Fills report->variants (one entry: D elements passed
// and failed, cycles) and *details (shape, cycles, utilization, estimate).
// Returns an ExitCode.
int run_gemm(Engine& engine, const GemmOptions& options, std::ostream& out, Report* report,
             nlohmann::ordered_json* details);

// --estimate: prints the shape, the timing estimate and its utilization (and
// the --compare section) without running anything; fills *details. Returns
// an ExitCode.
int estimate_gemm(const GemmOptions& options, std::ostream& out, nlohmann::ordered_json* details);

}  // namespace tcu
