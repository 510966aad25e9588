#include "subcommand.h"

#include "cli_reference.h"

namespace tcu::cli {

void add_command_line(CommandLine* line) {
  CLI::App& app = line->app;
  app.option_defaults()->always_capture_default();
  app.require_subcommand(0, 1);
  app.add_flag("--version", line->show_version,
               "print the version, git hash, Verilator and SystemC versions and configurations");
#ifdef TCU_HAVE_RTL
  app.add_flag("--banner", line->banner, "print SystemC's copyright banner");
  app.fallthrough();  // --banner after the subcommand too
#endif
  using Factory = std::unique_ptr<Subcommand> (*)();
  for (Factory make :
       {make_replay_command, make_run_command, make_list_command, make_bench_command,
        make_gemm_command, make_timing_command, make_coverage_command, make_explore_command}) {
    std::unique_ptr<Subcommand> command = make();
    CLI::App* cmd = command->add(app);
    line->subcommands.emplace_back(cmd, std::move(command));
  }
  tcu::add_cli_reference_command(app);
}

}  // namespace tcu::cli
