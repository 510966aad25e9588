// The tcu command-line tool: replay recorded vectors, run random traffic.
#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>

#include "exit_codes.h"
#include "replay.h"
#include "run.h"
#include "tcu/engine.h"
#include "tcu/instr.h"
#ifdef TCU_HAVE_RTL
#include <systemc>

#include "rtl_engine.h"
#endif

namespace {

struct EngineOptions {
  std::string name = "golden";
  std::string config = "default";
  std::string trace;
  int rf_regs_per_cycle = 32;
};

std::unique_ptr<tcu::Engine> make_engine(const EngineOptions& opt) {
  if (opt.name == "golden") return std::make_unique<tcu::GoldenEngine>();
#ifdef TCU_HAVE_RTL
  if (opt.name == "rtl") return tcu::make_rtl_engine(opt.config, opt.trace, opt.rf_regs_per_cycle);
#endif
  return nullptr;
}

void add_engine_options(CLI::App* cmd, EngineOptions* opt, const char* default_engine) {
  opt->name = default_engine;
  cmd->add_option("--engine", opt->name, "golden or rtl")->check(CLI::IsMember({"golden", "rtl"}));
  cmd->add_option("--config", opt->config, "RTL datapath configuration (default or small)")
      ->check(CLI::IsMember({"default", "small"}));
  cmd->add_option("--trace", opt->trace, "write an FST waveform of the RTL engine");
  cmd->add_option("--rf-bandwidth", opt->rf_regs_per_cycle,
                  "front-end register-file words per cycle")
      ->check(CLI::Range(1, 4096));
}

}  // namespace

int tcu_main(int argc, char** argv) {
  CLI::App app{"tcu: cycle-accurate tensor-core model (golden model + RTL)"};
  app.require_subcommand(1);

  EngineOptions replay_engine, run_engine;
  std::vector<std::string> files;
  tcu::ReplayOptions replay_options;
  auto* replay_cmd =
      app.add_subcommand("replay", "recompute vector files and compare every D register");
  add_engine_options(replay_cmd, &replay_engine, "golden");
  replay_cmd
      ->add_option("--details", replay_options.max_details,
                   "mismatching registers printed in detail")
      ->check(CLI::NonNegativeNumber);
  replay_cmd->add_option("files", files, "vector files (.jsonl or .jsonl.gz)")->required();

  tcu::RunOptions run_options;
  std::vector<std::string> run_ptx;
  std::string shard = "0/1";
  auto* run_cmd =
      app.add_subcommand("run", "random instructions back to back through an engine, each checked");
  add_engine_options(run_cmd, &run_engine, "rtl");
  run_cmd->add_option("--ptx", run_ptx, "instruction(s) to run (default: every variant)");
  run_cmd->add_option("--count", run_options.count, "cases per variant")
      ->check(CLI::Range(uint64_t(1), uint64_t(1) << 40));
  run_cmd->add_option("--first", run_options.first, "first case index");
  run_cmd->add_option("--seed", run_options.seed, "random seed");
  run_cmd->add_option("--shard", shard, "run slice i of N (i/N): cases with index % N == i");
  run_cmd->add_option("--details", run_options.max_details, "mismatches printed in detail")
      ->check(CLI::NonNegativeNumber);

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return tcu::kExitUsage;
  }

  try {
    if (replay_cmd->parsed()) {
      auto engine = make_engine(replay_engine);
      if (!engine) {
        std::cerr << "error: --engine " << replay_engine.name << ": not built into this tcu\n";
        return tcu::kExitUsage;
      }
      return tcu::replay(*engine, files, replay_options, std::cout, std::cerr);
    }
    if (run_cmd->parsed()) {
      if (!tcu::parse_shard(shard, &run_options.shard_index, &run_options.shard_count)) {
        std::cerr << "error: --shard " << shard << ": expected i/N with 0 <= i < N\n";
        return tcu::kExitUsage;
      }
      for (const std::string& text : run_ptx) {
        try {
          run_options.variants.push_back(tcu::parse_ptx(text));
        } catch (const tcu::InstrError& e) {
          std::cerr << "error: --ptx: " << e.what() << "\n";
          return tcu::kExitBadInstruction;
        }
      }
      auto engine = make_engine(run_engine);
      if (!engine) {
        std::cerr << "error: --engine " << run_engine.name << ": not built into this tcu\n";
        return tcu::kExitUsage;
      }
      return tcu::run(*engine, run_options, std::cout);
    }
  } catch (const std::exception& e) {
    std::cerr << "internal error: " << e.what() << "\n";
    return tcu::kExitInternal;
  }
  return tcu::kExitUsage;
}

#ifdef TCU_HAVE_RTL
// libsystemc defines main() and calls sc_main().
int sc_main(int argc, char** argv) { return tcu_main(argc, argv); }
#else
int main(int argc, char** argv) { return tcu_main(argc, argv); }
#endif
