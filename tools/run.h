// `tcu run`: random register contents, back to back through an engine,
// every result checked against the golden model.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "report.h"
#include "tcu/coverage.h"
#include "tcu/engine.h"
#include "tcu/generator.h"

namespace tcu {

struct RunOptions {
  std::vector<Instr> variants;  // empty: every variant in scope
  // One stream interleaving the variants at random (case i's variant follows
  // from (seed, i)), instead of one variant after another.
  bool mix = false;
  uint64_t count = 1000;  // cases per variant, or the stream's length with mix
  uint64_t first = 0;     // first case index
  uint64_t seed = 1;
  // The chance that each operand of a random case takes encodings of its
  // format's classes (generate_operands).
  double special_rate = kDefaultSpecialRate;
  int shard_index = 0, shard_count = 1;
  // Cases handed to the engine at once: an RTL engine drains its pipeline
  // at the end of each (the last instruction's latency).
  int batch = 256;
  int max_details = 5;
  // Start of the command line that re-runs a case: the program and every
  // option but the cases' ("tcu run --engine rtl --config small
  // --backpressure 0.3"); a failure appends --mix, --ptx, --seed, --first,
  // --count (and --shard, --jobs 1 for its batch).
  std::string rerun_prefix = "tcu run";
  // The RTL engine's --backpressure: without it no pipeline ever holds, and
  // the activity check expects no stalled cycle.
  double backpressure = 0;
  std::string progress_file;  // set by `run --jobs` in its children
  // Keep a CaseRecord of every case in the report (--record-cases), so that
  // reports can be compared case for case (`tcu run merge --compare`).
  bool record_cases = false;
  // Functional coverage of the run's instructions (`--coverage`), or null.
  FunctionalCoverage* coverage = nullptr;
  // Print the engine's activity counters and check them against the run's
  // instructions; off for an engine that ran other work before the run
  // (`tcu bench`'s, whose counters count every measurement).
  bool activity = true;
};

// The variants a run covers and the number of cases of each in its shard.
const std::vector<Instr>& run_variants(const RunOptions& options);
uint64_t cases_in_shard(const RunOptions& options);
// All cases of the run in its shard: of every variant, or of the stream.
uint64_t cases_in_run(const RunOptions& options);
// With mix: the position in run_variants() of case `index`'s variant.
size_t mixed_variant(uint64_t seed, uint64_t index, size_t variant_count);

// Runs, prints a line per variant and a summary, fills report->variants,
// activity (an RTL engine's counters, relative to report->datapath, which
// the caller sets), wall_seconds and exit_code, and returns an ExitCode.
int run(Engine& engine, const RunOptions& options, std::ostream& out, Report* report);

// The per-variant line of `run` ("  pass 100/100  ... instr/s ... ptx").
void print_run_variant(std::ostream& out, const VariantResult& result);
// The closing lines (throughput, engine checks, "N passed, M failed");
// returns the exit code they stand for.
int print_run_summary(std::ostream& out, const Report& report, double engine_seconds);

// A digest of an engine's D fragment (FNV-1a over its registers), as hex.
std::string fragment_digest(const Fragment& fragment);

// Parses "i/N" (0 <= i < N); false if malformed.
bool parse_shard(const std::string& text, int* index, int* count);

}  // namespace tcu
