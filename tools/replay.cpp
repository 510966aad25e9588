#include "replay.h"

#include <zlib.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <optional>

#include "coverage.h"
#include "exit_codes.h"
#include "progress.h"
#include "tcu/vectors.h"

namespace tcu {
namespace {

struct VariantCount {
  int order = 0;
  VariantResult result;
};

// Lines in the files (one case each), for the progress display; unreadable
// files count 0 here and are reported when replayed.
uint64_t count_lines(const std::vector<std::string>& files) {
  uint64_t lines = 0;
  std::vector<char> buffer(1 << 16);
  for (const std::string& file : files) {
    gzFile gz = gzopen(file.c_str(), "rb");
    if (!gz) continue;
    int n;
    while ((n = gzread(gz, buffer.data(), unsigned(buffer.size()))) > 0)
      lines += uint64_t(std::count(buffer.data(), buffer.data() + n, '\n'));
    gzclose(gz);
  }
  return lines;
}

}  // namespace

int replay(Engine& engine, const std::vector<std::string>& files, const ReplayOptions& options,
           std::ostream& out, std::ostream& err, Report* report) {
  const auto start = std::chrono::steady_clock::now();
  report->engine = engine.name();
  if (options.refuse) {
    // Up front, so that no case of a refused variant reaches the engine.
    // Unreadable files are left to the replay itself to report.
    for (const std::string& file : files) {
      try {
        VectorReader reader(file);
        MmaCase mc;
        while (reader.next(&mc))
          if (const std::string why = options.refuse(mc.instr); !why.empty()) {
            err << "error: " << mc.where() << ": case " << mc.id << ": " << why << "\n";
            report->exit_code = kExitUsage;
            return kExitUsage;
          }
      } catch (const std::exception&) {
      }
    }
  }
  long passed = 0, failed = 0, engine_errors = 0;
  int details = 0;
  std::string hang;  // the engine hung: the replay stops
  const bool show_progress = Progress::terminal();
  Progress progress(show_progress ? count_lines(files) : 0, show_progress);
  // Consecutive cases of one variant go to the engine as a batch, so a
  // pipelined engine overlaps them.
  constexpr size_t kBatch = 64;
  std::vector<MmaCase> batch;
  std::optional<CoverageSampler> sampler;
  if (options.coverage) sampler.emplace(options.coverage);
  for (const std::string& file : files) {
    if (!hang.empty()) break;
    std::map<std::string, VariantCount> variants;
    auto flush = [&] {
      if (batch.empty() || !hang.empty()) return;
      const Instr& instr = batch.front().instr;
      const std::string variant = instr.ptx();
      VariantResult& result = variants[variant].result;
      std::vector<StreamItem> items;
      for (const MmaCase& mc : batch) items.push_back({mc.instr, mc.operands, mc.id});
      const auto t0 = std::chrono::steady_clock::now();
      const uint64_t cycles_before = engine.cycles();
      std::vector<Fragment> results;
      try {
        results = engine.execute_stream(items);
      } catch (const DesignFailure& e) {
        hang = std::string(e.what()) + " (the batch of cases " + batch.front().where() + " to " +
               batch.back().where() + "; re-run: " + options.rerun_prefix + " " + file + ")";
      }
      result.seconds +=
          std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      result.cycles += engine.cycles() - cycles_before;
      // A scoreboard line names its case ("cosim: <ptx> case <id> cycle ...").
      std::vector<bool> flagged(batch.size(), false);
      for (const std::string& e : engine.take_errors()) {
        ++engine_errors;
        ++result.engine_errors;
        std::string line = e;
        for (size_t i = 0; i < batch.size(); ++i)
          if (e.rfind("cosim: " + variant + " case " + batch[i].id + " cycle ", 0) == 0) {
            flagged[i] = true;
            line += "  (" + batch[i].where() + ")";
            break;
          }
        if (details++ < options.max_details) {
          progress.clear();
          out << "  " << line << "\n";
          result.details.push_back(line);
        }
      }
      if (!hang.empty()) {
        result.failed += batch.size();
        failed += long(batch.size());
        const std::string line = "hang: " + hang;
        progress.clear();
        out << "  " << line << "\n";
        result.details.push_back(line);
        batch.clear();
        return;
      }
      if (sampler) sampler->sample(engine, items);
      const int bits = fragment_layout(instr, Operand::kD).reg_bits();
      for (size_t i = 0; i < batch.size(); ++i) {
        const MmaCase& mc = batch[i];
        bool ok = !flagged[i];
        for (int lane = 0; lane < kLanes; ++lane)
          for (int reg = 0; reg < mc.d.regs_per_lane; ++reg) {
            const uint64_t want = mc.d.at(lane, reg), have = results[i].at(lane, reg);
            if (want == have) continue;
            ok = false;
            if (details++ < options.max_details) {
              const std::string line =
                  "mismatch: " + variant + " case " + mc.id + " (" + mc.where() + ") lane " +
                  std::to_string(lane) + " d[" + std::to_string(reg) + "]: expected " +
                  format_register(want, bits) + ", got " + format_register(have, bits);
              progress.clear();
              out << "  " << line << "\n";
              result.details.push_back(line);
            }
          }
        (ok ? result.passed : result.failed)++;
        (ok ? passed : failed)++;
      }
      progress.advance(batch.size());
      batch.clear();
    };
    try {
      VectorReader reader(file);
      MmaCase mc;
      while (hang.empty() && reader.next(&mc)) {
        auto& count = variants[mc.instr.ptx()];
        if (count.order == 0) {
          count.order = int(variants.size());
          count.result.ptx = mc.instr.ptx();
          count.result.file = file;
        }
        try {
          validate_operands(mc.instr, mc.operands);
        } catch (const OperandError& e) {
          throw OperandError(mc.where() + ": case " + mc.id + ": " + e.what());
        }
        if (!batch.empty() && batch.front().instr.ptx() != mc.instr.ptx()) flush();
        batch.push_back(mc);
        if (batch.size() == kBatch) flush();
      }
      flush();
    } catch (const VectorError& e) {
      progress.clear();
      err << "error: " << e.what() << "\n";
      return kExitBadVectorFile;
    } catch (const InstrError& e) {
      progress.clear();
      err << "error: " << e.what() << "\n";
      return kExitBadInstruction;
    } catch (const OperandError& e) {
      progress.clear();
      err << "error: " << e.what() << "\n";
      return kExitBadOperand;
    }
    std::vector<std::pair<int, std::string>> order;
    for (const auto& [name, count] : variants) order.emplace_back(count.order, name);
    std::sort(order.begin(), order.end());
    progress.clear();
    out << file << " [" << engine.name() << "]\n";
    for (const auto& [rank, name] : order) {
      const VariantResult& c = variants[name].result;
      out << "  " << (c.ok() ? "pass " : "FAIL ") << c.passed << "/" << c.passed + c.failed << "  "
          << name << "\n";
      report->variants.push_back(c);
    }
  }
  progress.clear();
  if (!hang.empty()) out << "the replay stopped at the hang\n";
  if (engine_errors) out << engine_errors << " engine check(s) failed (timing or scoreboard)\n";
  out << passed << " passed, " << failed << " failed\n";
  report->exit_code = failed || engine_errors ? kExitMismatch : kExitOk;
  report->wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report->exit_code;
}

}  // namespace tcu
