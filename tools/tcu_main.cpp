// The tcu command-line tool: replay recorded vectors, run random traffic.
#include <CLI/CLI.hpp>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "bench.h"
#include "cli_reference.h"
#include "cosim.h"
#include "coverage.h"
#include "exit_codes.h"
#include "explore_launch.h"
#include "fault.h"
#include "gemm.h"
#include "gemm_compare.h"
#include "merge.h"
#include "parallel.h"
#include "replay.h"
#include "report.h"
#include "run.h"
#include "tcu/engine.h"
#include "tcu/instr.h"
#include "tcu/timing.h"
#include "timing.h"
#include "version.h"
#ifdef TCU_HAVE_RTL
#include <systemc>

#include "datapath_model.h"
#include "rtl_engine.h"
#endif

namespace {

// The RTL configurations this tcu was built with.
std::vector<std::string> config_names() {
  std::vector<std::string> names;
#ifdef TCU_HAVE_RTL
  for (const auto& entry : tcu::datapath_configs()) names.push_back(entry.first);
#else
  names = {"default", "small"};
#endif
  return names;
}

// Every configuration whose parameters this tcu knows: the spec's named ones
// and, with the RTL, the ones it was built with (one's own, byo).
std::vector<std::pair<std::string, tcu::DatapathConfig>> known_configurations() {
  std::vector<std::pair<std::string, tcu::DatapathConfig>> known = tcu::spec_configurations();
#ifdef TCU_HAVE_RTL
  for (const auto& entry : tcu::datapath_configs()) {
    bool listed = false;
    for (const auto& spec_entry : known) listed |= spec_entry.first == entry.first;
    if (!listed) known.push_back(entry);
  }
#endif
  return known;
}

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

// What the RTL engine's scoreboard checks (--check, or its default).
tcu::CheckMode check_mode(const EngineOptions& opt) {
  tcu::CheckMode mode = tcu::CheckMode::kCycles;
  if (!opt.check.empty()) {
    tcu::parse_check_mode(opt.check, &mode);
    return mode;
  }
#ifdef TCU_HAVE_RTL
  if (opt.name == "rtl" && tcu::datapath_is_own(opt.config)) mode = tcu::CheckMode::kResults;
#endif
  return mode;
}

std::unique_ptr<tcu::Engine> make_engine(const EngineOptions& opt) {
  if (opt.name == "golden") return std::make_unique<tcu::GoldenEngine>();
#ifdef TCU_HAVE_RTL
  if (opt.name == "rtl") {
    tcu::RtlOptions rtl;
    rtl.config = opt.config;
    rtl.trace = opt.trace;
    rtl.front_end = opt.front_end;
    rtl.stimulus.backpressure = opt.backpressure;
    rtl.stimulus.seed = opt.seed;
    rtl.stimulus.check = check_mode(opt);
    if (!opt.fault.empty()) tcu::parse_fault(opt.fault, &rtl.stimulus.fault);
    return tcu::make_rtl_engine(rtl);
  }
#endif
  return nullptr;
}

// The register file's options (tcu/register_file.h), appended to `added`;
// returns --rf-bandwidth.
CLI::Option* add_front_end_options(CLI::App* cmd, tcu::FrontEndConfig* fe,
                                   std::vector<CLI::Option*>* added) {
  CLI::Option* bandwidth =
      cmd->add_option("--rf-bandwidth", fe->rf_regs_per_cycle,
                      "register-file words the front-end moves per cycle (RTL; "
                      "default and at most the configuration's WordsPerCycle)")
          ->check(CLI::Range(1, tcu::kMaxRfRegsPerCycle));
  added->push_back(bandwidth);
  added->push_back(
      cmd->add_option("--rf-banks", fe->rf_banks, "register-file banks; register i in bank i % B")
          ->check(CLI::Range(1, tcu::kMaxRfBanks)));
  added->push_back(cmd->add_option("--rf-read-ports", fe->rf_read_ports,
                                   "register reads per bank per cycle, 32 lanes each")
                       ->check(CLI::Range(1, tcu::kMaxRfReadPorts)));
  added->push_back(cmd->add_option("--rf-write-ports", fe->rf_write_ports,
                                   "register writes per bank per cycle, 32 lanes each")
                       ->check(CLI::Range(1, tcu::kMaxRfWritePorts)));
  return bandwidth;
}

// The options that repeat `fe` on a command line: --rf-bandwidth always, the
// bank options where they differ from the defaults.
std::vector<std::string> front_end_args(const tcu::FrontEndConfig& fe) {
  std::vector<std::string> args = {"--rf-bandwidth", std::to_string(fe.rf_regs_per_cycle)};
  const tcu::FrontEndConfig defaults;
  for (auto [name, value, default_value] :
       {std::tuple{"--rf-banks", fe.rf_banks, defaults.rf_banks},
        {"--rf-read-ports", fe.rf_read_ports, defaults.rf_read_ports},
        {"--rf-write-ports", fe.rf_write_ports, defaults.rf_write_ports}})
    if (value != default_value) args.insert(args.end(), {name, std::to_string(value)});
  return args;
}

std::string joined(const std::vector<std::string>& args) {
  std::string text;
  for (const std::string& arg : args) text += " " + arg;
  return text;
}

// --inject-fault's help: every fault by name, with what it injects.
std::string fault_option_help() {
  std::string text = "inject one fault that the checks must catch (RTL):";
  for (const tcu::FaultInfo& info : tcu::fault_table())
    text += std::string(&info == &tcu::fault_table().front() ? " " : "; ") + info.name + " (" +
            info.description + ")";
  return text;
}

void add_engine_options(CLI::App* cmd, EngineOptions* opt, const char* default_engine,
                        const std::vector<std::string>& configs = config_names()) {
  opt->name = default_engine;
  cmd->add_option("--engine", opt->name, "golden or rtl")->check(CLI::IsMember({"golden", "rtl"}));
  opt->rtl_only.push_back(cmd->add_option("--config", opt->config, "RTL datapath configuration")
                              ->check(CLI::IsMember(configs)));
  opt->rtl_only.push_back(
      cmd->add_option("--trace", opt->trace, "write an FST waveform of the RTL engine"));
  opt->rf_bandwidth_option = add_front_end_options(cmd, &opt->front_end, &opt->rtl_only);
  opt->rtl_only.push_back(
      cmd->add_option("--check", opt->check,
                      "what the scoreboard checks (RTL): cycles (every D and every cycle the "
                      "timing formulas predict) or results (every D, in issue order, at any "
                      "latency); default: results for a datapath of one's own (TCU_BYO_RTL), "
                      "else cycles")
          ->check(CLI::IsMember({"cycles", "results"})));
}

// --backpressure and --inject-fault (run and gemm, RTL).
void add_stimulus_options(CLI::App* cmd, EngineOptions* opt) {
  opt->rtl_only.push_back(
      cmd->add_option("--backpressure", opt->backpressure_text,
                      "probability 0 <= P < 1 that out_ready is low in a cycle (RTL)"));
  opt->rtl_only.push_back(cmd->add_option("--inject-fault", opt->fault, fault_option_help())
                              ->check(CLI::IsMember(tcu::fault_names())));
}

void add_report_options(CLI::App* cmd, ReportOptions* opt) {
  cmd->add_option("--report", opt->json_path,
                  "write a JSON report (seed, configuration, options, version, per-variant "
                  "results)");
  cmd->add_option("--junit", opt->junit_path, "write a JUnit XML report, a test case per variant");
}

tcu::DatapathConfig engine_datapath(const EngineOptions& opt);

// The register-file bandwidth the option `given` leaves open becomes the
// configuration's WordsPerCycle; with `check`, more than the router takes is
// refused. Returns an exit code, or -1 if usable.
int resolve_rf_bandwidth(const tcu::DatapathConfig& dp, const std::string& config,
                         const CLI::Option* given, bool check, tcu::FrontEndConfig* fe) {
  if (given && given->count() == 0) fe->rf_regs_per_cycle = dp.words_per_cycle;
  if (const std::string why = tcu::rf_bandwidth_error(dp, *fe); check && !why.empty()) {
    std::cerr << "error: " << why << " (configuration '" << config << "')\n";
    return tcu::kExitUsage;
  }
  return -1;
}

// Parses a probability; false unless 0 <= P < 1 (or P <= 1 with `closed`).
bool parse_probability(const std::string& text, bool closed, double* probability) {
  char* end = nullptr;
  *probability = std::strtod(text.c_str(), &end);
  return !text.empty() && *end == '\0' && *probability >= 0 &&
         (closed ? *probability <= 1 : *probability < 1);
}

// Parses --backpressure's text; false unless 0 <= P < 1.
bool parse_backpressure(const std::string& text, double* probability) {
  return parse_probability(text, false, probability);
}

// --backpressure, and --inject-fault against --check; returns an exit code
// or -1.
int check_stimulus_options(EngineOptions& opt) {
  if (!parse_backpressure(opt.backpressure_text, &opt.backpressure)) {
    std::cerr << "error: --backpressure " << opt.backpressure_text
              << ": expected a probability P with 0 <= P < 1\n";
    return tcu::kExitUsage;
  }
  tcu::Fault fault = tcu::Fault::kNone;
  if (!opt.fault.empty() && tcu::parse_fault(opt.fault, &fault) && tcu::fault_info(fault)->timing &&
      check_mode(opt) == tcu::CheckMode::kResults) {
    std::cerr << "error: --inject-fault " << opt.fault
              << ": only the cycle checks can catch it, and this run checks results only "
                 "(--check results"
              << (opt.check.empty() ? ", the default for a datapath of one's own" : "")
              << "); use --check cycles\n";
    return tcu::kExitUsage;
  }
  return -1;
}

// Returns an exit code, or -1 if the engine options are usable. Sets the
// register-file bandwidth the options leave open to the router's
// WordsPerCycle.
int check_engine_options(EngineOptions& opt) {
  // A bad value is named before whether its option applies to the engine.
  if (int code = check_stimulus_options(opt); code >= 0) return code;
  if (opt.name == "golden") {
    for (const CLI::Option* option : opt.rtl_only)
      if (option->count() > 0) {
        std::cerr << "error: " << option->get_name()
                  << " applies to --engine rtl only, not to --engine golden\n";
        return tcu::kExitUsage;
      }
  }
#ifndef TCU_HAVE_RTL
  if (opt.name == "rtl") {
    std::cerr << "error: --engine rtl: not built into this tcu (configured with "
                 "-DTCU_BUILD_RTL=OFF); use --engine golden\n";
    return tcu::kExitUsage;
  }
#endif
#ifdef TCU_HAVE_RTL
  if (opt.name == "rtl" && !opt.trace.empty() && !tcu::datapath_is_traced(opt.config)) {
    std::cerr << "error: --trace: configuration '" << opt.config
              << "' is built without waveform tracing (rtl/CMakeLists.txt says why); trace "
                 "another configuration\n";
    return tcu::kExitUsage;
  }
#endif
  return resolve_rf_bandwidth(engine_datapath(opt), opt.config, opt.rf_bandwidth_option,
                              opt.name == "rtl", &opt.front_end);
}

// The RTL configuration's parameters, for the activity figures (the
// defaults when the RTL is not built in or the engine is golden).
tcu::DatapathConfig engine_datapath(const EngineOptions& opt) {
#ifdef TCU_HAVE_RTL
  if (opt.name == "rtl")
    for (const auto& [name, config] : tcu::datapath_configs())
      if (name == opt.config) return config;
#endif
  (void)opt;
  return {};
}

// Why the RTL engine of `opt` cannot run `instr` at all (its configuration
// leaves out the instruction's engine), or empty; always empty for golden.
std::string refused_by_config(const EngineOptions& opt, const tcu::Instr& instr) {
  if (opt.name != "rtl") return "";
  return tcu::disabled_error(opt.config, engine_datapath(opt), instr);
}

// Fails early, before a long run, if a report file cannot be written.
int check_report_paths(const ReportOptions& opt) {
  for (auto [name, path] : {std::pair{"--report", &opt.json_path}, {"--junit", &opt.junit_path}}) {
    if (path->empty()) continue;
    std::ofstream probe(*path, std::ios::app);
    if (!probe) {
      std::cerr << "error: " << name << " " << *path << ": cannot write (" << std::strerror(errno)
                << ")\n";
      return tcu::kExitUsage;
    }
  }
  return -1;
}

int write_reports(const ReportOptions& opt, const tcu::Report& report) {
  try {
    if (!opt.json_path.empty()) tcu::write_json_report(report, opt.json_path);
    if (!opt.junit_path.empty()) tcu::write_junit_report(report, opt.junit_path);
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << "\n";
    return tcu::kExitInternal;
  }
  return report.exit_code;
}

nlohmann::ordered_json configuration_json(const EngineOptions& opt) {
  nlohmann::ordered_json config;
  config["engine"] = opt.name;
  if (opt.name == "rtl") {
    config["config"] = opt.config;
    const tcu::DatapathConfig dp = engine_datapath(opt);
    // Every parameter of spec/config.toml, by its RTL name.
    nlohmann::ordered_json parameters = nlohmann::ordered_json::object();
    for (const auto& [name, value] : tcu::datapath_parameters(engine_datapath(opt)))
      parameters[name] = value;
    config["parameters"] = parameters;
    config["rf_bandwidth"] = opt.front_end.rf_regs_per_cycle;
    config["rf_banks"] = opt.front_end.rf_banks;
    config["rf_read_ports"] = opt.front_end.rf_read_ports;
    config["rf_write_ports"] = opt.front_end.rf_write_ports;
    config["trace"] = opt.trace;
  }
  return config;
}

void print_version() {
  const tcu::BuildInfo& info = tcu::build_info();
  std::cout << "tcu " << info.version << " (git " << info.git_hash << ")\n"
            << "built with " << info.compiler << ", " << info.build_type << "\n";
  if (info.have_rtl) {
    std::cout << "engines: golden, rtl\n"
              << "Verilator " << info.verilator_version << "\n"
              << "SystemC " << tcu::systemc_version() << "\n"
              << "RTL configurations: " << tcu::rtl_configurations() << "\n";
  } else {
    std::cout << "engines: golden (built without the RTL: -DTCU_BUILD_RTL=OFF)\n";
  }
}

void print_list(bool plain) {
  const tcu::Family kFamilies[] = {tcu::Family::kInt4Dense, tcu::Family::kInt4Sparse,
                                   tcu::Family::kF16, tcu::Family::kF64, tcu::Family::kE2m1};
  for (tcu::Family family : kFamilies) {
    if (!plain) std::cout << tcu::to_string(family) << ":\n";
    for (const tcu::Instr& instr : tcu::all_variants()) {
      if (instr.family != family) continue;
      std::cout << (plain ? "" : "  ") << instr.ptx() << "\n";
      // The default scale vector may be left out.
      if (instr.family == tcu::Family::kE2m1 && !instr.mxf4nvf4 && instr.explicit_scale_vec) {
        tcu::Instr implicit = instr;
        implicit.explicit_scale_vec = false;
        std::cout << (plain ? "" : "  ") << implicit.ptx() << "\n";
      }
    }
  }
  if (plain) return;
  std::cout << "(a trailing ';' is accepted)\n";
#ifdef TCU_HAVE_RTL
  // The RTL configurations of this build (--config), and the families each
  // leaves out.
  std::cout << "RTL configurations (--config):\n";
  for (const auto& [name, config] : tcu::datapath_configs()) {
    std::cout << "  " << name << ":";
    std::string without;
    for (tcu::Family family : kFamilies)
      if (const char* param = tcu::disabled_by(config, family))
        without += std::string(without.empty() ? "" : ", ") + tcu::to_string(family) + " (" +
                   param + "=0)";
    std::cout << " int4 " << config.int4_macs_per_cycle << ", e2m1 " << config.e2m1_macs_per_cycle
              << " MACs/cycle; f16 " << config.f16_fmas_per_cycle << ", f64 "
              << config.f64_fmas_per_cycle << " FMAs/cycle; stages int " << config.int_stages
              << ", e2m1 " << config.e2m1_stages << ", fma " << config.fma_stages
              << "; operand router " << config.words_per_cycle << " words/cycle in, "
              << config.d_words_per_cycle << " out" << (config.gather_bypass ? "" : ", no bypass")
              << (config.synth_impl ? "; the units' synthesis implementations (SynthImpl=1)" : "");
    std::cout << (without.empty() ? "; every family" : "; without " + without) << "\n";
  }
#endif
}

// What every report's header starts with: the command line and the build.
struct Invocation {
  std::string program;
  std::vector<std::string> argv;
};

nlohmann::ordered_json report_header(const Invocation& call, const nlohmann::json& seed,
                                     const EngineOptions& engine) {
  nlohmann::ordered_json header;
  header["tcu_report"] = 1;
  header["seed"] = seed;
  header["configuration"] = configuration_json(engine);
  header["options"] = nlohmann::ordered_json::object();
  header["version"] = tcu::version_json();
  header["argv"] = call.argv;
  return header;
}

// The RTL engine's stimulus in a report's options.
void add_stimulus_json(const EngineOptions& engine, nlohmann::ordered_json* options) {
  if (engine.name != "rtl") return;
  (*options)["backpressure"] = engine.backpressure;
  (*options)["inject_fault"] = engine.fault;
  (*options)["check"] = tcu::to_string(check_mode(engine));
}

// After a run with --inject-fault: exit 2 if no instruction could take the
// fault (nothing was tested), 1 if it went in and no check caught it, else
// `code`. `what` names the run ("run", "GEMM"); `hint` follows the first.
int fault_outcome(const EngineOptions& options, const tcu::Engine& engine, int code,
                  const std::string& what, const std::string& hint) {
#ifdef TCU_HAVE_RTL
  if (options.fault.empty()) return code;
  if (!tcu::fault_injected(engine)) {
    std::cerr << "error: --inject-fault " << options.fault << ": no instruction of this " << what
              << " could take it" << hint << "; nothing was tested\n";
    return tcu::kExitUsage;
  }
  if (code == tcu::kExitOk) {
    std::cerr << "FAIL: --inject-fault " << options.fault
              << " was injected but no check caught it\n";
    return tcu::kExitMismatch;
  }
#endif
  (void)options, (void)engine, (void)what, (void)hint;
  return code;
}

// ---- --coverage DIR (run, replay, gemm) ----------------------------------------

struct CoverageOptions {
  std::string dir;  // the report's directory; empty: no coverage
  std::string waivers = TCU_SOURCE_DIR "/spec/coverage_waivers.txt";
};

void add_coverage_options(CLI::App* cmd, CoverageOptions* opt, const std::string& what) {
  cmd->add_option("--coverage", opt->dir,
                  "write the " + what +
                      "'s functional coverage (and, in a TCU_COVERAGE build with --engine rtl, "
                      "the RTL's code coverage) to DIR: functional.json, rtl.info, "
                      "html/index.html");
  cmd->add_option("--coverage-waivers", opt->waivers,
                  "the waived bins, 'GROUP | BIN | REASON' a line (default: the source tree's "
                  "spec/coverage_waivers.txt)");
}

// Makes `dir` a writable directory (with `clear_parts`, empty of an earlier
// run's parts) and checks `waivers` exists, before anything runs. Returns an
// exit code or -1.
int prepare_coverage_dir(const std::string& dir, const std::string& waivers, bool clear_parts) {
  namespace fs = std::filesystem;
  std::error_code error;
  if (clear_parts && fs::is_directory(dir, error)) fs::remove_all(fs::path(dir) / "parts", error);
  error.clear();
  fs::create_directories(dir, error);
  if (error || !fs::is_directory(dir)) {
    const bool file = fs::exists(dir) && !fs::is_directory(dir);
    std::cerr << "error: --coverage " << dir << ": cannot create the directory ("
              << (file ? "a file of that name exists" : error.message()) << ")\n";
    return tcu::kExitUsage;
  }
  const fs::path probe = fs::path(dir) / ".tcu-write-probe";
  if (!std::ofstream(probe)) {
    std::cerr << "error: --coverage " << dir << ": cannot write in it (" << std::strerror(errno)
              << ")\n";
    return tcu::kExitUsage;
  }
  fs::remove(probe, error);
  if (!waivers.empty() && !fs::exists(waivers)) {
    std::cerr << "error: --coverage-waivers " << waivers << ": no such file\n";
    return tcu::kExitUsage;
  }
  return -1;
}

// A single process's coverage (replay, gemm, run --jobs 1): functional.json
// and the engine's RTL code coverage (if it has some) written to opt.dir,
// the waivers applied, the HTML report and the summary. Returns `code`, or
// kExitUsage where writing the report failed.
int write_coverage(const CoverageOptions& opt, const tcu::FunctionalCoverage& coverage,
                   tcu::Engine& engine, int code) {
  const std::string rtl = (std::filesystem::path(opt.dir) / "rtl.dat").string();
  tcu::write_coverage_part(opt.dir, coverage, engine.write_rtl_coverage(rtl));
  if (tcu::finish_coverage(opt.dir, {opt.dir}, opt.waivers, std::cout, std::cerr))
    return std::max(code, int(tcu::kExitUsage));
  return code;
}

// ---- tcu replay ---------------------------------------------------------------

struct ReplayCommand {
  CLI::App* cmd = nullptr;
  EngineOptions engine;
  std::vector<std::string> files;
  tcu::ReplayOptions options;
  ReportOptions reports;
  CoverageOptions coverage;
};

void add_replay_command(CLI::App& app, ReplayCommand* c) {
  c->cmd = app.add_subcommand("replay", "recompute vector files and compare every D register");
  add_engine_options(c->cmd, &c->engine, "golden");
  c->cmd->add_option("--details", c->options.max_details, "mismatching registers printed in detail")
      ->check(CLI::NonNegativeNumber);
  add_report_options(c->cmd, &c->reports);
  add_coverage_options(c->cmd, &c->coverage, "replay");
  c->cmd->add_option("files", c->files, "vector files (.jsonl or .jsonl.gz)")->required();
}

int replay_command(ReplayCommand& c, const Invocation& call) {
  if (int code = check_engine_options(c.engine); code >= 0) return code;
  if (int code = check_report_paths(c.reports); code >= 0) return code;
  if (!c.coverage.dir.empty())
    if (int code = prepare_coverage_dir(c.coverage.dir, c.coverage.waivers, false); code >= 0)
      return code;
  c.options.rerun_prefix = call.program + " replay --engine " + c.engine.name;
  if (c.engine.name == "rtl") {
    c.options.rerun_prefix +=
        " --config " + c.engine.config + joined(front_end_args(c.engine.front_end));
    c.options.refuse = [&](const tcu::Instr& instr) { return refused_by_config(c.engine, instr); };
  }
  auto engine = make_engine(c.engine);
  tcu::Report report;
  report.command = "replay";
  report.datapath = engine_datapath(c.engine);
  report.header = report_header(call, nullptr, c.engine);
  report.header["options"]["files"] = c.files;
  report.header["options"]["details"] = c.options.max_details;
  if (c.engine.name == "rtl")
    report.header["options"]["check"] = tcu::to_string(check_mode(c.engine));
  tcu::FunctionalCoverage coverage;
  if (!c.coverage.dir.empty()) c.options.coverage = &coverage;
  report.exit_code = tcu::replay(*engine, c.files, c.options, std::cout, std::cerr, &report);
  if (!c.coverage.dir.empty())
    report.exit_code = write_coverage(c.coverage, coverage, *engine, report.exit_code);
  return write_reports(c.reports, report);
}

// ---- tcu run --------------------------------------------------------------------

struct RunCommand {
  CLI::App* cmd = nullptr;
  EngineOptions engine;
  tcu::RunOptions options;
  std::vector<std::string> ptx;
  std::string shard = "0/1";
  int jobs = int(std::max(1u, std::thread::hardware_concurrency()));
  CLI::Option* jobs_option = nullptr;
  ReportOptions reports;
  CoverageOptions coverage;                // --coverage: the merged report
  std::string coverage_part;               // set by `run --jobs` in its children
  std::string special_rate_text = "0.25";  // --special-rate, parsed into options
};

void add_run_command(CLI::App& app, RunCommand* c) {
  c->cmd =
      app.add_subcommand("run", "random instructions back to back through an engine, each checked");
#ifdef TCU_HAVE_RTL
  add_engine_options(c->cmd, &c->engine, "rtl");
#else
  add_engine_options(c->cmd, &c->engine, "golden");
#endif
  c->cmd->add_option("--ptx", c->ptx, "instruction(s) to run (default: every variant)");
  c->cmd->add_flag("--mix", c->options.mix,
                   "one stream of the variants interleaved at random (--count: its length)");
  add_stimulus_options(c->cmd, &c->engine);
  c->cmd->add_option("--count", c->options.count, "cases per variant (with --mix: in all)")
      ->check(CLI::Range(uint64_t(1), uint64_t(1) << 40));
  c->cmd->add_option("--first", c->options.first, "first case index");
  c->cmd->add_option("--seed", c->options.seed, "random seed");
  c->cmd->add_option("--special-rate", c->special_rate_text,
                     "chance 0 <= P <= 1 that each operand (A, B, C, scale A, scale B) of a "
                     "random case takes encodings of its format's classes (zero, subnormal, "
                     "largest, infinity, NaN, ignored bits, ...)");
  c->cmd->add_option("--shard", c->shard, "run slice i of N (i/N): cases with index % N == i");
  c->jobs_option =
      c->cmd
          ->add_option("-j,--jobs", c->jobs,
                       "parallel processes, each a shard of the run (default: all cores)")
          ->check(CLI::Range(1, 1024));
  c->cmd->add_option("--details", c->options.max_details, "mismatches printed in detail")
      ->check(CLI::NonNegativeNumber);
  add_report_options(c->cmd, &c->reports);
  c->cmd->add_flag("--record-cases", c->options.record_cases,
                   "record each case's index, result and D digest in --report (for tcu run "
                   "merge --compare; tcu run merge joins shard reports)");
  add_coverage_options(c->cmd, &c->coverage, "run");
  // Set by `run --jobs` for its children.
  c->cmd->add_option("--progress-file", c->options.progress_file)->group("");
  c->cmd->add_option("--coverage-part", c->coverage_part)->group("");
}

// The variants of the run: --ptx's, each of which the configuration must
// run; without --ptx every variant it can run (with a note naming what it
// leaves out). Returns an exit code or -1.
int select_run_variants(RunCommand& c) {
  for (const std::string& text : c.ptx) {
    try {
      c.options.variants.push_back(tcu::parse_ptx(text));
    } catch (const tcu::InstrError& e) {
      std::cerr << "error: --ptx: " << e.what() << "\n";
      return tcu::kExitBadInstruction;
    }
  }
  for (const tcu::Instr& instr : c.options.variants)
    if (const std::string why = refused_by_config(c.engine, instr); !why.empty()) {
      std::cerr << "error: --ptx: " << why << "\n";
      return tcu::kExitUsage;
    }
  if (!c.options.variants.empty()) return -1;
  std::vector<tcu::Instr> runnable;
  std::string left_out;
  for (const tcu::Instr& instr : tcu::all_variants()) {
    if (refused_by_config(c.engine, instr).empty()) {
      runnable.push_back(instr);
    } else if (const char* param = tcu::disabled_by(engine_datapath(c.engine), instr.family);
               left_out.find(param) == std::string::npos) {
      left_out += std::string(left_out.empty() ? "" : ", ") + param + "=0";
    }
  }
  if (!left_out.empty()) {
    std::cout << "note: configuration '" << c.engine.config << "' leaves out " << left_out
              << ": running the " << runnable.size() << " variants it has\n";
    c.options.variants = runnable;
  }
  return -1;
}

// The number of processes: --trace and --inject-fault need one; no more
// than the shard's cases. Returns an exit code or -1.
int resolve_run_jobs(RunCommand& c) {
  for (auto [name, given] : {std::pair{"--trace", !c.engine.trace.empty()},
                             {"--inject-fault", !c.engine.fault.empty()}}) {
    if (!given) continue;
    if (c.jobs_option->count() > 0 && c.jobs > 1) {
      std::cerr << "error: " << name << " runs in one process: use --jobs 1\n";
      return tcu::kExitUsage;
    }
    c.jobs = 1;
  }
  if (int64_t(c.options.shard_count) * c.jobs > (int64_t(1) << 30)) {
    std::cerr << "error: --jobs " << c.jobs << " with --shard " << c.shard << ": too many shards\n";
    return tcu::kExitUsage;
  }
  c.jobs = int(
      std::min<uint64_t>(uint64_t(c.jobs), std::max<uint64_t>(1, tcu::cases_in_shard(c.options))));
  return -1;
}

// The engine's options on a command line (a rerun's, a child's).
std::vector<std::string> engine_args(const EngineOptions& engine) {
  std::vector<std::string> args = {"--engine", engine.name};
  if (engine.name != "rtl") return args;
  args.insert(args.end(), {"--config", engine.config});
  const std::vector<std::string> fe = front_end_args(engine.front_end);
  args.insert(args.end(), fe.begin(), fe.end());
  if (!engine.check.empty()) args.insert(args.end(), {"--check", engine.check});
  return args;
}

nlohmann::ordered_json run_header(const RunCommand& c, const Invocation& call) {
  nlohmann::ordered_json header = report_header(call, c.options.seed, c.engine);
  auto& options = header["options"];
  options["ptx"] = c.ptx;
  options["mix"] = c.options.mix;
  options["special_rate"] = c.options.special_rate;
  add_stimulus_json(c.engine, &options);
  options["count"] = c.options.count;
  options["first"] = c.options.first;
  options["shard"] = c.shard;
  options["jobs"] = c.jobs;
  options["details"] = c.options.max_details;
  return header;
}

std::string coverage_part_dir(const RunCommand& c, int shard) {
  return (std::filesystem::path(c.coverage.dir) / "parts" / ("shard" + std::to_string(shard)))
      .string();
}

// --coverage DIR (or a child's part): the directories exist and are empty
// of an earlier run's parts. Returns an exit code or -1.
int prepare_coverage(const RunCommand& c) {
  if (!c.coverage.dir.empty())
    if (int code = prepare_coverage_dir(c.coverage.dir, c.coverage.waivers, true); code >= 0)
      return code;
  if (!c.coverage_part.empty()) return prepare_coverage_dir(c.coverage_part, "", false);
  return -1;
}

// The run in c.jobs child processes, a shard each.
int run_in_children(const RunCommand& c, const Invocation& call, tcu::Report* report) {
  auto child_args = [&](const tcu::ChildShard& child) {
    std::vector<std::string> args = {"run"};
    const std::vector<std::string> engine = engine_args(c.engine);
    args.insert(args.end(), engine.begin(), engine.end());
    if (c.engine.name == "rtl")
      args.insert(args.end(), {"--backpressure", c.engine.backpressure_text});
    if (c.options.mix) args.push_back("--mix");
    if (c.options.record_cases) args.push_back("--record-cases");
    for (const std::string& ptx : c.ptx) args.insert(args.end(), {"--ptx", ptx});
    args.insert(
        args.end(),
        {"--special-rate", c.special_rate_text, "--count", std::to_string(c.options.count),
         "--first", std::to_string(c.options.first), "--seed", std::to_string(c.options.seed),
         "--details", std::to_string(c.options.max_details), "--shard",
         std::to_string(child.index) + "/" + std::to_string(child.count), "--jobs", "1", "--report",
         child.report_path, "--progress-file", child.progress_path});
    if (!c.coverage.dir.empty())
      args.insert(args.end(), {"--coverage-part", coverage_part_dir(c, child.index)});
    return args;
  };
  return tcu::run_parallel(c.options, c.jobs, call.program, child_args, std::cout, std::cerr,
                           report);
}

int run_command(RunCommand& c, const Invocation& call) {
  if (!tcu::parse_shard(c.shard, &c.options.shard_index, &c.options.shard_count)) {
    std::cerr << "error: --shard " << c.shard << ": expected i/N with 0 <= i < N\n";
    return tcu::kExitUsage;
  }
  if (int code = check_engine_options(c.engine); code >= 0) return code;
  if (!parse_probability(c.special_rate_text, true, &c.options.special_rate)) {
    std::cerr << "error: --special-rate " << c.special_rate_text
              << ": expected a probability P with 0 <= P <= 1\n";
    return tcu::kExitUsage;
  }
  if (int code = check_report_paths(c.reports); code >= 0) return code;
  if (int code = select_run_variants(c); code >= 0) return code;
  c.engine.seed = c.options.seed;
  if (int code = resolve_run_jobs(c); code >= 0) return code;
  c.options.rerun_prefix = call.program + " run" + joined(engine_args(c.engine));
  c.options.backpressure = c.engine.backpressure;
  if (c.engine.name == "rtl" && c.engine.backpressure > 0)
    c.options.rerun_prefix += " --backpressure " + c.engine.backpressure_text;
  if (!c.engine.fault.empty()) c.options.rerun_prefix += " --inject-fault " + c.engine.fault;
  if (c.options.special_rate != tcu::kDefaultSpecialRate)
    c.options.rerun_prefix += " --special-rate " + c.special_rate_text;

  tcu::Report report;
  report.command = "run";
  report.datapath = engine_datapath(c.engine);
  report.header = run_header(c, call);
  if (int code = prepare_coverage(c); code >= 0) return code;
  if (c.jobs > 1) {
    report.exit_code = run_in_children(c, call, &report);
    if (!c.coverage.dir.empty()) {
      std::vector<std::string> parts;
      for (int k = 0; k < c.jobs; ++k)
        parts.push_back(coverage_part_dir(c, c.options.shard_index + k * c.options.shard_count));
      if (tcu::finish_coverage(c.coverage.dir, parts, c.coverage.waivers, std::cout, std::cerr))
        report.exit_code = std::max(report.exit_code, int(tcu::kExitUsage));
    }
    return write_reports(c.reports, report);
  }
  auto engine = make_engine(c.engine);
  tcu::FunctionalCoverage coverage;
  if (!c.coverage.dir.empty() || !c.coverage_part.empty()) c.options.coverage = &coverage;
  const int code = tcu::run(*engine, c.options, std::cout, &report);
  report.exit_code =
      fault_outcome(c.engine, *engine, code, "run",
                    c.engine.fault == "meta" ? " (meta needs a sparse variant)" : "");
  if (!c.coverage_part.empty()) {  // a child's part: the parent merges it
    const std::string rtl = (std::filesystem::path(c.coverage_part) / "rtl.dat").string();
    tcu::write_coverage_part(c.coverage_part, coverage, engine->write_rtl_coverage(rtl));
  } else if (!c.coverage.dir.empty()) {
    report.exit_code = write_coverage(c.coverage, coverage, *engine, report.exit_code);
  }
  return write_reports(c.reports, report);
}

// ---- tcu bench ------------------------------------------------------------------

struct BenchCommand {
  CLI::App* cmd = nullptr;
  tcu::BenchOptions options;
  std::vector<CLI::Option*> front_end_options;
  bool golden_only = false;
};

void add_bench_command(CLI::App& app, BenchCommand* c) {
  c->cmd = app.add_subcommand(
      "bench",
      "simulation speed per family on one core: golden model, raw Verilated datapath, "
      "co-verification stack");
  c->cmd->add_option("--config", c->options.config, "RTL datapath configuration")
      ->check(CLI::IsMember(config_names()));
  c->cmd->add_option("--seconds", c->options.seconds, "wall time per measurement")
      ->check(CLI::Range(0.01, 600.0));
  c->cmd
      ->add_option("--rounds", c->options.rounds,
                   "rounds per measurement, of seconds/rounds each, the three measurements "
                   "of a family taking turns; the best round is reported")
      ->check(CLI::Range(1, 100));
  c->cmd->add_flag("--json", c->options.json, "print one JSON document instead of tables");
  c->cmd->add_flag("--cpu-time", c->options.cpu_time,
                   "time measurements by the process's CPU time, not wall time (a shared "
                   "machine's other processes then lower no figure)");
  add_front_end_options(c->cmd, &c->options.front_end, &c->front_end_options);
  c->front_end_options.front()->description(
      "register-file words per cycle of the stack (default and at most the configuration's "
      "WordsPerCycle)");
  c->cmd->add_option("--family", c->options.families,
                     "measure only the families whose name contains this text (repeatable): "
                     "\"int4\", \"m8n8k32\", \"sparse\", \"e2m1\", \"f16\", \"f64\"");
  c->cmd->add_flag("--golden-only", c->golden_only, "measure the golden model only");
}

int bench_command(BenchCommand& c) {
  c.options.rtl = !c.golden_only;
#ifdef TCU_HAVE_RTL
  if (c.options.rtl)
    if (int code = resolve_rf_bandwidth(tcu::datapath_config(c.options.config), c.options.config,
                                        c.front_end_options.front(), true, &c.options.front_end);
        code >= 0)
      return code;
#endif
  return tcu::bench(c.options, std::cout);
}

// ---- tcu gemm -------------------------------------------------------------------

struct GemmCommand {
  CLI::App* cmd = nullptr;
  EngineOptions engine;
  tcu::GemmOptions options;
  std::string ptx;
  ReportOptions reports;
  CoverageOptions coverage;
};

void add_gemm_command(CLI::App& app, GemmCommand* c) {
  c->cmd = app.add_subcommand(
      "gemm",
      "a whole GEMM D = A*B + C tiled into one mma variant, accumulators chained over the "
      "k-steps, issued by W warps; D checked, cycles and MAC utilization");
  std::vector<std::string> configs;
  for (const auto& entry : known_configurations()) configs.push_back(entry.first);
#ifdef TCU_HAVE_RTL
  add_engine_options(c->cmd, &c->engine, "rtl", configs);
#else
  add_engine_options(c->cmd, &c->engine, "golden", configs);
#endif
  c->cmd->add_option("--ptx", c->ptx, "the mma variant (see tcu list)")->required();
  c->cmd->add_option("--m", c->options.m, "rows of A, C and D")->required();
  c->cmd->add_option("--n", c->options.n, "columns of B, C and D")->required();
  c->cmd->add_option("--k", c->options.k, "columns of A, rows of B")->required();
  c->cmd->add_option("--warps", c->options.warps, "warps sharing the output tiles");
  c->cmd->add_option("--seed", c->options.seed, "random seed of A, B and C");
  c->cmd->add_option("--details", c->options.max_details, "mismatching elements printed")
      ->check(CLI::NonNegativeNumber);
  add_stimulus_options(c->cmd, &c->engine);
  add_report_options(c->cmd, &c->reports);
  add_coverage_options(c->cmd, &c->coverage, "GEMM");
  c->cmd->add_flag("--estimate", c->options.estimate_only,
                   "print the timing estimate only, running nothing (no instruction limit; "
                   "--config may name any configuration of spec/config.toml)");
  c->cmd
      ->add_option("--compare", c->options.compare,
                   "compare the GEMM's rate with a GPU's published peak (a100)")
      ->check(CLI::IsMember({"a100"}));
}

// tcu gemm --estimate: the configuration's parameters, not its Verilated
// model; returns an exit code.
int gemm_estimate_command(GemmCommand& c) {
  for (const auto& [name, config] : known_configurations())
    if (name == c.engine.config) c.options.datapath = config;
  if (int code = resolve_rf_bandwidth(c.options.datapath, c.engine.config,
                                      c.engine.rf_bandwidth_option, true, &c.engine.front_end);
      code >= 0)
    return code;
  c.options.front_end = c.engine.front_end;
  std::string why = tcu::disabled_error(c.engine.config, c.options.datapath, c.options.instr);
  if (why.empty()) why = tcu::gemm_options_error(c.options);
  if (!why.empty()) {
    std::cerr << "error: " << why << "\n";
    return tcu::kExitUsage;
  }
  nlohmann::ordered_json details;
  return tcu::estimate_gemm(c.options, std::cout, &details);
}

// The first engine option given that --estimate, which runs nothing, would
// ignore (all but --config and the register file's), or empty.
std::string unused_with_estimate(const EngineOptions& opt) {
  for (const CLI::Option* option : opt.rtl_only) {
    const std::string name = option->get_name();
    if (option->count() > 0 && name != "--config" && name.rfind("--rf-", 0) != 0)
      return name + " has no effect with --estimate (nothing is run)";
  }
  return "";
}

// Why the RTL engine cannot run configuration `opt.config` (a configuration
// of the spec this tcu was not built with), or empty.
std::string unbuilt_config_error(const EngineOptions& opt) {
  if (opt.name != "rtl") return "";
  for (const std::string& name : config_names())
    if (name == opt.config) return "";
  return "--config " + opt.config +
         ": not Verilated in this tcu (reconfigure with it in -DTCU_CONFIGS); tcu gemm "
         "--estimate and tcu timing read its parameters without a model";
}

// `tcu gemm` once its command line is parsed; returns an exit code.
int gemm_command(GemmCommand& c, const Invocation& call) {
  std::string why =
      c.options.estimate_only ? unused_with_estimate(c.engine) : unbuilt_config_error(c.engine);
  if (c.options.estimate_only && (!c.reports.json_path.empty() || !c.reports.junit_path.empty()))
    why = "--report and --junit report a run; --estimate runs nothing";
  if (c.options.estimate_only && !c.coverage.dir.empty())
    why = "--coverage reports a run; --estimate runs nothing";
  if (!why.empty()) {
    std::cerr << "error: " << why << "\n";
    return tcu::kExitUsage;
  }
  if (!c.options.estimate_only)
    if (int code = check_engine_options(c.engine); code >= 0) return code;
  try {
    c.options.instr = tcu::parse_ptx(c.ptx);
  } catch (const tcu::InstrError& e) {
    std::cerr << "error: --ptx: " << e.what() << "\n";
    return tcu::kExitBadInstruction;
  }
  if (!c.options.compare.empty()) why = tcu::compare_error(c.options.compare, c.options.instr);
  if (!why.empty()) {
    std::cerr << "error: " << why << "\n";
    return tcu::kExitUsage;
  }
  if (c.options.estimate_only) return gemm_estimate_command(c);
  c.options.front_end = c.engine.front_end;
  c.options.backpressure = c.engine.backpressure;
  c.options.datapath = engine_datapath(c.engine);
  if (const std::string why = refused_by_config(c.engine, c.options.instr); !why.empty()) {
    std::cerr << "error: --ptx: " << why << "\n";
    return tcu::kExitUsage;
  }
  if (const std::string why = tcu::gemm_options_error(c.options); !why.empty()) {
    std::cerr << "error: " << why << "\n";
    return tcu::kExitUsage;
  }
  if (int code = check_report_paths(c.reports); code >= 0) return code;
  if (!c.coverage.dir.empty())
    if (int code = prepare_coverage_dir(c.coverage.dir, c.coverage.waivers, false); code >= 0)
      return code;
  c.engine.seed = c.options.seed;
  auto engine = make_engine(c.engine);
  tcu::FunctionalCoverage coverage;
  if (!c.coverage.dir.empty()) c.options.coverage = &coverage;
  tcu::Report report;
  report.command = "gemm";
  report.header = report_header(call, c.options.seed, c.engine);
  report.header["options"] = {
      {"ptx", c.ptx},     {"m", c.options.m},         {"n", c.options.n},
      {"k", c.options.k}, {"warps", c.options.warps}, {"details", c.options.max_details}};
  add_stimulus_json(c.engine, &report.header["options"]);
  nlohmann::ordered_json gemm;
  const int code = tcu::run_gemm(*engine, c.options, std::cout, &report, &gemm);
  report.exit_code = fault_outcome(c.engine, *engine, code, "GEMM", "");
  if (!c.coverage.dir.empty())
    report.exit_code = write_coverage(c.coverage, coverage, *engine, report.exit_code);
  report.header["gemm"] = gemm;
  return write_reports(c.reports, report);
}

// ---- tcu timing -----------------------------------------------------------------

struct TimingCommand {
  CLI::App* cmd = nullptr;
  tcu::TimingOptions options;
};

void add_timing_command(CLI::App& app, TimingCommand* c) {
  c->cmd = app.add_subcommand(
      "timing",
      "a configuration's latency and issue interval per family beside the NVIDIA A100's "
      "(sm_80) figures and their sources; needs no Verilated model");
  std::vector<std::string> names;
  for (const auto& entry : known_configurations()) names.push_back(entry.first);
  c->cmd->add_option("--config", c->options.config, "datapath configuration")
      ->check(CLI::IsMember(names));
  c->cmd->add_flag("--json", c->options.json, "print one JSON document instead of the table");
  c->cmd->add_flag("--check", c->options.check,
                   "exit 1 unless the configuration keeps every figure the a100 preset claims "
                   "(latency within one cycle of NAK's, interval equal)");
}

int timing_command(TimingCommand& c) {
  for (const auto& [name, config] : known_configurations())
    if (name == c.options.config) c.options.datapath = config;
  return tcu::timing(c.options, std::cout);
}

// ---- tcu coverage merge -----------------------------------------------------------

struct CoverageCommand {
  CLI::App* cmd = nullptr;
  CLI::App* merge = nullptr;
  std::string out;
  std::vector<std::string> parts;
  std::string waivers = TCU_SOURCE_DIR "/spec/coverage_waivers.txt";
};

void add_coverage_command(CLI::App& app, CoverageCommand* c) {
  c->cmd = app.add_subcommand("coverage", "coverage reports of runs (tcu run --coverage DIR)");
  c->cmd->require_subcommand(1);
  c->merge = c->cmd->add_subcommand(
      "merge", "merge the coverage directories of several runs into one report");
  c->merge->add_option("--out", c->out, "the merged report's directory")->required();
  c->merge->add_option("dirs", c->parts, "directories written by tcu run --coverage")
      ->required()
      ->check(CLI::ExistingDirectory);
  c->merge->add_option("--coverage-waivers", c->waivers, "the waived bins (as tcu run's)")
      ->check(CLI::ExistingFile);
}

int coverage_command(CoverageCommand& c) {
  std::error_code error;
  std::filesystem::create_directories(c.out, error);
  if (error || !std::filesystem::is_directory(c.out)) {
    std::cerr << "error: --out " << c.out << ": cannot create the directory\n";
    return tcu::kExitUsage;
  }
  return tcu::finish_coverage(c.out, c.parts, c.waivers, std::cout, std::cerr) ? tcu::kExitUsage
                                                                                : tcu::kExitOk;
}

}  // namespace

int tcu_main(int argc, char** argv) {
  const Invocation call{argc > 0 ? argv[0] : "tcu", std::vector<std::string>(argv, argv + argc)};
  // explore has its own command line (tcu_tools.explore parses it).
  if (argc >= 2 && std::strcmp(argv[1], "explore") == 0)
    return tcu::launch_explore(call.program, std::vector<std::string>(argv + 2, argv + argc));
  if (argc >= 3 && std::strcmp(argv[1], "run") == 0 && std::strcmp(argv[2], "merge") == 0)
    return tcu::run_merge_main(call.program, std::vector<std::string>(argv + 3, argv + argc));
  CLI::App app{"tcu: cycle-accurate tensor-core model (golden model + RTL)"};
  app.option_defaults()->always_capture_default();
  app.require_subcommand(0, 1);
  bool show_version = false;
  app.add_flag("--version", show_version,
               "print the version, git hash, Verilator and SystemC versions and configurations");
#ifdef TCU_HAVE_RTL
  bool banner = false;  // read by quiet_systemc() before SystemC starts
  app.add_flag("--banner", banner, "print SystemC's copyright banner");
  app.fallthrough();  // --banner after the subcommand too
#endif
  ReplayCommand replay;
  add_replay_command(app, &replay);
  RunCommand run;
  add_run_command(app, &run);
  bool list_plain = false;
  auto* list_cmd = app.add_subcommand("list", "print every supported PTX spelling by family");
  list_cmd->add_flag("--plain", list_plain, "one spelling per line, no family headings");
  BenchCommand bench;
  add_bench_command(app, &bench);
  GemmCommand gemm;
  add_gemm_command(app, &gemm);
  TimingCommand timing;
  add_timing_command(app, &timing);
  CoverageCommand coverage;
  add_coverage_command(app, &coverage);
  // Listed for --help only: tcu_main hands `explore` over before parsing.
  app.add_subcommand("explore",
                     "sweep datapath parameters over a workload: per-point models (cached), "
                     "RTL runs, Yosys area; explore.csv and plots (tcu explore --help)")
      ->allow_extras();
  tcu::add_cli_reference_command(app);

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return tcu::kExitUsage;
  }

  try {
    if (show_version) {
      print_version();
      return tcu::kExitOk;
    }
    if (bench.cmd->parsed()) return bench_command(bench);
    if (gemm.cmd->parsed()) return gemm_command(gemm, call);
    if (timing.cmd->parsed()) return timing_command(timing);
    if (coverage.cmd->parsed()) return coverage_command(coverage);
    if (list_cmd->parsed()) {
      print_list(list_plain);
      return tcu::kExitOk;
    }
    if (replay.cmd->parsed()) return replay_command(replay, call);
    if (run.cmd->parsed()) return run_command(run, call);
  } catch (const tcu::DesignFailure& e) {
    std::cerr << "FAIL: " << e.what() << "\n";
    return tcu::kExitMismatch;
  } catch (const tcu::UnsupportedInstruction& e) {
    std::cerr << "error: " << e.what() << "\n";
    return tcu::kExitUsage;
  } catch (const std::exception& e) {
    std::cerr << "internal error: " << e.what() << "\n";
    return tcu::kExitInternal;
  }
  std::cerr << "error: a subcommand is required (replay, run, gemm, timing, list; or --version, "
               "--help)\n";
  return tcu::kExitUsage;
}

#ifdef TCU_HAVE_RTL
// SystemC prints its copyright banner when its kernel starts unless this
// variable is set; only --banner keeps it. Set from an ELF constructor (glibc
// passes it argc and argv), which runs before this program's static objects,
// in case one of them starts the kernel before sc_main.
__attribute__((constructor(101))) static void quiet_systemc(int argc, char** argv, char**) {
  bool banner = false;
  for (int i = 1; i < argc && argv; ++i) banner |= std::strcmp(argv[i], "--banner") == 0;
  if (!banner) setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
}

// libsystemc defines main() and calls sc_main().
int sc_main(int argc, char** argv) {
  tcu::set_systemc_version(sc_core::sc_release());
  tcu::set_rtl_configurations(tcu::datapath_configurations_text());
  return tcu_main(argc, argv);
}
#else
int main(int argc, char** argv) { return tcu_main(argc, argv); }
#endif
