// golden_bench [SECONDS] [PTX-SUBSTRING]: golden_execute calls per second for
// every variant (or those whose PTX spelling contains the substring).
#include <cstdio>
#include <cstdlib>
#include <string>

#include "tcu/golden_bench.h"
#include "tcu/instr.h"

int main(int argc, char** argv) {
  const double seconds = argc > 1 ? std::atof(argv[1]) : 0.5;
  const std::string filter = argc > 2 ? argv[2] : "";
  for (const tcu::Instr& instr : tcu::all_variants()) {
    const std::string ptx = instr.ptx();
    if (ptx.find(filter) == std::string::npos) continue;
    std::printf("%10.0f instr/s  %s\n", tcu::golden_rate(instr, seconds), ptx.c_str());
    std::fflush(stdout);
  }
  return 0;
}
