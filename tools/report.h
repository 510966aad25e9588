// Results of `tcu run` and `tcu replay` per variant, as printed, as a JSON
// report (--report) and as JUnit XML (--junit). `run --jobs N` merges its
// children's JSON reports through the same structures.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "tcu/activity.h"

namespace tcu {

// One case of `tcu run --record-cases`: its index, whether it passed, and a
// digest of the D the engine returned (empty when it returned none: a hang).
struct CaseRecord {
  uint64_t index = 0;
  bool ok = false;
  std::string digest;
  bool operator==(const CaseRecord& other) const {
    return index == other.index && ok == other.ok && digest == other.digest;
  }
};

// One instruction variant (of one vector file, for replay).
struct VariantResult {
  std::string ptx;
  std::string file;  // replay only
  uint64_t passed = 0, failed = 0;
  uint64_t engine_errors = 0;  // timing or scoreboard checks of the engine
  uint64_t cycles = 0;         // simulated cycles (0 for the golden engine)
  // Instructions issued; 0 means one per case (run, replay). tcu gemm sets
  // it: its cases are D elements.
  uint64_t instructions = 0;
  double seconds = 0;                // time spent in the engine
  std::vector<std::string> details;  // mismatch and engine-error lines, capped
  // run --record-cases: every case of the variant, in index order.
  std::optional<std::vector<CaseRecord>> cases;
  bool ok() const { return failed == 0 && engine_errors == 0; }
  uint64_t instruction_count() const { return instructions ? instructions : passed + failed; }
};

// The multiply-accumulates of a variant's instructions, as the model states
// them once: issued (tcu::issued_macs, what the dot units compute and the
// activity counters count) and dense-equivalent (Instr::macs, m*n*k times the
// four quad pairs of m8n8k4 .f16; a 2:4 sparse instruction issues half).
struct MacCounts {
  uint64_t issued = 0, dense = 0;
};
// Per instruction of a PTX spelling; nullopt if it does not parse.
std::optional<MacCounts> instruction_macs(const std::string& ptx);

struct Report {
  std::string command;  // "run" or "replay"
  std::string engine;
  // Header: seed, configuration, options and version, written first.
  nlohmann::ordered_json header;
  std::vector<VariantResult> variants;
  // The RTL datapath's activity counters over the command (an RTL engine's
  // only), and the configuration they are relative to.
  std::optional<Activity> activity;
  DatapathConfig datapath;
  double wall_seconds = 0;
  int exit_code = 0;

  uint64_t passed() const;
  uint64_t failed() const;
  uint64_t engine_errors() const;
};

nlohmann::ordered_json to_json(const Report& report);
// Throws std::runtime_error naming the field for a report it cannot read.
Report report_from_json(const nlohmann::json& json);

// Write the files; throw std::runtime_error naming the file if they cannot.
void write_json_report(const Report& report, const std::string& path);
void write_junit_report(const Report& report, const std::string& path);

// The activity counters as a table (engine, busy, idle, stalled, gated,
// MACs, MAC utilization, the energy estimate in pJ of tcu/energy.h), and as
// JSON (the counters; the energy estimate is energy_json, the report's
// "energy": pj, pj_per_issued_mac, library, per_engine).
void print_activity(std::ostream& out, const Activity& activity, const DatapathConfig& datapath,
                    const std::string& indent = "");
nlohmann::ordered_json activity_json(const Activity& activity, const DatapathConfig& datapath);
nlohmann::ordered_json energy_json(const Activity& activity, const DatapathConfig& datapath);
// Throws nlohmann::json::exception for a malformed one.
Activity activity_from_json(const nlohmann::json& json);

// The version header shared by --version and the reports.
nlohmann::ordered_json version_json();

}  // namespace tcu
