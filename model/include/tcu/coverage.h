// Functional coverage of the instruction set (`tcu run --coverage`): per
// variant, the classes of the operands' elements, the result's events, the
// sparse metadata and the block scales, and the order of the families in
// the stream. The bins are stated once, as data, in coverage.cpp (kBins:
// which variants have a bin, and the test that hits it); the RTL's own
// cover points (microarchitecture) come from the Verilated model's
// coverage, not from here.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "tcu/golden.h"

namespace tcu {

struct CoverageBin {
  std::string group;   // the variant's PTX spelling, or "stream"
  std::string name;    // e.g. "a.max", "d.clamp_high", "meta.0x4"
  std::string kind;    // "operand", "result", "metadata", "scale", "stream"
  uint64_t hits = 0;
  // The instructions sampled (in this process, of this variant or of the
  // stream) up to and including the first that hit the bin; 0: never.
  uint64_t first = 0;
  std::string waiver;  // empty, or why the bin need not be hit
};

class FunctionalCoverage {
 public:
  // Every bin of every variant in scope (and of the stream), none hit.
  FunctionalCoverage();

  // One instruction: its operands and the golden D (lane registers).
  void sample(const Instr& instr, const WarpOperands& operands);
  // Two instructions issued back to back, in stream order.
  void sample_order(const Instr& before, const Instr& after);

  // Adds hits to a bin (merging runs); false if there is no such bin.
  bool add(const std::string& group, const std::string& name, uint64_t hits,
           uint64_t first = 0);
  // Adds hits to a bin, making it if there is none (the RTL's cover
  // points, kind "uarch", known only from a coverage build's data).
  void add_bin(const std::string& group, const std::string& name, const std::string& kind,
               uint64_t hits);
  // Marks a bin waived; false if there is no such bin.
  bool waive(const std::string& group, const std::string& name, const std::string& why);

  const std::vector<CoverageBin>& bins() const { return bins_; }

 private:
  void hit(const std::string& group, const std::string& name, uint64_t sampled);
  std::vector<CoverageBin> bins_;
  std::map<std::string, uint64_t> sampled_;  // per group
  std::map<std::pair<std::string, std::string>, size_t> index_;
};

// The bin names sample() can hit for one variant, with their kinds (the
// data behind FunctionalCoverage's bins; the tests list them).
std::vector<std::pair<std::string, std::string>> coverage_bin_names(const Instr& instr);

}  // namespace tcu
