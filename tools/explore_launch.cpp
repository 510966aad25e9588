#include "explore_launch.h"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <iostream>

#include "exit_codes.h"

namespace tcu {

int launch_explore(const std::string& program_name, const std::vector<std::string>& args) {
  const std::string source_dir = TCU_SOURCE_DIR;
  // tools/tcu_explore, run as `python -m tcu_explore` with tools/ on the path.
  const std::string tools_dir = source_dir + "/tools";
  const std::string script = tools_dir + "/tcu_explore/__main__.py";
  const char* python_env = std::getenv("TCU_PYTHON");
  // The interpreter that scripts/setup.sh gave matplotlib.
  const std::string python = python_env ? python_env : source_dir + "/.venv/bin/python";
  if (access(script.c_str(), R_OK) != 0) {
    std::cerr << "error: tcu explore: " << script << " not found (this tcu was built from "
              << source_dir << ")\n";
    return kExitUsage;
  }
  if (access(python.c_str(), X_OK) != 0) {
    std::cerr << "error: tcu explore: no Python environment at " << python
              << "; run scripts/setup.sh (it creates .venv with matplotlib), or set TCU_PYTHON\n";
    return kExitUsage;
  }
  setenv("TCU_EXPLORE_PROG", (program_name + " explore").c_str(), 1);
  const char* python_path = std::getenv("PYTHONPATH");
  const std::string path =
      python_path && *python_path ? tools_dir + ":" + python_path : tools_dir;
  setenv("PYTHONPATH", path.c_str(), 1);
  // The fast evaluator's timing model: this build's Python module `tcu`
  // (python/CMakeLists.txt puts it in build/python).
  setenv("TCU_MODULE_DIR", (std::string(TCU_BINARY_DIR) + "/python").c_str(), 0);
#ifdef TCU_HAVE_RTL
  // The build whose libraries each point's tool links (tools/tcu_explore).
  setenv("TCU_EXPLORE_BASE", TCU_BINARY_DIR, 0);
#endif
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(python.c_str()));
  argv.push_back(const_cast<char*>("-m"));
  argv.push_back(const_cast<char*>("tcu_explore"));
  for (const auto& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  execv(python.c_str(), argv.data());
  std::cerr << "error: tcu explore: cannot run " << python << ": " << std::strerror(errno) << "\n";
  return kExitUsage;
}

}  // namespace tcu
