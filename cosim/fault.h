// The faults the front-end can inject into one instruction, each of which a
// check must catch (`tcu run --inject-fault`, `tcu gemm --inject-fault`):
// stated once here, with the names and descriptions the command line shows.
#pragma once

#include <string>
#include <vector>

namespace tcu {

enum class Fault {
  kNone,
  kDBit,      // flip one bit of a D word on write-back
  kLate,      // hold one write-back beat a cycle, unaccounted
  kLaneSwap,  // swap two lanes' words of a write-back beat
  kMeta,      // corrupt the sparse metadata words after validation
};

struct FaultInfo {
  Fault fault;
  const char* name;         // the command line's spelling
  const char* description;  // what is injected
  bool timing;              // caught only by the cycle checks (CheckMode::kCycles)
};
// Every injectable fault (not kNone), in the command line's order.
const std::vector<FaultInfo>& fault_table();
// The names of fault_table(), in order.
std::vector<std::string> fault_names();
// "d-bit", "late", "lane-swap", "meta" (and "none"); false if unknown.
bool parse_fault(const std::string& name, Fault* fault);
const char* to_string(Fault fault);
const FaultInfo* fault_info(Fault fault);  // nullptr for kNone

}  // namespace tcu
