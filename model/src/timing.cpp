#include "tcu/timing.h"

#include <algorithm>
#include <tuple>

#include "tcu/layout.h"
#include "tcu/register_file.h"

namespace tcu {
namespace {

int ceil_div(int a, int b) { return (a + b - 1) / b; }

int words(const FragmentLayout& layout) {
  return kLanes * layout.regs_per_lane() * (layout.reg_bits() / 32);
}

}  // namespace

int dot_units(const DatapathConfig& config, Family family) {
  switch (family) {
    case Family::kInt4Dense:
    case Family::kInt4Sparse:
      return config.int4_macs_per_cycle / 32;
    case Family::kE2m1:
      return config.e2m1_macs_per_cycle / 64;
    case Family::kF16:
      return config.f16_fmas_per_cycle / 4;
    case Family::kF64:
      return config.f64_fmas_per_cycle / 4;
  }
  return 1;
}

int unit_slices(const Instr& instr) {
  const int outputs = instr.batches() * instr.shape.m * instr.shape.n;
  return instr.family == Family::kInt4Dense && instr.shape.k == 64 ? 2 * outputs : outputs;
}

int slice_macs(Family family) {
  switch (family) {
    case Family::kInt4Dense:
    case Family::kInt4Sparse:
      return 32;
    case Family::kE2m1:
      return 64;
    case Family::kF16:
    case Family::kF64:
      return 4;
  }
  return 0;
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

const char* disabled_by(const DatapathConfig& config, Family family) {
  switch (family) {
    case Family::kInt4Dense:
      return config.int4_enable ? nullptr : "Int4Enable";
    case Family::kInt4Sparse:
      return !config.int4_enable ? "Int4Enable" : !config.sparse_enable ? "SparseEnable" : nullptr;
    case Family::kE2m1:
      return config.e2m1_enable ? nullptr : "E2m1Enable";
    case Family::kF16:
      return config.f16_enable ? nullptr : "F16Enable";
    case Family::kF64:
      return config.f64_enable ? nullptr : "F64Enable";
  }
  return nullptr;
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

int unit_latency(const DatapathConfig& config, Family family) {
  switch (family) {
    case Family::kInt4Dense:
    case Family::kInt4Sparse:
      return config.int_stages;
    case Family::kE2m1:
      return config.e2m1_stages;
    case Family::kF16:
      return 5 * config.fma_stages;  // 4 FMAs and the C add
    case Family::kF64:
      return 4 * config.fma_stages;  // a chain of 4 FMAs
  }
  return 0;
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

int issue_interval(const DatapathConfig& dp, const FrontEndConfig& fe, const Instr& instr) {
  return std::max({collection_cycles(dp, fe, instr), datapath_occupancy(dp, instr),
                   write_back_cycles(dp, fe, instr)});
}

bool operator==(const FrontEndConfig& a, const FrontEndConfig& b) {
  return a.rf_regs_per_cycle == b.rf_regs_per_cycle && a.rf_banks == b.rf_banks &&
         a.rf_read_ports == b.rf_read_ports && a.rf_write_ports == b.rf_write_ports;
}

std::string front_end_config_error(const FrontEndConfig& c) {
  for (const auto& [param, value, max] :
       {std::tuple{"rf_regs_per_cycle", c.rf_regs_per_cycle, kMaxRfRegsPerCycle},
        {"rf_banks", c.rf_banks, kMaxRfBanks},
        {"rf_read_ports", c.rf_read_ports, kMaxRfPorts},
        {"rf_write_ports", c.rf_write_ports, kMaxRfPorts}})
    if (value < 1 || value > max)
      return std::string(param) + "=" + std::to_string(value) + ": expected 1 .. " +
             std::to_string(max);
  return "";
}

}  // namespace tcu
