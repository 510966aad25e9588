// What this tcu was built from: filled in by tools/CMakeLists.txt
// (version.cpp.in).
#pragma once

#include <string>

namespace tcu {

struct BuildInfo {
  const char* version;            // VERSION file at the repository root
  const char* git_hash;           // at configure time; "unknown" outside git
  const char* compiler;           // CMAKE_CXX_COMPILER_ID and version
  const char* build_type;         // CMAKE_BUILD_TYPE
  bool have_rtl;                  // TCU_BUILD_RTL
  const char* verilator_version;  // empty without the RTL
};

const BuildInfo& build_info();

// The RTL configurations compiled in, "name: Param=value ...; ..." (empty
// without the RTL); set by main() from the generated datapath factory, so a
// tcu linked for one more configuration (tcu explore) names its own.
void set_rtl_configurations(const std::string& text);
const std::string& rtl_configurations();

// SystemC's release string; set by main() when the RTL is built in.
void set_systemc_version(const std::string& version);
const std::string& systemc_version();

}  // namespace tcu
