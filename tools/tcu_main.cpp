// The tcu command-line tool: replay recorded vectors, run random traffic.
#include <CLI/CLI.hpp>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "bench.h"
#include "exit_codes.h"
#include "explore_launch.h"
#include "gemm.h"
#include "merge.h"
#include "parallel.h"
#include "replay.h"
#include "report.h"
#include "run.h"
#include "tcu/engine.h"
#include "tcu/instr.h"
#include "tcu/timing.h"
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
  // The options that only the RTL engine takes.
  std::vector<CLI::Option*> rtl_only;
};

struct ReportOptions {
  std::string json_path, junit_path;
};

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
                       ->check(CLI::Range(1, tcu::kMaxRfPorts)));
  added->push_back(cmd->add_option("--rf-write-ports", fe->rf_write_ports,
                                   "register writes per bank per cycle, 32 lanes each")
                       ->check(CLI::Range(1, tcu::kMaxRfPorts)));
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

void add_engine_options(CLI::App* cmd, EngineOptions* opt, const char* default_engine) {
  opt->name = default_engine;
  cmd->add_option("--engine", opt->name, "golden or rtl")->check(CLI::IsMember({"golden", "rtl"}));
  opt->rtl_only.push_back(cmd->add_option("--config", opt->config, "RTL datapath configuration")
                              ->check(CLI::IsMember(config_names())));
  opt->rtl_only.push_back(
      cmd->add_option("--trace", opt->trace, "write an FST waveform of the RTL engine"));
  opt->rf_bandwidth_option = add_front_end_options(cmd, &opt->front_end, &opt->rtl_only);
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

// Returns an exit code, or -1 if the engine options are usable. Sets the
// register-file bandwidth the options leave open to the router's
// WordsPerCycle.
int check_engine_options(EngineOptions& opt) {
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
              << config.d_words_per_cycle << " out" << (config.gather_bypass ? "" : ", no bypass");
    std::cout << (without.empty() ? "; every family" : "; without " + without) << "\n";
  }
#endif
}

// Parses --backpressure's text; false unless 0 <= P < 1.
bool parse_backpressure(const std::string& text, double* probability) {
  char* end = nullptr;
  *probability = std::strtod(text.c_str(), &end);
  return !text.empty() && *end == '\0' && *probability >= 0 && *probability < 1;
}

// `tcu gemm` once its command line is parsed; returns an exit code.
int gemm_command(EngineOptions& engine_options, tcu::GemmOptions& options, const std::string& ptx,
                 const ReportOptions& reports, nlohmann::ordered_json header) {
  if (!parse_backpressure(engine_options.backpressure_text, &engine_options.backpressure)) {
    std::cerr << "error: --backpressure " << engine_options.backpressure_text
              << ": expected a probability P with 0 <= P < 1\n";
    return tcu::kExitUsage;
  }
  if (int code = check_engine_options(engine_options); code >= 0) return code;
  try {
    options.instr = tcu::parse_ptx(ptx);
  } catch (const tcu::InstrError& e) {
    std::cerr << "error: --ptx: " << e.what() << "\n";
    return tcu::kExitBadInstruction;
  }
  options.front_end = engine_options.front_end;
  options.backpressure = engine_options.backpressure;
  options.datapath = engine_datapath(engine_options);
  if (const std::string why = refused_by_config(engine_options, options.instr); !why.empty()) {
    std::cerr << "error: --ptx: " << why << "\n";
    return tcu::kExitUsage;
  }
  if (const std::string why = tcu::gemm_options_error(options); !why.empty()) {
    std::cerr << "error: " << why << "\n";
    return tcu::kExitUsage;
  }
  if (int code = check_report_paths(reports); code >= 0) return code;
  engine_options.seed = options.seed;
  auto engine = make_engine(engine_options);
  tcu::Report report;
  report.command = "gemm";
  header["options"] = {
      {"ptx", ptx},     {"m", options.m},         {"n", options.n},
      {"k", options.k}, {"warps", options.warps}, {"details", options.max_details}};
  if (engine_options.name == "rtl") {
    header["options"]["backpressure"] = options.backpressure;
    header["options"]["inject_fault"] = engine_options.fault;
  }
  report.header = header;
  nlohmann::ordered_json gemm;
  report.exit_code = tcu::run_gemm(*engine, options, std::cout, &report, &gemm);
#ifdef TCU_HAVE_RTL
  if (!engine_options.fault.empty() && !tcu::fault_injected(*engine)) {
    std::cerr << "error: --inject-fault " << engine_options.fault
              << ": no instruction of this GEMM could take it; nothing was tested\n";
    report.exit_code = tcu::kExitUsage;
  } else if (!engine_options.fault.empty() && report.exit_code == tcu::kExitOk) {
    std::cerr << "FAIL: --inject-fault " << engine_options.fault
              << " was injected but no check caught it\n";
    report.exit_code = tcu::kExitMismatch;
  }
#endif
  report.header["gemm"] = gemm;
  return write_reports(reports, report);
}

}  // namespace

int tcu_main(int argc, char** argv) {
  const std::string program_name = argc > 0 ? argv[0] : "tcu";
  // explore has its own command line (tools/explore.py parses it).
  if (argc >= 2 && std::strcmp(argv[1], "explore") == 0)
    return tcu::launch_explore(program_name, std::vector<std::string>(argv + 2, argv + argc));
  if (argc >= 3 && std::strcmp(argv[1], "run") == 0 && std::strcmp(argv[2], "merge") == 0)
    return tcu::run_merge_main(program_name, std::vector<std::string>(argv + 3, argv + argc));
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

  EngineOptions replay_engine, run_engine;
  std::vector<std::string> files;
  tcu::ReplayOptions replay_options;
  ReportOptions replay_reports, run_reports;
  auto* replay_cmd =
      app.add_subcommand("replay", "recompute vector files and compare every D register");
  add_engine_options(replay_cmd, &replay_engine, "golden");
  replay_cmd
      ->add_option("--details", replay_options.max_details,
                   "mismatching registers printed in detail")
      ->check(CLI::NonNegativeNumber);
  add_report_options(replay_cmd, &replay_reports);
  replay_cmd->add_option("files", files, "vector files (.jsonl or .jsonl.gz)")->required();

  tcu::RunOptions run_options;
  std::vector<std::string> run_ptx;
  std::string shard = "0/1";
  int jobs = std::max(1u, std::thread::hardware_concurrency());
  auto* run_cmd =
      app.add_subcommand("run", "random instructions back to back through an engine, each checked");
#ifdef TCU_HAVE_RTL
  add_engine_options(run_cmd, &run_engine, "rtl");
#else
  add_engine_options(run_cmd, &run_engine, "golden");
#endif
  run_cmd->add_option("--ptx", run_ptx, "instruction(s) to run (default: every variant)");
  run_cmd->add_flag("--mix", run_options.mix,
                    "one stream of the variants interleaved at random (--count: its length)");
  run_engine.rtl_only.push_back(
      run_cmd->add_option("--backpressure", run_engine.backpressure_text,
                          "probability 0 <= P < 1 that out_ready is low in a cycle (RTL)"));
  run_engine.rtl_only.push_back(
      run_cmd
          ->add_option("--inject-fault", run_engine.fault,
                       "inject one fault that the checks must catch (RTL): d-bit, late, "
                       "lane-swap or meta")
          ->check(CLI::IsMember({"d-bit", "late", "lane-swap", "meta"})));
  run_cmd->add_option("--count", run_options.count, "cases per variant (with --mix: in all)")
      ->check(CLI::Range(uint64_t(1), uint64_t(1) << 40));
  run_cmd->add_option("--first", run_options.first, "first case index");
  run_cmd->add_option("--seed", run_options.seed, "random seed");
  run_cmd->add_option("--shard", shard, "run slice i of N (i/N): cases with index % N == i");
  auto* jobs_option =
      run_cmd
          ->add_option("-j,--jobs", jobs,
                       "parallel processes, each a shard of the run (default: all cores)")
          ->check(CLI::Range(1, 1024));
  run_cmd->add_option("--details", run_options.max_details, "mismatches printed in detail")
      ->check(CLI::NonNegativeNumber);
  add_report_options(run_cmd, &run_reports);
  run_cmd->add_flag("--record-cases", run_options.record_cases,
                    "record each case's index, result and D digest in --report (for tcu run "
                    "merge --compare; tcu run merge joins shard reports)");
  // Set by `run --jobs` for its children.
  run_cmd->add_option("--progress-file", run_options.progress_file)->group("");

  bool list_plain = false;
  auto* list_cmd = app.add_subcommand("list", "print every supported PTX spelling by family");
  list_cmd->add_flag("--plain", list_plain, "one spelling per line, no family headings");

  tcu::BenchOptions bench_options;
  auto* bench_cmd = app.add_subcommand(
      "bench",
      "simulation speed per family on one core: golden model, raw Verilated datapath, "
      "co-verification stack");
  bench_cmd->add_option("--config", bench_options.config, "RTL datapath configuration")
      ->check(CLI::IsMember(config_names()));
  bench_cmd->add_option("--seconds", bench_options.seconds, "wall time per measurement")
      ->check(CLI::Range(0.01, 600.0));
  bench_cmd
      ->add_option("--rounds", bench_options.rounds,
                   "rounds per measurement, of seconds/rounds each, the three measurements "
                   "of a family taking turns; the best round is reported")
      ->check(CLI::Range(1, 100));
  bench_cmd->add_flag("--json", bench_options.json, "print one JSON document instead of tables");
  std::vector<CLI::Option*> bench_front_end_options;
  add_front_end_options(bench_cmd, &bench_options.front_end, &bench_front_end_options);
  bench_front_end_options.front()->description(
      "register-file words per cycle of the stack (default and at most the configuration's "
      "WordsPerCycle)");
  bench_cmd->add_option("--family", bench_options.families,
                        "measure only the families whose name contains this text (repeatable): "
                        "\"int4\", \"m8n8k32\", \"sparse\", \"e2m1\", \"f16\", \"f64\"");
  bool bench_golden_only = false;
  bench_cmd->add_flag("--golden-only", bench_golden_only, "measure the golden model only");

  EngineOptions gemm_engine;
  tcu::GemmOptions gemm_options;
  std::string gemm_ptx;
  ReportOptions gemm_reports;
  auto* gemm_cmd = app.add_subcommand(
      "gemm",
      "a whole GEMM D = A*B + C tiled into one mma variant, accumulators chained over the "
      "k-steps, issued by W warps; D checked, cycles and MAC utilization");
#ifdef TCU_HAVE_RTL
  add_engine_options(gemm_cmd, &gemm_engine, "rtl");
#else
  add_engine_options(gemm_cmd, &gemm_engine, "golden");
#endif
  gemm_cmd->add_option("--ptx", gemm_ptx, "the mma variant (see tcu list)")->required();
  gemm_cmd->add_option("--m", gemm_options.m, "rows of A, C and D")->required();
  gemm_cmd->add_option("--n", gemm_options.n, "columns of B, C and D")->required();
  gemm_cmd->add_option("--k", gemm_options.k, "columns of A, rows of B")->required();
  gemm_cmd->add_option("--warps", gemm_options.warps, "warps sharing the output tiles");
  gemm_cmd->add_option("--seed", gemm_options.seed, "random seed of A, B and C");
  gemm_cmd->add_option("--details", gemm_options.max_details, "mismatching elements printed")
      ->check(CLI::NonNegativeNumber);
  gemm_engine.rtl_only.push_back(
      gemm_cmd->add_option("--backpressure", gemm_engine.backpressure_text,
                           "probability 0 <= P < 1 that out_ready is low in a cycle (RTL)"));
  gemm_engine.rtl_only.push_back(
      gemm_cmd
          ->add_option("--inject-fault", gemm_engine.fault,
                       "inject one fault that the checks must catch (RTL): d-bit, late, "
                       "lane-swap or meta")
          ->check(CLI::IsMember({"d-bit", "late", "lane-swap", "meta"})));
  add_report_options(gemm_cmd, &gemm_reports);

  // Listed for --help only: tcu_main hands `explore` over before parsing.
  app.add_subcommand("explore",
                     "sweep datapath parameters over a workload: per-point models (cached), "
                     "RTL runs, Yosys area; explore.csv and plots (tcu explore --help)")
      ->allow_extras();

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return tcu::kExitUsage;
  }

  if (show_version) {
    print_version();
    return tcu::kExitOk;
  }

  nlohmann::ordered_json header;
  auto start_header = [&](const nlohmann::json& seed, const EngineOptions& engine) {
    header["tcu_report"] = 1;
    header["seed"] = seed;
    header["configuration"] = configuration_json(engine);
    header["options"] = nlohmann::ordered_json::object();
    header["version"] = tcu::version_json();
    header["argv"] = std::vector<std::string>(argv, argv + argc);
  };

  try {
    if (bench_cmd->parsed()) {
      bench_options.rtl = !bench_golden_only;
#ifdef TCU_HAVE_RTL
      if (bench_options.rtl) {
        if (int code = resolve_rf_bandwidth(tcu::datapath_config(bench_options.config),
                                            bench_options.config, bench_front_end_options.front(),
                                            true, &bench_options.front_end);
            code >= 0)
          return code;
      }
#endif
      return tcu::bench(bench_options, std::cout);
    }
    if (gemm_cmd->parsed()) {
      start_header(gemm_options.seed, gemm_engine);
      return gemm_command(gemm_engine, gemm_options, gemm_ptx, gemm_reports, header);
    }
    if (list_cmd->parsed()) {
      print_list(list_plain);
      return tcu::kExitOk;
    }
    if (replay_cmd->parsed()) {
      if (int code = check_engine_options(replay_engine); code >= 0) return code;
      if (int code = check_report_paths(replay_reports); code >= 0) return code;
      replay_options.rerun_prefix = program_name + " replay --engine " + replay_engine.name;
      if (replay_engine.name == "rtl")
        replay_options.rerun_prefix +=
            " --config " + replay_engine.config + joined(front_end_args(replay_engine.front_end));
      if (replay_engine.name == "rtl")
        replay_options.refuse = [&](const tcu::Instr& instr) {
          return refused_by_config(replay_engine, instr);
        };
      auto engine = make_engine(replay_engine);
      tcu::Report report;
      report.command = "replay";
      report.datapath = engine_datapath(replay_engine);
      start_header(nullptr, replay_engine);
      header["options"]["files"] = files;
      header["options"]["details"] = replay_options.max_details;
      report.header = header;
      const int code = tcu::replay(*engine, files, replay_options, std::cout, std::cerr, &report);
      report.exit_code = code;
      return write_reports(replay_reports, report);
    }
    if (run_cmd->parsed()) {
      if (!tcu::parse_shard(shard, &run_options.shard_index, &run_options.shard_count)) {
        std::cerr << "error: --shard " << shard << ": expected i/N with 0 <= i < N\n";
        return tcu::kExitUsage;
      }
      {
        char* end = nullptr;
        const std::string& text = run_engine.backpressure_text;
        run_engine.backpressure = std::strtod(text.c_str(), &end);
        if (text.empty() || *end != '\0' || !(run_engine.backpressure >= 0) ||
            !(run_engine.backpressure < 1)) {
          std::cerr << "error: --backpressure " << text
                    << ": expected a probability P with 0 <= P < 1\n";
          return tcu::kExitUsage;
        }
      }
      if (int code = check_engine_options(run_engine); code >= 0) return code;
      if (int code = check_report_paths(run_reports); code >= 0) return code;
      for (const std::string& text : run_ptx) {
        try {
          run_options.variants.push_back(tcu::parse_ptx(text));
        } catch (const tcu::InstrError& e) {
          std::cerr << "error: --ptx: " << e.what() << "\n";
          return tcu::kExitBadInstruction;
        }
      }
      // An explicit variant the configuration cannot run is refused; without
      // --ptx the run covers the variants it can run (and says which not).
      for (const tcu::Instr& instr : run_options.variants)
        if (const std::string why = refused_by_config(run_engine, instr); !why.empty()) {
          std::cerr << "error: --ptx: " << why << "\n";
          return tcu::kExitUsage;
        }
      if (run_options.variants.empty()) {
        std::vector<tcu::Instr> runnable;
        std::string left_out;
        for (const tcu::Instr& instr : tcu::all_variants()) {
          if (refused_by_config(run_engine, instr).empty()) {
            runnable.push_back(instr);
          } else if (const char* param =
                         tcu::disabled_by(engine_datapath(run_engine), instr.family);
                     left_out.find(param) == std::string::npos) {
            left_out += std::string(left_out.empty() ? "" : ", ") + param + "=0";
          }
        }
        if (!left_out.empty()) {
          std::cout << "note: configuration '" << run_engine.config << "' leaves out " << left_out
                    << ": running the " << runnable.size() << " variants it has\n";
          run_options.variants = runnable;
        }
      }
      run_engine.seed = run_options.seed;
      // One waveform of one process; one fault in one process (each child
      // would inject its own).
      for (auto [name, given] : {std::pair{"--trace", !run_engine.trace.empty()},
                                 {"--inject-fault", !run_engine.fault.empty()}}) {
        if (!given) continue;
        if (jobs_option->count() > 0 && jobs > 1) {
          std::cerr << "error: " << name << " runs in one process: use --jobs 1\n";
          return tcu::kExitUsage;
        }
        jobs = 1;
      }
      if (int64_t(run_options.shard_count) * jobs > (int64_t(1) << 30)) {
        std::cerr << "error: --jobs " << jobs << " with --shard " << shard << ": too many shards\n";
        return tcu::kExitUsage;
      }
      // No more jobs than cases in this shard.
      jobs = int(std::min<uint64_t>(uint64_t(jobs),
                                    std::max<uint64_t>(1, tcu::cases_in_shard(run_options))));

      std::string rerun = program_name + " run --engine " + run_engine.name;
      if (run_engine.name == "rtl") {
        rerun += " --config " + run_engine.config + joined(front_end_args(run_engine.front_end));
        if (run_engine.backpressure > 0) rerun += " --backpressure " + run_engine.backpressure_text;
        if (!run_engine.fault.empty()) rerun += " --inject-fault " + run_engine.fault;
      }
      run_options.rerun_prefix = rerun;

      tcu::Report report;
      report.command = "run";
      report.datapath = engine_datapath(run_engine);
      start_header(run_options.seed, run_engine);
      auto& options = header["options"];
      options["ptx"] = run_ptx;
      options["mix"] = run_options.mix;
      if (run_engine.name == "rtl") {
        options["backpressure"] = run_engine.backpressure;
        options["inject_fault"] = run_engine.fault;
      }
      options["count"] = run_options.count;
      options["first"] = run_options.first;
      options["shard"] = shard;
      options["jobs"] = jobs;
      options["details"] = run_options.max_details;
      report.header = header;

      if (jobs > 1) {
        auto child_args = [&](const tcu::ChildShard& child) {
          std::vector<std::string> args = {"run", "--engine", run_engine.name};
          if (run_engine.name == "rtl") {
            args.insert(args.end(), {"--config", run_engine.config, "--backpressure",
                                     run_engine.backpressure_text});
            const std::vector<std::string> fe = front_end_args(run_engine.front_end);
            args.insert(args.end(), fe.begin(), fe.end());
          }
          if (run_options.mix) args.push_back("--mix");
          if (run_options.record_cases) args.push_back("--record-cases");
          for (const std::string& ptx : run_ptx) args.insert(args.end(), {"--ptx", ptx});
          args.insert(
              args.end(),
              {"--count", std::to_string(run_options.count), "--first",
               std::to_string(run_options.first), "--seed", std::to_string(run_options.seed),
               "--details", std::to_string(run_options.max_details), "--shard",
               std::to_string(child.index) + "/" + std::to_string(child.count), "--jobs", "1",
               "--report", child.report_path, "--progress-file", child.progress_path});
          return args;
        };
        const int code = tcu::run_parallel(run_options, jobs, program_name, child_args, std::cout,
                                           std::cerr, &report);
        report.exit_code = code;
        return write_reports(run_reports, report);
      }
      auto engine = make_engine(run_engine);
      int code = tcu::run(*engine, run_options, std::cout, &report);
#ifdef TCU_HAVE_RTL
      if (!run_engine.fault.empty() && !tcu::fault_injected(*engine)) {
        std::cerr << "error: --inject-fault " << run_engine.fault
                  << ": no instruction of this run could take it"
                  << (run_engine.fault == "meta" ? " (meta needs a sparse variant)" : "")
                  << "; nothing was tested\n";
        code = tcu::kExitUsage;
      } else if (!run_engine.fault.empty() && code == tcu::kExitOk) {
        std::cerr << "FAIL: --inject-fault " << run_engine.fault
                  << " was injected but no check caught it\n";
        code = tcu::kExitMismatch;
      }
#endif
      report.exit_code = code;
      return write_reports(run_reports, report);
    }
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
  std::cerr << "error: a subcommand is required (replay, run, gemm, list; or --version, --help)\n";
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
