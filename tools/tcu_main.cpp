// The tcu command-line tool: replay recorded vectors, run random traffic.
#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>

#include "exit_codes.h"
#include "replay.h"
#include "tcu/engine.h"
#ifdef TCU_HAVE_RTL
#include "rtl_engine.h"
#endif

namespace {

std::unique_ptr<tcu::Engine> make_engine(const std::string& name) {
  if (name == "golden") return std::make_unique<tcu::GoldenEngine>();
#ifdef TCU_HAVE_RTL
  if (name == "rtl") return tcu::make_rtl_engine();
#endif
  return nullptr;
}

}  // namespace

int tcu_main(int argc, char** argv) {
  CLI::App app{"tcu: cycle-accurate tensor-core model (golden model + RTL)"};
  app.require_subcommand(1);

  std::string engine_name = "golden";
  std::vector<std::string> files;
  tcu::ReplayOptions replay_options;
  auto* replay_cmd = app.add_subcommand("replay", "recompute vector files and compare every D register");
  replay_cmd->add_option("--engine", engine_name, "golden or rtl")
      ->check(CLI::IsMember({"golden", "rtl"}));
  replay_cmd->add_option("--details", replay_options.max_details,
                         "mismatching registers printed in detail")
      ->check(CLI::NonNegativeNumber);
  replay_cmd->add_option("files", files, "vector files (.jsonl or .jsonl.gz)")->required();

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
      auto engine = make_engine(engine_name);
      if (!engine) {
        std::cerr << "error: --engine " << engine_name << ": not built into this tcu\n";
        return tcu::kExitUsage;
      }
      return tcu::replay(*engine, files, replay_options, std::cout, std::cerr);
    }
  } catch (const std::exception& e) {
    std::cerr << "internal error: " << e.what() << "\n";
    return tcu::kExitInternal;
  }
  return tcu::kExitUsage;
}

#ifndef TCU_HAVE_RTL
int main(int argc, char** argv) { return tcu_main(argc, argv); }
#endif
