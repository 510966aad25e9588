// `tcu run --coverage DIR`: the functional coverage of the run (the golden
// model's bins, tcu/coverage.h) and, in a build with TCU_COVERAGE=ON, the
// RTL's code coverage (Verilator --coverage: line, toggle and the RTL's
// cover points), written to DIR as functional.json, rtl.dat (Verilator's
// coverage data), rtl.info (lcov) and html/index.html. `--jobs N`: each
// child writes a part (DIR/parts/...), the parent merges them.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "tcu/coverage.h"
#include "tcu/engine.h"

namespace tcu {

// Samples what an engine ran (`tcu run`, `replay`, `gemm` with --coverage):
// each instruction's bins, the order of the stream across calls, and, from
// an engine with a register file (RTL), each instruction's register-file
// traffic at the settings the engine ran.
class CoverageSampler {
 public:
  explicit CoverageSampler(FunctionalCoverage* coverage) : coverage_(coverage) {}
  // After engine.execute_stream(items) returned (every D).
  void sample(const Engine& engine, const std::vector<StreamItem>& items);

 private:
  FunctionalCoverage* coverage_;
  std::optional<Instr> last_;  // the stream's previous instruction
};

// functional.json: {"bins": [{"group", "name", "kind", "hits", "waiver"}...]}.
void write_functional_json(const std::string& path, const FunctionalCoverage& coverage);
// Adds a functional.json's hits to `coverage`; throws std::runtime_error
// naming the file and what is wrong.
void add_functional_json(const std::string& path, FunctionalCoverage* coverage);
// The waivers this tool was built with: spec/coverage_waivers.txt's text,
// compiled in (generated/coverage_waivers.cpp), for the RTL compiled in.
extern const char* const kBuiltInWaiversName;
extern const char* const kBuiltInWaivers;

// Applies a waiver file (an empty path: the built-in waivers): lines "GROUP | BIN | REASON" ('#' comments, blank
// lines; the RTL's line waivers are read by read_line_waivers); GROUP "*" is every group that has the bin, GROUP "rtl" the RTL's
// cover points (checked only when `rtl_bins`: a coverage build's data is
// there). Throws std::runtime_error naming the file, the line and the reason.
void apply_waivers(const std::string& path, FunctionalCoverage* coverage, bool rtl_bins = true);

// The RTL's line waivers, lines "rtl/FILE.sv:FIRST[-LAST] | REASON" of the
// same file (an empty path: the built-in waivers): uncovered lines of those ranges count as waived in the report.
// Throws std::runtime_error naming the file and line of a malformed one.
struct LineWaiver {
  std::string file;  // "rtl/tcu_fma.sv"
  int first = 0, last = 0;
  std::string reason, where;  // where: "FILE:LINE" of the waiver
};
std::vector<LineWaiver> read_line_waivers(const std::string& path);

// A part of a run's coverage (one process): functional.json and, where the
// RTL was built with coverage, rtl.dat. `rtl_written` says whether it was.
void write_coverage_part(const std::string& dir, const FunctionalCoverage& coverage,
                         bool rtl_written);

// Merges the parts into `dir` (the parts may be `dir` itself), applies the
// waivers, writes functional.json, rtl.info and the HTML report, and prints
// the summary. Returns 0, or 1 with a message on `err` when a tool fails.
int finish_coverage(const std::string& dir, const std::vector<std::string>& parts,
                    const std::string& waivers, std::ostream& out, std::ostream& err);

}  // namespace tcu
