// A real GPU's figures beside the model's: the NVIDIA A100 (sm_80) tensor
// core's dependent-issue latencies and issue intervals, and its published
// peak rates. Each figure is stated once, in model/src/reference_timing.cpp,
// with its source; `tcu timing` and `tcu gemm --compare a100` print them,
// and tests/test_reference_timing.cpp holds the a100 configuration to the
// ones it claims.
#pragma once

#include <string>
#include <vector>

#include "tcu/instr.h"
#include "tcu/timing.h"

namespace tcu {

// A figure's source: a short name and where to find it.
struct ReferenceSource {
  const char* name;      // "NAK"
  const char* citation;  // file, repository, commit or document
};

// One row of the reference table: a family (or shape) of the model, the
// sm_80 figures it is compared with, and which of them the a100
// configuration claims to match.
struct TimingReference {
  const char* family;  // "int4 m16n8k64"
  const char* ptx;     // the variant the model's figures are computed for
  // NAK's scheduling class (sm80_instr_latencies.rs) and its read-after-write
  // latency to an ALU consumer and to a dependent MMA; "" and 0 where sm_80
  // has no native instruction.
  const char* nak_class;
  int alu_latency, mma_latency;
  // The A100's issue interval in cycles, 0 where none, and its source.
  int interval;
  const char* interval_source;
  // Whether the a100 configuration claims each figure: its latency within
  // one cycle of both NAK figures, its interval equal.
  bool latency_claimed, interval_claimed;
  // The class mapping's argument and what is not calibrated, and why.
  const char* note;
};

// Accel-Sim's SM80 tensor-core figures: one latency and initiation interval
// for every tensor instruction, in trace mode and in PTX mode.
struct AccelSimReference {
  int trace_latency, trace_interval;
  int ptx_latency, ptx_interval;
};

// A published peak rate of a family, in tera-operations a second (one MAC or
// FMA is two operations; sparse counts the dense-equivalent MACs).
struct PeakRate {
  Family family;
  const char* what;  // "int4 dense"
  double tera_ops;
};

// The GPU the rates are for: its tensor units (SMs x sub-partitions, one
// tensor core each) and the clock the rates assume.
struct GpuReference {
  const char* name;
  int sms, sub_partitions_per_sm;
  double clock_ghz;
  std::vector<PeakRate> peaks;
  int units() const { return sms * sub_partitions_per_sm; }
  // The MACs (dense-equivalent) one unit takes a cycle at `rate`.
  double macs_per_cycle_per_unit(const PeakRate& rate) const {
    return rate.tera_ops * 1e12 / (2.0 * units() * clock_ghz * 1e9);
  }
  // The rate of `units()` units taking `macs_per_cycle` each at the clock.
  double tera_ops(double macs_per_cycle) const {
    return 2.0 * macs_per_cycle * units() * clock_ghz * 1e9 / 1e12;
  }
  // The family's rate, or nullptr if none is published.
  const PeakRate* peak(Family family) const;
};

const std::vector<TimingReference>& a100_timing_references();
const AccelSimReference& a100_accel_sim();
const GpuReference& a100_gpu();
// Every source the figures above cite, by name.
const std::vector<ReferenceSource>& a100_sources();

// The model's figures for one row at `dp` (front-end at WordsPerCycle words
// a cycle): instruction_latency and issue_interval.
struct ModelTiming {
  const TimingReference* reference;
  Instr instr;
  int latency = 0, interval = 0;
};
std::vector<ModelTiming> a100_model_timing(const DatapathConfig& dp);

// The claimed figures `dp` misses, one line each ("int4 m16n8k64: latency
// 20, more than one cycle from NAK's 17 / 18"); empty when it keeps all.
std::vector<std::string> a100_calibration_misses(const DatapathConfig& dp);

}  // namespace tcu
