// `tcu timing`: a configuration's latency and issue interval per family.
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "exit_codes.h"
#include "subcommand.h"
#include "timing.h"

namespace tcu::cli {
namespace {

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

class TimingCommandLine : public Subcommand {
 public:
  CLI::App* add(CLI::App& app) override {
    add_timing_command(app, &c_);
    return c_.cmd;
  }
  int run(const Invocation& call) override {
    (void)call;
    return timing_command(c_);
  }

 private:
  TimingCommand c_;
};

}  // namespace

std::unique_ptr<Subcommand> make_timing_command() { return std::make_unique<TimingCommandLine>(); }

}  // namespace tcu::cli
