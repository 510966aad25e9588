// `tcu coverage merge`: the coverage directories of several runs in one
// report.
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "coverage.h"
#include "exit_codes.h"
#include "subcommand.h"

namespace tcu::cli {
namespace {

struct CoverageCommand {
  CLI::App* cmd = nullptr;
  CLI::App* merge = nullptr;
  std::string out;
  std::vector<std::string> parts;
  std::string waivers;  // empty: the built-in waivers (spec/coverage_waivers.txt)
};

void add_coverage_command(CLI::App& app, CoverageCommand* c) {
  c->cmd = app.add_subcommand("coverage", "coverage reports of runs (tcu run --coverage DIR)");
  c->cmd->require_subcommand(1);
  c->merge = c->cmd->add_subcommand(
      "merge", "merge the coverage directories of several runs into one report");
  c->merge->add_option("--out", c->out, "the merged report's directory")->required();
  c->merge->add_option("dirs", c->parts, "directories written by tcu run --coverage")
      ->required()
      ->check(CLI::ExistingDirectory);
  c->merge->add_option("--coverage-waivers", c->waivers, "the waived bins (as tcu run's)")
      ->check(CLI::ExistingFile);
}

int coverage_command(CoverageCommand& c) {
  std::error_code error;
  std::filesystem::create_directories(c.out, error);
  if (error || !std::filesystem::is_directory(c.out)) {
    std::cerr << "error: --out " << c.out << ": cannot create the directory\n";
    return tcu::kExitUsage;
  }
  return tcu::finish_coverage(c.out, c.parts, c.waivers, std::cout, std::cerr) ? tcu::kExitUsage
                                                                               : tcu::kExitOk;
}

class CoverageCommandLine : public Subcommand {
 public:
  CLI::App* add(CLI::App& app) override {
    add_coverage_command(app, &c_);
    return c_.cmd;
  }
  int run(const Invocation& call) override {
    (void)call;
    return coverage_command(c_);
  }

 private:
  CoverageCommand c_;
};

}  // namespace

std::unique_ptr<Subcommand> make_coverage_command() {
  return std::make_unique<CoverageCommandLine>();
}

}  // namespace tcu::cli
