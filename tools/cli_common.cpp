// The options and checks that several subcommands share (cli_common.h).
#include "cli_common.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <tuple>

#include "exit_codes.h"
#include "fault.h"
#include "version.h"
#ifdef TCU_HAVE_RTL
#include "datapath_model.h"
#include "rtl_engine.h"
#endif

namespace tcu::cli {
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
                        const std::vector<std::string>& configs) {
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

void add_coverage_options(CLI::App* cmd, CoverageOptions* opt, const std::string& what) {
  cmd->add_option("--coverage", opt->dir,
                  "write the " + what +
                      "'s functional coverage (and, in a TCU_COVERAGE build with --engine rtl, "
                      "the RTL's code coverage) to DIR: functional.json, rtl.info, "
                      "html/index.html");
  cmd->add_option("--coverage-waivers", opt->waivers,
                  "the waived bins, 'GROUP | BIN | REASON' a line (default: spec/coverage_waivers.txt "
                  "as this tool was built with it)");
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

}  // namespace tcu::cli
