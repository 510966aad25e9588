// `tcu explore`: its own command line (tcu_tools.explore parses it). tcu_main
// hands `explore` over before parsing; the subcommand is registered for
// --help and the command-line reference.
#include <string>
#include <vector>

#include "explore_launch.h"
#include "subcommand.h"

namespace tcu::cli {
namespace {

class ExploreCommand : public Subcommand {
 public:
  CLI::App* add(CLI::App& app) override {
    cmd_ = app.add_subcommand("explore",
                              "sweep datapath parameters over a workload: per-point models "
                              "(cached), RTL runs, Yosys area; explore.csv and plots (tcu "
                              "explore --help)");
    cmd_->allow_extras();
    return cmd_;
  }
  int run(const Invocation& call) override {
    return tcu::launch_explore(call.program, cmd_->remaining());
  }

 private:
  CLI::App* cmd_ = nullptr;
};

}  // namespace

std::unique_ptr<Subcommand> make_explore_command() { return std::make_unique<ExploreCommand>(); }

}  // namespace tcu::cli
