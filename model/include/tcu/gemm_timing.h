// The cycle estimate of a GEMM tiled into one mma variant (`tcu gemm`), from
// the one timing formula (tcu/timing.h): where the cycles go, summed over the
// k-steps. Within a k-step the front-end collects an instruction's operands
// while the datapath works on the previous one, so instructions are accepted
// issue_interval apart (the longest of operand delivery, occupancy and D
// write-back); each k-step ends with the last
// instruction's pipeline and write-back (its D is the next k-step's C).
#pragma once

#include <cstdint>

#include "tcu/instr.h"
#include "tcu/timing.h"

namespace tcu {

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

// Dense-equivalent MACs per cycle of the instruction's engine at its peak:
// its units times one unit invocation's MACs (a sparse slice covers 64
// logical k).
double peak_dense_macs_per_cycle(const DatapathConfig& config, const Instr& instr);

}  // namespace tcu
