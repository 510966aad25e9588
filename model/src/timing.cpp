#include "tcu/timing.h"

#include "tcu/layout.h"

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

int instruction_latency(const DatapathConfig& dp, const FrontEndConfig& fe, const Instr& instr) {
  return ceil_div(source_words(instr), fe.rf_regs_per_cycle) + datapath_latency(dp, instr) +
         ceil_div(dest_words(instr), fe.rf_regs_per_cycle);
}

}  // namespace tcu
