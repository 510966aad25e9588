#include "explore_launch.h"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <iostream>

#include "exit_codes.h"

namespace tcu {

int launch_explore(const std::string& program_name, const std::vector<std::string>& args) {
  // The package tcu_tools (installed into .venv by scripts/setup.sh), run as
  // `python -m tcu_tools.explore` by $TCU_PYTHON, else by the interpreter
  // this build was configured with (TCU_PYTHON, CMake).
  const char* python_env = std::getenv("TCU_PYTHON");
  const std::string python = python_env && *python_env ? python_env : TCU_PYTHON;
  if (access(python.c_str(), X_OK) != 0) {
    std::cerr << "error: tcu explore: no Python interpreter at " << python
              << "; run scripts/setup.sh (it installs the package tcu_tools into .venv), or set "
                 "TCU_PYTHON\n";
    return kExitUsage;
  }
  setenv("TCU_EXPLORE_PROG", (program_name + " explore").c_str(), 1);
  // The fast evaluator's timing model: this build's Python module `tcu`
  // (bindings/python/CMakeLists.txt puts it in build/python).
  setenv("TCU_MODULE_DIR", (std::string(TCU_BINARY_DIR) + "/python").c_str(), 0);
#ifdef TCU_HAVE_RTL
  // The build whose libraries each point's tool links (tcu_tools.explore).
  setenv("TCU_EXPLORE_BASE", TCU_BINARY_DIR, 0);
#endif
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(python.c_str()));
  argv.push_back(const_cast<char*>("-m"));
  argv.push_back(const_cast<char*>("tcu_tools.explore"));
  for (const auto& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  execv(python.c_str(), argv.data());
  std::cerr << "error: tcu explore: cannot run " << python << ": " << std::strerror(errno) << "\n";
  return kExitUsage;
}

}  // namespace tcu
