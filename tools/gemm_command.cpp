// `tcu gemm`: a whole GEMM tiled into one mma variant, or its timing
// estimate alone.
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "exit_codes.h"
#include "gemm.h"
#include "gemm_compare.h"
#include "subcommand.h"

namespace tcu::cli {
namespace {

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

class GemmCommandLine : public Subcommand {
 public:
  CLI::App* add(CLI::App& app) override {
    add_gemm_command(app, &c_);
    return c_.cmd;
  }
  int run(const Invocation& call) override { return gemm_command(c_, call); }

 private:
  GemmCommand c_;
};

}  // namespace

std::unique_ptr<Subcommand> make_gemm_command() { return std::make_unique<GemmCommandLine>(); }

}  // namespace tcu::cli
