// `tcu run`: random instructions back to back through an engine, each
// checked; in parallel processes with --jobs.
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

#include "exit_codes.h"
#include "parallel.h"
#include "run.h"
#include "subcommand.h"

namespace tcu::cli {
namespace {

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

class RunCommandLine : public Subcommand {
 public:
  CLI::App* add(CLI::App& app) override {
    add_run_command(app, &c_);
    return c_.cmd;
  }
  int run(const Invocation& call) override { return run_command(c_, call); }

 private:
  RunCommand c_;
};

}  // namespace

std::unique_ptr<Subcommand> make_run_command() { return std::make_unique<RunCommandLine>(); }

}  // namespace tcu::cli
