#include "run.h"

#include <chrono>
#include <cstdio>

#include "exit_codes.h"
#include "progress.h"
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

const std::vector<Instr>& run_variants(const RunOptions& options) {
  return options.variants.empty() ? all_variants() : options.variants;
}

uint64_t cases_in_shard(const RunOptions& opt) {
  // Indices i in [first, first + count) with i % N == shard_index.
  const uint64_t n = uint64_t(opt.shard_count), want = uint64_t(opt.shard_index);
  const uint64_t offset = (want + n - opt.first % n) % n;  // first index of the shard
  return offset >= opt.count ? 0 : (opt.count - offset + n - 1) / n;
}

void print_run_variant(std::ostream& out, const VariantResult& v) {
  const uint64_t n = v.passed + v.failed;
  char line[256];
  std::snprintf(line, sizeof line, "  %s %llu/%llu  %10.0f instr/s", v.ok() ? "pass" : "FAIL",
                static_cast<unsigned long long>(v.passed), static_cast<unsigned long long>(n),
                v.seconds > 0 ? double(n) / v.seconds : 0.0);
  out << line;
  if (v.cycles > 0 && n > 0) {
    std::snprintf(line, sizeof line, "  %6.2f cycles/instr", double(v.cycles) / double(n));
    out << line;
  }
  out << "  " << v.ptx << "\n";
}

int print_run_summary(std::ostream& out, const Report& report, double engine_seconds) {
  uint64_t cycles = 0;
  for (const auto& v : report.variants) cycles += v.cycles;
  const uint64_t passed = report.passed(), failed = report.failed();
  char line[200];
  std::snprintf(line, sizeof line, "engine %s: %.0f instr/s overall", report.engine.c_str(),
                engine_seconds > 0 ? double(passed + failed) / engine_seconds : 0.0);
  out << line;
  if (cycles) out << ", " << cycles << " cycles";
  out << "\n";
  if (report.engine_errors())
    out << report.engine_errors() << " engine check(s) failed (timing or scoreboard)\n";
  if (report.engine == "golden")
    out << "note: --engine golden checks the golden model against itself: a self-check of case "
           "generation and a speed measurement, not a verification pass (use --engine rtl)\n";
  out << passed << " passed, " << failed << " failed\n";
  return failed || report.engine_errors() ? kExitMismatch : kExitOk;
}

int run(Engine& engine, const RunOptions& opt, std::ostream& out, Report* report) {
  const auto start = std::chrono::steady_clock::now();
  const std::vector<Instr>& variants = run_variants(opt);
  report->engine = engine.name();
  Progress progress(cases_in_shard(opt) * variants.size());
  ProgressFile progress_file(opt.progress_file);
  double engine_seconds = 0;
  int details = 0;
  for (const Instr& instr : variants) {
    std::vector<uint64_t> indices;
    for (uint64_t i = opt.first; i < opt.first + opt.count; ++i)
      if (int(i % uint64_t(opt.shard_count)) == opt.shard_index) indices.push_back(i);
    VariantResult result;
    result.ptx = instr.ptx();
    const uint64_t cycles_before = engine.cycles();
    for (size_t start = 0; start < indices.size(); start += size_t(opt.batch)) {
      const size_t end = std::min(indices.size(), start + size_t(opt.batch));
      std::vector<WarpOperands> batch;
      for (size_t i = start; i < end; ++i)
        batch.push_back(generate_operands(instr, opt.seed, indices[i]));
      const auto t0 = std::chrono::steady_clock::now();
      const std::vector<Fragment> got = engine.execute_batch(instr, batch);
      result.seconds +=
          std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      for (const std::string& error : engine.take_errors()) {
        ++result.engine_errors;
        if (details++ < opt.max_details) result.details.push_back(error);
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
              result.details.push_back(
                  "mismatch: " + result.ptx + " case " + std::to_string(indices[i]) + " lane " +
                  std::to_string(lane) + " d[" + std::to_string(reg) + "]: expected " +
                  format_register(want.at(lane, reg), bits) + ", got " +
                  format_register(have.at(lane, reg), bits) + "  (re-run: " + opt.rerun_prefix +
                  " --ptx '" + result.ptx + "' --seed " + std::to_string(opt.seed) + " --first " +
                  std::to_string(indices[i]) + " --count 1)");
            break;
          }
        (ok ? result.passed : result.failed)++;
      }
      progress.advance(end - start);
      progress_file.advance(end - start);
    }
    result.cycles = engine.cycles() - cycles_before;
    engine_seconds += result.seconds;
    progress.clear();
    for (const std::string& line : result.details) out << "  " << line << "\n";
    print_run_variant(out, result);
    out.flush();
    report->variants.push_back(std::move(result));
  }
  progress.clear();
  report->exit_code = print_run_summary(out, *report, engine_seconds);
  report->wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report->exit_code;
}

}  // namespace tcu
