#include "explore_launch.h"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>

#include "exit_codes.h"

namespace tcu {

namespace {

// The directory the running tcu lies in (a build of this project holds it at
// its top), or "" where /proc/self/exe cannot be read.
std::filesystem::path own_directory() {
  std::error_code error;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", error);
  return error ? std::filesystem::path() : exe.parent_path();
}

}  // namespace

int launch_explore(const std::string& program_name, const std::vector<std::string>& args) {
  // The package tcu_tools' command tcu-explore, found on PATH as any installed
  // command is (scripts/setup.sh installs the package into .venv: .venv/bin on
  // PATH, or the venv activated).
  const std::string command = "tcu-explore";
  setenv("TCU_EXPLORE_PROG", (program_name + " explore").c_str(), 1);
  const std::filesystem::path build = own_directory();
  std::error_code error;
  // The fast evaluator's timing model: the Python module `tcu` of the build
  // this tcu lies in (bindings/python/CMakeLists.txt puts it in python/).
  if (!build.empty() && std::filesystem::is_directory(build / "python", error))
    setenv("TCU_MODULE_DIR", (build / "python").c_str(), 0);
#ifdef TCU_HAVE_RTL
  // The build whose libraries each point's tool links (tcu_tools.explore).
  if (!build.empty() && std::filesystem::exists(build / "tcu-explore-base.cmake", error))
    setenv("TCU_EXPLORE_BASE", build.c_str(), 0);
#endif
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(command.c_str()));
  for (const auto& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  execvp(command.c_str(), argv.data());
  std::cerr << "error: tcu explore: cannot run " << command << " (" << std::strerror(errno)
            << "): the package tcu_tools is not installed in this environment; run "
               "scripts/setup.sh (it installs it into .venv) and put .venv/bin on PATH "
               "(source .venv/bin/activate)\n";
  return kExitUsage;
}

}  // namespace tcu
