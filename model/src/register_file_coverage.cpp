// The register file's functional coverage (group "regfile"): bank conflicts
// and write-back stalls per family, stated here as data and classified from
// the schedules the front-end ran (tcu/register_file.h).
#include <algorithm>

#include "tcu/coverage.h"
#include "tcu/register_file.h"

namespace tcu {
namespace {

int ceil_div(int a, int b) { return (a + b - 1) / b; }

// The bins, as data: the name under each family, and what hits it. A cycle
// is "held back" when it moves fewer words than min(bandwidth, words left).
struct RegisterFileBin {
  const char* name;
  const char* meaning;
};
const RegisterFileBin kRegisterFileBins[] = {
    {"collect.bandwidth",
     "a collection cycle forwarded the collector's bandwidth with words left (rf_regs_per_cycle "
     "binds)"},
    {"collect.bank_stall",
     "a collection cycle held back: its words' registers not yet read, a bank holding more of "
     "the source registers than it has read ports (a bank conflict that costs cycles)"},
    {"collect.bank_conflict_hidden",
     "a bank read the source registers over more than one cycle, and no collection cycle was "
     "held back (the collector's bandwidth hid the conflict)"},
    {"write_back.bandwidth",
     "a write-back cycle took its full rate of D words with words left (the rate binds)"},
    {"write_back.port_stall",
     "a write-back cycle held back by the write ports: fewer D words than the rate allowed, or "
     "a cycle after the last word arrived while the banks still write the buffer"},
    {"write_back.bank_conflict_hidden",
     "a bank wrote D's registers over more than one cycle, and no write-back cycle was held "
     "back (the write-back rate hid the conflict)"},
    {"write_back.backpressure", "a write-back cycle held by back-pressure (wb_ready low)"},
};

std::vector<int> sizes(const RegSchedule& schedule) {
  std::vector<int> words;
  for (const std::vector<RegWord>& cycle : schedule) words.push_back(int(cycle.size()));
  return words;
}

// Some cycle moved `bandwidth` words (or more) with words left after it.
bool bandwidth_bound(const std::vector<int>& per_cycle, int bandwidth) {
  long left = 0;
  for (int words : per_cycle) left += words;
  for (int words : per_cycle) {
    left -= words;
    if (words >= bandwidth && left > 0) return true;
  }
  return false;
}

// Some cycle moved fewer words than min(bandwidth, words left); with
// `idle_counts`, a cycle with no word left counts too (the schedule runs on).
bool held_back(const std::vector<int>& per_cycle, int bandwidth, bool idle_counts) {
  long left = 0;
  for (int words : per_cycle) left += words;
  for (int words : per_cycle) {
    if (words < std::min<long>(bandwidth, left) || (idle_counts && left == 0)) return true;
    left -= words;
  }
  return false;
}

}  // namespace

const char* coverage_family_name(Family family) {
  static const char* const kNames[] = {"int4_dense", "int4_sparse", "f16", "f64", "e2m1"};
  return kNames[int(family)];
}

RegisterFileTraffic register_file_traffic(const Instr& instr, const FrontEndConfig& collect,
                                          const FrontEndConfig& write_back,
                                          uint64_t write_back_stalls) {
  RegisterFileTraffic traffic;
  traffic.family = instr.family;
  traffic.collect_bandwidth = collect.rf_regs_per_cycle;
  traffic.collected = sizes(collect_schedule(instr, collect));
  traffic.read_cycles =
      ceil_div(int(source_registers(instr).size()), collect.rf_banks * collect.rf_read_ports);
  traffic.write_back_bandwidth = write_back.rf_regs_per_cycle;
  traffic.written_back = sizes(writeback_schedule(instr, write_back));
  traffic.write_cycles =
      ceil_div(int(dest_registers(instr).size()), write_back.rf_banks * write_back.rf_write_ports);
  traffic.write_back_stalls = write_back_stalls;
  return traffic;
}

std::vector<std::pair<std::string, std::string>> register_file_bin_names() {
  std::vector<std::pair<std::string, std::string>> names;
  for (Family family :
       {Family::kInt4Dense, Family::kInt4Sparse, Family::kF16, Family::kF64, Family::kE2m1})
    for (const RegisterFileBin& bin : kRegisterFileBins)
      names.emplace_back(std::string(coverage_family_name(family)) + "." + bin.name, bin.meaning);
  return names;
}

std::vector<std::string> register_file_hits(const RegisterFileTraffic& t) {
  std::vector<std::string> bins;
  const bool collect_stall = held_back(t.collected, t.collect_bandwidth, false);
  const bool write_stall = held_back(t.written_back, t.write_back_bandwidth, true);
  if (bandwidth_bound(t.collected, t.collect_bandwidth)) bins.push_back("collect.bandwidth");
  if (collect_stall) bins.push_back("collect.bank_stall");
  if (t.read_cycles > 1 && !collect_stall) bins.push_back("collect.bank_conflict_hidden");
  if (bandwidth_bound(t.written_back, t.write_back_bandwidth))
    bins.push_back("write_back.bandwidth");
  if (write_stall) bins.push_back("write_back.port_stall");
  if (t.write_cycles > 1 && !write_stall) bins.push_back("write_back.bank_conflict_hidden");
  if (t.write_back_stalls > 0) bins.push_back("write_back.backpressure");
  for (std::string& bin : bins) bin = std::string(coverage_family_name(t.family)) + "." + bin;
  return bins;
}

void FunctionalCoverage::sample_register_file(const RegisterFileTraffic& traffic) {
  const uint64_t sampled = ++sampled_["regfile"];
  for (const std::string& name : register_file_hits(traffic)) hit("regfile", name, sampled);
}

}  // namespace tcu
