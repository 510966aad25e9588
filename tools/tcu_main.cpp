// The tcu command-line tool: its flags, the subcommands (subcommand.h, one
// file each) and the errors every subcommand reports alike.
#include <CLI/CLI.hpp>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "exit_codes.h"
#include "explore_launch.h"
#include "merge.h"
#include "subcommand.h"
#include "tcu/engine.h"
#include "version.h"
#ifdef TCU_HAVE_RTL
#include <systemc>

#include "datapath_model.h"
#endif

namespace {

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

// Runs the subcommand the command line names; returns an exit code.
int run_parsed(tcu::cli::CommandLine& line, const tcu::cli::Invocation& call) {
  try {
    if (line.show_version) {
      print_version();
      return tcu::kExitOk;
    }
    for (auto& [cmd, command] : line.subcommands)
      if (cmd->parsed()) return command->run(call);
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
  std::cerr << "error: a subcommand is required (replay, run, gemm, timing, list; or --version, "
               "--help)\n";
  return tcu::kExitUsage;
}

}  // namespace

int tcu_main(int argc, char** argv) {
  const tcu::cli::Invocation call{argc > 0 ? argv[0] : "tcu",
                                  std::vector<std::string>(argv, argv + argc)};
  // explore has its own command line (tcu_tools.explore parses it).
  if (argc >= 2 && std::strcmp(argv[1], "explore") == 0)
    return tcu::launch_explore(call.program, std::vector<std::string>(argv + 2, argv + argc));
  if (argc >= 3 && std::strcmp(argv[1], "run") == 0 && std::strcmp(argv[2], "merge") == 0)
    return tcu::run_merge_main(call.program, std::vector<std::string>(argv + 3, argv + argc));
  tcu::cli::CommandLine line;
  tcu::cli::add_command_line(&line);
  try {
    line.app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return line.app.exit(e);
  } catch (const CLI::ParseError& e) {
    line.app.exit(e);
    return tcu::kExitUsage;
  }
  return run_parsed(line, call);
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
