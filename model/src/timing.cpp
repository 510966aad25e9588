#include "tcu/timing.h"

#include <algorithm>

#include "tcu/layout.h"
#include "tcu/register_file.h"

namespace tcu {
namespace {

int ceil_div(int a, int b) { return (a + b - 1) / b; }

int words(const FragmentLayout& layout) {
  return kLanes * layout.regs_per_lane() * (layout.reg_bits() / 32);
}

}  // namespace

int unit_slices(const Instr& instr) {
  const int outputs = instr.batches() * instr.shape.m * instr.shape.n;
  return instr.family == Family::kInt4Dense && instr.shape.k == 64 ? 2 * outputs : outputs;
}

long issued_macs(const Instr& instr) { return long(unit_slices(instr)) * slice_macs(instr.family); }

long peak_issued_macs_per_cycle(const DatapathConfig& config, Family family) {
  return long(dot_units(config, family)) * slice_macs(family);
}

std::string rf_bandwidth_error(const DatapathConfig& dp, const FrontEndConfig& fe) {
  if (fe.rf_regs_per_cycle < 1)
    return "--rf-bandwidth " + std::to_string(fe.rf_regs_per_cycle) + ": expected >= 1";
  if (fe.rf_regs_per_cycle > dp.words_per_cycle)
    return "--rf-bandwidth " + std::to_string(fe.rf_regs_per_cycle) +
           ": more than the operand router's WordsPerCycle=" + std::to_string(dp.words_per_cycle) +
           " (the register words the core takes a cycle); use at most " +
           std::to_string(dp.words_per_cycle) + " or a configuration with a wider router";
  return "";
}

std::string disabled_error(const std::string& config_name, const DatapathConfig& config,
                           const Instr& instr) {
  const char* param = disabled_by(config, instr.family);
  if (!param) return "";
  std::string what = std::string("the ") + to_string(instr.family) + " engine";
  if (instr.family == Family::kInt4Sparse)
    what = config.int4_enable ? "the int4 engine's sparse operand mux" : "the int4 engine";
  return "configuration '" + config_name + "' is built without " + what + " (" + param +
         "=0): it cannot run " + instr.ptx();
}

int datapath_occupancy(const DatapathConfig& config, const Instr& instr) {
  return ceil_div(unit_slices(instr), dot_units(config, instr.family));
}

int datapath_latency(const DatapathConfig& config, const Instr& instr) {
  // One cycle in the operand register, one per slice, the unit's pipeline.
  return 1 + datapath_occupancy(config, instr) + unit_latency(config, instr.family);
}

int source_words(const Instr& instr) {
  int total = words(fragment_layout(instr, Operand::kA)) +
              words(fragment_layout(instr, Operand::kB)) +
              words(fragment_layout(instr, Operand::kC));
  if (instr.sparse()) total += kLanes;
  if (instr.block_scaled()) total += 2 * kLanes;
  return total;
}

int dest_words(const Instr& instr) { return words(fragment_layout(instr, Operand::kD)); }

int collection_cycles(const DatapathConfig& dp, const FrontEndConfig& fe, const Instr& instr) {
  FrontEndConfig at = fe;  // more than the router takes is refused (rf_bandwidth_error)
  at.rf_regs_per_cycle = std::min(fe.rf_regs_per_cycle, dp.words_per_cycle);
  return collect_cycles(instr, at) + (dp.gather_bypass ? 0 : 1);
}

FrontEndConfig write_back_front_end(const DatapathConfig& dp, const FrontEndConfig& fe) {
  FrontEndConfig at = fe;
  at.rf_regs_per_cycle = std::min(fe.rf_regs_per_cycle, dp.d_words_per_cycle);
  return at;
}

int write_back_cycles(const DatapathConfig& dp, const FrontEndConfig& fe, const Instr& instr) {
  return writeback_cycles(instr, write_back_front_end(dp, fe));
}

int instruction_latency(const DatapathConfig& dp, const FrontEndConfig& fe, const Instr& instr) {
  return collection_cycles(dp, fe, instr) + datapath_latency(dp, instr) +
         write_back_cycles(dp, fe, instr);
}

int collection_interval(const DatapathConfig& dp, const FrontEndConfig& fe, const Instr& instr) {
  return collection_cycles(dp, fe, instr) - (dp.gather_bypass ? 0 : 1);
}

int issue_interval(const DatapathConfig& dp, const FrontEndConfig& fe, const Instr& instr) {
  return std::max({collection_interval(dp, fe, instr), datapath_occupancy(dp, instr),
                   write_back_cycles(dp, fe, instr)});
}

}  // namespace tcu
