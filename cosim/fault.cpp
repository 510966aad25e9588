#include "fault.h"

namespace tcu {

const std::vector<FaultInfo>& fault_table() {
  static const std::vector<FaultInfo> table = {
      {Fault::kDBit, "d-bit", "a bit of D flipped on write-back", false},
      {Fault::kLate, "late", "a D taken a cycle late", true},
      {Fault::kLaneSwap, "lane-swap", "two lanes' D swapped", false},
      {Fault::kMeta, "meta", "a sparse metadata nibble corrupted after validation", false},
  };
  return table;
}

std::vector<std::string> fault_names() {
  std::vector<std::string> names;
  for (const FaultInfo& info : fault_table()) names.push_back(info.name);
  return names;
}

const FaultInfo* fault_info(Fault fault) {
  for (const FaultInfo& info : fault_table())
    if (info.fault == fault) return &info;
  return nullptr;
}

bool parse_fault(const std::string& name, Fault* fault) {
  if (name == "none") {
    *fault = Fault::kNone;
    return true;
  }
  for (const FaultInfo& info : fault_table())
    if (name == info.name) {
      *fault = info.fault;
      return true;
    }
  return false;
}

const char* to_string(Fault fault) {
  const FaultInfo* info = fault_info(fault);
  return info ? info->name : "none";
}

}  // namespace tcu
