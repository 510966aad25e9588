#include "tcu/gemm_timing.h"

namespace tcu {

GemmCycleEstimate estimate_gemm_cycles(const DatapathConfig& datapath,
                                       const FrontEndConfig& front_end, const Instr& instr,
                                       uint64_t k_steps, uint64_t instructions_per_step) {
  GemmCycleEstimate e;
  e.delivery_per_instr = collection_cycles(datapath, front_end, instr);
  e.occupancy_per_instr = datapath_occupancy(datapath, instr);
  e.latency = datapath_latency(datapath, instr);
  e.write_back = write_back_cycles(datapath, front_end, instr);
  if (k_steps == 0 || instructions_per_step == 0) return e;
  // Collection or D write-back beyond the occupancy shows between
  // back-to-back instructions (issue_interval); the first instruction of a
  // k-step waits for its whole collection.
  const uint64_t exposed =
      uint64_t(issue_interval(datapath, front_end, instr) - e.occupancy_per_instr);
  e.occupancy = k_steps * instructions_per_step * uint64_t(e.occupancy_per_instr);
  e.delivery =
      k_steps * (uint64_t(e.delivery_per_instr) + (instructions_per_step - 1) * exposed);
  e.fill_drain = k_steps * uint64_t(e.latency - e.occupancy_per_instr + e.write_back);
  return e;
}

double peak_dense_macs_per_cycle(const DatapathConfig& config, const Instr& instr) {
  return double(dot_units(config, instr.family)) * double(instr.macs()) /
         double(unit_slices(instr));
}

}  // namespace tcu
