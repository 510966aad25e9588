// `tcu replay`: recompute recorded vectors with an engine and compare.
#pragma once

#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "report.h"
#include "tcu/coverage.h"
#include "tcu/engine.h"

namespace tcu {

struct ReplayOptions {
  int max_details = 5;  // mismatching registers printed in detail
  // Every stride-th case of each variant of a file is replayed (its first,
  // 1 + stride-th, ...); 1: every case. Every variant keeps its first case.
  int stride = 1;
  // The command and engine options that re-run a file ("tcu replay --engine
  // rtl --config small --rf-bandwidth 32").
  std::string rerun_prefix = "tcu replay";
  // When set: why the engine cannot run an instruction at all (empty if it
  // can). The files are scanned first, and a case it refuses stops the
  // replay before anything runs (kExitUsage).
  std::function<std::string(const Instr&)> refuse;
  // Functional coverage of the cases the engine ran (`--coverage`), or null.
  FunctionalCoverage* coverage = nullptr;
};

// Returns an ExitCode. Prints a line per file and instruction variant with
// its pass count, the first mismatches, and "N passed, M failed"; fills
// report->variants, wall_seconds and exit_code.
int replay(Engine& engine, const std::vector<std::string>& files, const ReplayOptions& options,
           std::ostream& out, std::ostream& err, Report* report);

}  // namespace tcu
