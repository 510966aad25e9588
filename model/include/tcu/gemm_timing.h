// The cycle estimate of a GEMM tiled into one mma variant (`tcu gemm`), from
// the one timing formula (tcu/timing.h): where the cycles go, summed over the
// k-steps. Within a k-step the front-end collects an instruction's operands
// while the datapath works on the previous one, so instructions are accepted
// issue_interval apart (the longest of operand delivery, occupancy and D
// write-back); each k-step ends with the last
// instruction's pipeline and write-back (its D is the next k-step's C).
#pragma once

#include <cstdint>

#include "tcu/activity.h"
#include "tcu/instr.h"
#include "tcu/timing.h"

namespace tcu {

// How an M x N x K GEMM maps onto instructions of `instr`: an instruction
// computes `batches` output tiles (four 8x8 tiles for m8n8k4 .f16, one
// otherwise); the instructions of one k-step are its slots. A dimension that
// is not a multiple of the instruction's is padded up to one (zeros the
// instructions still compute; `tcu gemm` refuses such dimensions).
struct GemmTiling {
  int tile_rows = 0, tile_cols = 0;  // the grid of m x n output tiles
  int tiles = 0;
  int batches = 1;
  int slots = 0;  // instructions per k-step
  int k_steps = 0;
  int64_t instructions() const { return int64_t(slots) * k_steps; }
  // The output tile of a slot's batch, or -1 for an unused batch (padding).
  int tile_of(int slot, int batch) const {
    const int tile = slot * batches + batch;
    return tile < tiles ? tile : -1;
  }
};
GemmTiling gemm_tiling(const Instr& instr, int m, int n, int k);

struct GemmCycleEstimate {
  // One instruction's figures (timing.h).
  int delivery_per_instr = 0;   // collection_cycles
  int occupancy_per_instr = 0;  // datapath_occupancy
  int latency = 0;              // datapath_latency
  int write_back = 0;           // write_back_cycles
  // The GEMM's cycles by cause.
  uint64_t occupancy = 0;   // the datapath's slice sequencer busy
  uint64_t delivery = 0;    // operand collection the datapath waits for
  uint64_t fill_drain = 0;  // pipeline fill and drain, write-back, per k-step
  uint64_t switches = 0;    // engine changes: none in a one-variant GEMM
  uint64_t total() const { return occupancy + delivery + fill_drain + switches; }
};

// The estimate for `k_steps` k-steps of `instructions_per_step` instructions
// of `instr` each (one per group of output tiles), back-pressure left out.
GemmCycleEstimate estimate_gemm_cycles(const DatapathConfig& datapath,
                                       const FrontEndConfig& front_end, const Instr& instr,
                                       uint64_t k_steps, uint64_t instructions_per_step);

// The estimate of a whole M x N x K GEMM (gemm_tiling's k-steps and slots).
GemmCycleEstimate estimate_gemm_cycles(const DatapathConfig& datapath,
                                       const FrontEndConfig& front_end, const Instr& instr,
                                       const GemmTiling& tiling);

// Cycles an engine's clock runs on after it was last busy: the longest
// pipeline of the built engines' units plus two (rtl/tcu_datapath.sv's
// LINGER).
int clock_linger(const DatapathConfig& config);

// The activity counters (tcu/activity.h) the GEMM's run leaves, from its
// cycle estimate. The variant's engine is busy from an instruction's accept
// to its D leaving the pipelines (datapath_latency + 1 cycles; instructions
// issue_interval apart overlap); its clock runs a cycle before an accept
// (waking) and up to clock_linger cycles after a busy stretch, else it is
// gated: a k-step's first instruction waits its collection_cycles, the gap
// between k-steps is the write-back and the next collection, the run ends
// with the write-back. Every other engine is gated throughout; MACs are
// issued_macs per instruction.
Activity estimate_gemm_activity(const DatapathConfig& datapath, const FrontEndConfig& front_end,
                                const Instr& instr, const GemmTiling& tiling);

// Dense-equivalent MACs per cycle of the instruction's engine at its peak:
// its units times one unit invocation's MACs (a sparse slice covers 64
// logical k).
double peak_dense_macs_per_cycle(const DatapathConfig& config, const Instr& instr);

}  // namespace tcu
