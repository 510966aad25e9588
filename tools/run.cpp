#include "run.h"

#include <chrono>
#include <cstdio>

#include "exit_codes.h"
#include "tcu/generator.h"
#include "tcu/vectors.h"

namespace tcu {

bool parse_shard(const std::string& text, int* index, int* count) {
  int i = 0, n = 0;
  char extra = 0;
  if (std::sscanf(text.c_str(), "%d/%d%c", &i, &n, &extra) != 2) return false;
  if (n < 1 || i < 0 || i >= n) return false;
  *index = i;
  *count = n;
  return true;
}

int run(Engine& engine, const RunOptions& opt, std::ostream& out) {
  const std::vector<Instr>& variants = opt.variants.empty() ? all_variants() : opt.variants;
  uint64_t total_pass = 0, total_fail = 0, total_cycles = 0, engine_errors = 0;
  double total_seconds = 0;
  int details = 0;
  for (const Instr& instr : variants) {
    std::vector<uint64_t> indices;
    for (uint64_t i = opt.first; i < opt.first + opt.count; ++i)
      if (int(i % uint64_t(opt.shard_count)) == opt.shard_index) indices.push_back(i);
    uint64_t pass = 0, fail = 0;
    const uint64_t cycles_before = engine.cycles();
    double seconds = 0;
    for (size_t start = 0; start < indices.size(); start += size_t(opt.batch)) {
      const size_t end = std::min(indices.size(), start + size_t(opt.batch));
      std::vector<WarpOperands> batch;
      for (size_t i = start; i < end; ++i)
        batch.push_back(generate_operands(instr, opt.seed, indices[i]));
      const auto t0 = std::chrono::steady_clock::now();
      const std::vector<Fragment> got = engine.execute_batch(instr, batch);
      seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      for (const std::string& error : engine.take_errors()) {
        ++engine_errors;
        if (details++ < opt.max_details) out << "  " << error << "\n";
      }
      const int bits = fragment_layout(instr, Operand::kD).reg_bits();
      for (size_t i = start; i < end; ++i) {
        const Fragment want = golden_execute(instr, batch[i - start]);
        const Fragment& have = got[i - start];
        bool ok = true;
        for (int lane = 0; lane < kLanes && ok; ++lane)
          for (int reg = 0; reg < want.regs_per_lane; ++reg) {
            if (want.at(lane, reg) == have.at(lane, reg)) continue;
            ok = false;
            if (details++ < opt.max_details)
              out << "  mismatch: " << instr.ptx() << " case " << indices[i] << " lane " << lane
                  << " d[" << reg << "]: expected " << format_register(want.at(lane, reg), bits)
                  << ", got " << format_register(have.at(lane, reg), bits)
                  << "  (re-run: tcu run --ptx '" << instr.ptx() << "' --seed " << opt.seed
                  << " --first " << indices[i] << " --count 1)\n";
            break;
          }
        (ok ? pass : fail)++;
      }
    }
    const uint64_t cycles = engine.cycles() - cycles_before;
    const uint64_t n = pass + fail;
    char line[256];
    std::snprintf(line, sizeof line, "  %s %llu/%llu  %10.0f instr/s", fail ? "FAIL" : "pass",
                  static_cast<unsigned long long>(pass), static_cast<unsigned long long>(n),
                  seconds > 0 ? double(n) / seconds : 0.0);
    out << line;
    if (cycles > 0 && n > 0) {
      std::snprintf(line, sizeof line, "  %6.2f cycles/instr", double(cycles) / double(n));
      out << line;
    }
    out << "  " << instr.ptx() << "\n";
    total_pass += pass;
    total_fail += fail;
    total_cycles += cycles;
    total_seconds += seconds;
  }
  char line[200];
  std::snprintf(line, sizeof line, "engine %s: %.0f instr/s overall", engine.name().c_str(),
                total_seconds > 0 ? double(total_pass + total_fail) / total_seconds : 0.0);
  out << line;
  if (total_cycles) out << ", " << total_cycles << " cycles";
  out << "\n";
  if (engine_errors) out << engine_errors << " engine check(s) failed (timing or scoreboard)\n";
  out << total_pass << " passed, " << total_fail << " failed\n";
  return total_fail || engine_errors ? kExitMismatch : kExitOk;
}

}  // namespace tcu
