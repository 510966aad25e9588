// Functional coverage of the instruction set (`tcu run --coverage`): per
// variant, the classes of the operands' elements, the result's events, the
// sparse metadata and the block scales, and the order of the families in
// the stream. The bins are stated once, as data, in coverage.cpp (kBins:
// which variants have a bin, and the test that hits it); the RTL's own
// cover points (microarchitecture) come from the Verilated model's
// coverage, not from here. The register file's bins (group "regfile": bank
// conflicts, write-back stalls, per family) are data in
// register_file_coverage.cpp, sampled from the schedules an RTL engine's
// front-end ran (tcu::RegisterFileRun).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "tcu/golden.h"
#include "tcu/timing.h"

namespace tcu {

// ---- the register file's bins (group "regfile", kind "regfile") -------------
// One instruction's traffic through the register file (register_file.h) as
// the front-end ran it: the words moved per cycle of its collection and of
// its write-back (collect_schedule's and writeback_schedule's sizes), the
// rates they ran at, the cycles the busiest bank took to read its source
// registers and to write D's, and the cycles back-pressure held its
// write-back.
struct RegisterFileTraffic {
  Family family = Family::kInt4Dense;
  int collect_bandwidth = 0;       // words the collector may forward a cycle
  std::vector<int> collected;      // words forwarded, per collection cycle
  int read_cycles = 0;             // ceil(source registers / (banks * read ports))
  int write_back_bandwidth = 0;    // D words that may arrive a cycle
  std::vector<int> written_back;   // D words arrived, per write-back cycle
  int write_cycles = 0;            // ceil(D registers / (banks * write ports))
  uint64_t write_back_stalls = 0;  // write-back cycles back-pressure held (wb_ready low)
};

// `instr`'s traffic at the front-end's settings: collection at `collect`
// (collect_schedule), write-back at `write_back` (writeback_schedule; the
// front-end's write_back_front_end).
RegisterFileTraffic register_file_traffic(const Instr& instr, const FrontEndConfig& collect,
                                          const FrontEndConfig& write_back,
                                          uint64_t write_back_stalls);

// A family's name in bin names ("int4_dense", "f64", ...).
const char* coverage_family_name(Family family);
// The regfile bins: "<family>.<bin>" for every family, with what hits it.
std::vector<std::pair<std::string, std::string>> register_file_bin_names();
// The regfile bins one instruction's traffic hits, each once.
std::vector<std::string> register_file_hits(const RegisterFileTraffic& traffic);

struct CoverageBin {
  std::string group;   // the variant's PTX spelling, "stream" or "regfile"
  std::string name;    // e.g. "a.max", "d.clamp_high", "meta.0x4"
  std::string kind;    // "operand", "result", "metadata", "scale", "stream", "regfile"
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
  // One instruction's register-file traffic (an RTL engine's front-end).
  void sample_register_file(const RegisterFileTraffic& traffic);

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
