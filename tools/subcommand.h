// The subcommands of tcu, each in its own file (*_command.cpp): it adds
// itself and its options to the command line and runs once that is parsed.
// command_line() registers every one, in the order `tcu --help` lists them,
// so that the whole command line (every subcommand's options) can be walked
// without running anything.
#pragma once

#include <CLI/CLI.hpp>
#include <memory>
#include <vector>

#include "cli_common.h"

namespace tcu::cli {

class Subcommand {
 public:
  virtual ~Subcommand() = default;
  // Adds the subcommand and its options to `app`; returns it.
  virtual CLI::App* add(CLI::App& app) = 0;
  // Runs it once the command line is parsed; returns an exit code.
  virtual int run(const Invocation& call) = 0;
};

std::unique_ptr<Subcommand> make_replay_command();
std::unique_ptr<Subcommand> make_run_command();
std::unique_ptr<Subcommand> make_list_command();
std::unique_ptr<Subcommand> make_bench_command();
std::unique_ptr<Subcommand> make_gemm_command();
std::unique_ptr<Subcommand> make_timing_command();
std::unique_ptr<Subcommand> make_coverage_command();
std::unique_ptr<Subcommand> make_explore_command();

// tcu's command line: the program's own flags and every subcommand.
struct CommandLine {
  CLI::App app{"tcu: cycle-accurate tensor-core model (golden model + RTL)"};
  bool show_version = false;
  bool banner = false;  // read by quiet_systemc() before SystemC starts
  std::vector<std::pair<CLI::App*, std::unique_ptr<Subcommand>>> subcommands;
};

// Registers the flags and every subcommand on `line` (not copyable: the
// options point into it).
void add_command_line(CommandLine* line);

}  // namespace tcu::cli
