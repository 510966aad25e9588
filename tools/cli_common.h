// The options and checks that several subcommands of tcu share: the engine
// (--engine, --config, the register file, --check, the stimulus), the
// reports (--report, --junit) and coverage (--coverage).
#pragma once

#include <CLI/CLI.hpp>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "cosim.h"
#include "coverage.h"
#include "report.h"
#include "tcu/engine.h"
#include "tcu/instr.h"
#include "tcu/timing.h"

namespace tcu::cli {

struct EngineOptions {
  std::string name = "golden";
  std::string config = "default";
  std::string trace;
  // The register file (RTL); check_engine_options sets rf_regs_per_cycle,
  // when --rf-bandwidth is not given, to the configuration's WordsPerCycle.
  tcu::FrontEndConfig front_end;
  CLI::Option* rf_bandwidth_option = nullptr;
  // run only: out_ready held low with this probability each cycle (seeded
  // with --seed), and a fault to inject.
  std::string backpressure_text = "0";
  double backpressure = 0;
  uint64_t seed = 1;
  std::string fault;
  // What the scoreboard checks: "cycles" or "results"; empty: results for a
  // datapath of one's own (TCU_BYO_RTL), else cycles.
  std::string check;
  // The options that only the RTL engine takes.
  std::vector<CLI::Option*> rtl_only;
};

struct ReportOptions {
  std::string json_path, junit_path;
};

// What every report's header starts with: the command line and the build.
struct Invocation {
  std::string program;
  std::vector<std::string> argv;
};

// --coverage DIR (run, replay, gemm).
struct CoverageOptions {
  std::string dir;  // the report's directory; empty: no coverage
  std::string waivers;  // empty: the built-in waivers (spec/coverage_waivers.txt)
};

// The RTL configurations this tcu was built with.
std::vector<std::string> config_names();
// Every configuration whose parameters this tcu knows: the spec's named ones
// and, with the RTL, the ones it was built with (one's own, byo).
std::vector<std::pair<std::string, tcu::DatapathConfig>> known_configurations();

// What the RTL engine's scoreboard checks (--check, or its default).
tcu::CheckMode check_mode(const EngineOptions& opt);
std::unique_ptr<tcu::Engine> make_engine(const EngineOptions& opt);

// The register file's options (tcu/register_file.h), appended to `added`;
// returns --rf-bandwidth.
CLI::Option* add_front_end_options(CLI::App* cmd, tcu::FrontEndConfig* fe,
                                   std::vector<CLI::Option*>* added);
// The options that repeat `fe` on a command line: --rf-bandwidth always, the
// bank options where they differ from the defaults.
std::vector<std::string> front_end_args(const tcu::FrontEndConfig& fe);
// The engine's options on a command line (a rerun's, a child's).
std::vector<std::string> engine_args(const EngineOptions& engine);
// " a b c" of {"a", "b", "c"}.
std::string joined(const std::vector<std::string>& args);

// --inject-fault's help: every fault by name, with what it injects.
std::string fault_option_help();
void add_engine_options(CLI::App* cmd, EngineOptions* opt, const char* default_engine,
                        const std::vector<std::string>& configs = config_names());
// --backpressure and --inject-fault (run and gemm, RTL).
void add_stimulus_options(CLI::App* cmd, EngineOptions* opt);
void add_report_options(CLI::App* cmd, ReportOptions* opt);
void add_coverage_options(CLI::App* cmd, CoverageOptions* opt, const std::string& what);

// The register-file bandwidth the option `given` leaves open becomes the
// configuration's WordsPerCycle; with `check`, more than the router takes is
// refused. Returns an exit code, or -1 if usable.
int resolve_rf_bandwidth(const tcu::DatapathConfig& dp, const std::string& config,
                         const CLI::Option* given, bool check, tcu::FrontEndConfig* fe);
// Parses a probability; false unless 0 <= P < 1 (or P <= 1 with `closed`).
bool parse_probability(const std::string& text, bool closed, double* probability);
// Parses --backpressure's text; false unless 0 <= P < 1.
bool parse_backpressure(const std::string& text, double* probability);
// --backpressure, and --inject-fault against --check; returns an exit code
// or -1.
int check_stimulus_options(EngineOptions& opt);
// Returns an exit code, or -1 if the engine options are usable. Sets the
// register-file bandwidth the options leave open to the router's
// WordsPerCycle.
int check_engine_options(EngineOptions& opt);
// The RTL configuration's parameters, for the activity figures (the
// defaults when the RTL is not built in or the engine is golden).
tcu::DatapathConfig engine_datapath(const EngineOptions& opt);
// Why the RTL engine of `opt` cannot run `instr` at all (its configuration
// leaves out the instruction's engine), or empty; always empty for golden.
std::string refused_by_config(const EngineOptions& opt, const tcu::Instr& instr);

// Fails early, before a long run, if a report file cannot be written.
int check_report_paths(const ReportOptions& opt);
int write_reports(const ReportOptions& opt, const tcu::Report& report);
nlohmann::ordered_json configuration_json(const EngineOptions& opt);
nlohmann::ordered_json report_header(const Invocation& call, const nlohmann::json& seed,
                                     const EngineOptions& engine);
// The RTL engine's stimulus in a report's options.
void add_stimulus_json(const EngineOptions& engine, nlohmann::ordered_json* options);
// After a run with --inject-fault: exit 2 if no instruction could take the
// fault (nothing was tested), 1 if it went in and no check caught it, else
// `code`. `what` names the run ("run", "GEMM"); `hint` follows the first.
int fault_outcome(const EngineOptions& options, const tcu::Engine& engine, int code,
                  const std::string& what, const std::string& hint);

// Makes `dir` a writable directory (with `clear_parts`, empty of an earlier
// run's parts) and checks `waivers` exists, before anything runs. Returns an
// exit code or -1.
int prepare_coverage_dir(const std::string& dir, const std::string& waivers, bool clear_parts);
// A single process's coverage (replay, gemm, run --jobs 1): functional.json
// and the engine's RTL code coverage (if it has some) written to opt.dir,
// the waivers applied, the HTML report and the summary. Returns `code`, or
// kExitUsage where writing the report failed.
int write_coverage(const CoverageOptions& opt, const tcu::FunctionalCoverage& coverage,
                   tcu::Engine& engine, int code);

}  // namespace tcu::cli
