#include "tcu/gemm_timing.h"

namespace tcu {
namespace {

int ceil_div(int a, int b) { return (a + b - 1) / b; }

}  // namespace

GemmTiling gemm_tiling(const Instr& instr, int m, int n, int k) {
  GemmTiling tiling;
  tiling.tile_rows = ceil_div(m, instr.shape.m);
  tiling.tile_cols = ceil_div(n, instr.shape.n);
  tiling.tiles = tiling.tile_rows * tiling.tile_cols;
  tiling.batches = instr.batches();
  tiling.slots = ceil_div(tiling.tiles, tiling.batches);
  tiling.k_steps = ceil_div(k, instr.shape.k);
  return tiling;
}

GemmCycleEstimate estimate_gemm_cycles(const DatapathConfig& datapath,
                                       const FrontEndConfig& front_end, const Instr& instr,
                                       const GemmTiling& tiling) {
  return estimate_gemm_cycles(datapath, front_end, instr, uint64_t(tiling.k_steps),
                              uint64_t(tiling.slots));
}

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

Activity estimate_gemm_activity(const DatapathConfig& datapath, const FrontEndConfig& front_end,
                                const Instr& instr, const GemmTiling& tiling) {
  const GemmCycleEstimate e = estimate_gemm_cycles(datapath, front_end, instr, tiling);
  Activity activity;
  activity.cycles = e.total();
  for (EngineActivity& engine : activity.engines) engine.gated = activity.cycles;
  EngineActivity& used = activity[activity_engine(instr.family)];
  const uint64_t busy =
      tiling.slots == 0
          ? 0
          : uint64_t(tiling.k_steps) *
                (uint64_t(tiling.slots - 1) * uint64_t(issue_interval(datapath, front_end, instr)) +
                 uint64_t(e.latency));
  used.busy = busy;
  used.idle = activity.cycles - busy;
  used.gated = 0;
  used.macs = uint64_t(tiling.instructions()) * uint64_t(issued_macs(instr));
  return activity;
}

double peak_dense_macs_per_cycle(const DatapathConfig& config, const Instr& instr) {
  return double(dot_units(config, instr.family)) * double(instr.macs()) /
         double(unit_slices(instr));
}

}  // namespace tcu
