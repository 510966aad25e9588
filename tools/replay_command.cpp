// `tcu replay`: recompute vector files with an engine and compare every D
// register.
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "exit_codes.h"
#include "replay.h"
#include "subcommand.h"

namespace tcu::cli {
namespace {

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
  c->cmd
      ->add_option("--stride", c->options.stride,
                   "replay every Nth case of each variant of a file (its first, 1 + N-th, ...)")
      ->check(CLI::PositiveNumber);
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
  report.header["options"]["stride"] = c.options.stride;
  if (c.engine.name == "rtl")
    report.header["options"]["check"] = tcu::to_string(check_mode(c.engine));
  tcu::FunctionalCoverage coverage;
  if (!c.coverage.dir.empty()) c.options.coverage = &coverage;
  report.exit_code = tcu::replay(*engine, c.files, c.options, std::cout, std::cerr, &report);
  if (!c.coverage.dir.empty())
    report.exit_code = write_coverage(c.coverage, coverage, *engine, report.exit_code);
  return write_reports(c.reports, report);
}

class ReplayCommandLine : public Subcommand {
 public:
  CLI::App* add(CLI::App& app) override {
    add_replay_command(app, &c_);
    return c_.cmd;
  }
  int run(const Invocation& call) override { return replay_command(c_, call); }

 private:
  ReplayCommand c_;
};

}  // namespace

std::unique_ptr<Subcommand> make_replay_command() { return std::make_unique<ReplayCommandLine>(); }

}  // namespace tcu::cli
