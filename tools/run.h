// `tcu run`: random register contents, back to back through an engine,
// every result checked against the golden model.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "tcu/engine.h"

namespace tcu {

struct RunOptions {
  std::vector<Instr> variants;  // empty: every variant in scope
  uint64_t count = 1000;        // cases per variant (before sharding)
  uint64_t first = 0;           // first case index
  uint64_t seed = 1;
  int shard_index = 0, shard_count = 1;
  int batch = 64;  // cases handed to the engine at once
  int max_details = 5;
};

// Returns an ExitCode; prints a line per variant and a summary.
int run(Engine& engine, const RunOptions& options, std::ostream& out);

// Parses "i/N" (0 <= i < N); false if malformed.
bool parse_shard(const std::string& text, int* index, int* count);

}  // namespace tcu
