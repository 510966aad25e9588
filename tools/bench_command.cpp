// `tcu bench`: simulation speed per family on one core.
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "bench.h"
#include "exit_codes.h"
#include "subcommand.h"
#ifdef TCU_HAVE_RTL
#include "datapath_model.h"
#endif

namespace tcu::cli {
namespace {

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
                   "rounds per measurement, of seconds/rounds each, the four measurements "
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

class BenchCommandLine : public Subcommand {
 public:
  CLI::App* add(CLI::App& app) override {
    add_bench_command(app, &c_);
    return c_.cmd;
  }
  int run(const Invocation& call) override {
    (void)call;
    return bench_command(c_);
  }

 private:
  BenchCommand c_;
};

}  // namespace

std::unique_ptr<Subcommand> make_bench_command() { return std::make_unique<BenchCommandLine>(); }

}  // namespace tcu::cli
