#include "tcu/gemm_timing.h"

#include <algorithm>

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
  e.delivery = k_steps * (uint64_t(e.delivery_per_instr) + (instructions_per_step - 1) * exposed);
  e.fill_drain = k_steps * uint64_t(e.latency - e.occupancy_per_instr + e.write_back);
  return e;
}

int clock_linger(const DatapathConfig& config) {
  int latency = 0;
  for (Family family : {Family::kInt4Dense, Family::kE2m1, Family::kF16, Family::kF64})
    if (!disabled_by(config, family)) latency = std::max(latency, unit_latency(config, family));
  return latency + 2;
}

Activity estimate_gemm_activity(const DatapathConfig& datapath, const FrontEndConfig& front_end,
                                const Instr& instr, const GemmTiling& tiling) {
  const GemmCycleEstimate e = estimate_gemm_cycles(datapath, front_end, instr, tiling);
  Activity activity;
  activity.cycles = e.total();
  for (EngineActivity& engine : activity.engines) engine.gated = activity.cycles;
  if (tiling.slots == 0 || tiling.k_steps == 0) return activity;
  const uint64_t span = uint64_t(e.latency) + 1;  // an instruction's accept to its D leaving
  const uint64_t interval = uint64_t(issue_interval(datapath, front_end, instr));
  const uint64_t linger = uint64_t(clock_linger(datapath));
  const uint64_t steps = uint64_t(tiling.k_steps), slots = uint64_t(tiling.slots);
  const uint64_t delivery = uint64_t(e.delivery_per_instr);
  const uint64_t tail = e.write_back > 0 ? uint64_t(e.write_back) - 1 : 0;  // after the last D
  EngineActivity& used = activity[activity_engine(instr.family)];
  used.busy = steps * ((slots - 1) * std::min(interval, span) + span);
  // A gap before an accept keeps the clock up to the linger, the wake-up
  // cycle included; the first accept's wake-up; the tail after the last.
  const uint64_t gap = interval > span ? interval - span : 0;
  used.idle = std::min<uint64_t>(delivery, 1) + steps * (slots - 1) * std::min(gap, linger) +
              (steps - 1) * std::min(tail + delivery, linger) + std::min(tail, linger - 1);
  used.gated = activity.cycles - used.busy - used.idle;
  used.macs = uint64_t(tiling.instructions()) * uint64_t(issued_macs(instr));
  activity.router_words = uint64_t(tiling.instructions()) * router_words(instr);
  return activity;
}

double peak_dense_macs_per_cycle(const DatapathConfig& config, const Instr& instr) {
  return double(dot_units(config, instr.family)) * double(instr.macs()) /
         double(unit_slices(instr));
}

}  // namespace tcu
