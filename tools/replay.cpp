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
  long seen = 0;  // the file's cases of the variant, replayed or skipped (stride)
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

// A case refused by options.refuse stops the replay before anything runs
// (its message to `err`): returns kExitUsage, else -1. Unreadable files are
// left to the replay itself to report.
int refused_case(const std::vector<std::string>& files, const ReplayOptions& options,
                 std::ostream& err) {
  for (const std::string& file : files) {
    try {
      VectorReader reader(file);
      MmaCase mc;
      while (reader.next(&mc))
        if (const std::string why = options.refuse(mc.instr); !why.empty()) {
          err << "error: " << mc.where() << ": case " << mc.id << ": " << why << "\n";
          return kExitUsage;
        }
    } catch (const std::exception&) {
    }
  }
  return -1;
}

// The replay of the files, file by file: consecutive cases of one variant go
// to the engine as a batch, so a pipelined engine overlaps them.
class Replayer {
 public:
  Replayer(Engine& engine, const std::vector<std::string>& files, const ReplayOptions& options,
           std::ostream& out, std::ostream& err)
      : engine_(engine),
        options_(options),
        out_(out),
        err_(err),
        progress_(Progress::terminal() ? count_lines(files) : 0, Progress::terminal()) {
    if (options.coverage) sampler_.emplace(options.coverage);
  }
  // One file's cases, then its lines per variant into `report`; returns an
  // exit code for a bad file, else -1.
  int replay_file(const std::string& file, Report* report);
  bool hung() const { return !hang_.empty(); }
  // The closing lines; returns the exit code.
  int finish();

 private:
  using Variants = std::map<std::string, VariantCount>;
  static constexpr size_t kBatch = 64;
  // A detail line (the first max_details).
  void detail(VariantResult& result, const std::string& line) {
    if (details_++ >= options_.max_details) return;
    progress_.clear();
    out_ << "  " << line << "\n";
    result.details.push_back(line);
  }
  // The batch through the engine and checked.
  void flush(const std::string& file, Variants& variants);
  // The engine's errors, each flagging the case it names.
  std::vector<bool> take_engine_errors(VariantResult& result, const std::string& variant);
  void compare(VariantResult& result, const std::vector<Fragment>& results,
               const std::vector<bool>& flagged);
  void print_file(const std::string& file, Variants& variants, Report* report);

  Engine& engine_;
  const ReplayOptions& options_;
  std::ostream& out_;
  std::ostream& err_;
  Progress progress_;
  std::optional<CoverageSampler> sampler_;
  long passed_ = 0, failed_ = 0, engine_errors_ = 0;
  int details_ = 0;
  std::string hang_;  // the engine hung: the replay stops
  std::vector<MmaCase> batch_;
};

std::vector<bool> Replayer::take_engine_errors(VariantResult& result, const std::string& variant) {
  // A scoreboard line names its case ("cosim: <ptx> case <id> cycle ...").
  std::vector<bool> flagged(batch_.size(), false);
  for (const std::string& e : engine_.take_errors()) {
    ++engine_errors_;
    ++result.engine_errors;
    std::string line = e;
    for (size_t i = 0; i < batch_.size(); ++i)
      if (e.rfind("cosim: " + variant + " case " + batch_[i].id + " cycle ", 0) == 0) {
        flagged[i] = true;
        line += "  (" + batch_[i].where() + ")";
        break;
      }
    detail(result, line);
  }
  return flagged;
}

void Replayer::compare(VariantResult& result, const std::vector<Fragment>& results,
                       const std::vector<bool>& flagged) {
  const Instr& instr = batch_.front().instr;
  const std::string variant = instr.ptx();
  const int bits = fragment_layout(instr, Operand::kD).reg_bits();
  for (size_t i = 0; i < batch_.size(); ++i) {
    const MmaCase& mc = batch_[i];
    bool ok = !flagged[i];
    for (int lane = 0; lane < kLanes; ++lane)
      for (int reg = 0; reg < mc.d.regs_per_lane; ++reg) {
        const uint64_t want = mc.d.at(lane, reg), have = results[i].at(lane, reg);
        if (want == have) continue;
        ok = false;
        if (details_ < options_.max_details)
          detail(result, "mismatch: " + variant + " case " + mc.id + " (" + mc.where() +
                             ") lane " + std::to_string(lane) + " d[" + std::to_string(reg) +
                             "]: expected " + format_register(want, bits) + ", got " +
                             format_register(have, bits));
        else
          ++details_;
      }
    (ok ? result.passed : result.failed)++;
    (ok ? passed_ : failed_)++;
  }
}

void Replayer::flush(const std::string& file, Variants& variants) {
  if (batch_.empty() || !hang_.empty()) return;
  const std::string variant = batch_.front().instr.ptx();
  VariantResult& result = variants[variant].result;
  std::vector<StreamItem> items;
  for (const MmaCase& mc : batch_) items.push_back({mc.instr, mc.operands, mc.id});
  const auto t0 = std::chrono::steady_clock::now();
  const uint64_t cycles_before = engine_.cycles();
  std::vector<Fragment> results;
  try {
    results = engine_.execute_stream(items);
  } catch (const DesignFailure& e) {
    hang_ = std::string(e.what()) + " (the batch of cases " + batch_.front().where() + " to " +
            batch_.back().where() + "; re-run: " + options_.rerun_prefix + " " + file + ")";
  }
  result.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  result.cycles += engine_.cycles() - cycles_before;
  const std::vector<bool> flagged = take_engine_errors(result, variant);
  if (!hang_.empty()) {
    result.failed += batch_.size();
    failed_ += long(batch_.size());
    const std::string line = "hang: " + hang_;
    progress_.clear();
    out_ << "  " << line << "\n";
    result.details.push_back(line);
    batch_.clear();
    return;
  }
  if (sampler_) sampler_->sample(engine_, items);
  compare(result, results, flagged);
  progress_.advance(batch_.size());
  batch_.clear();
}

void Replayer::print_file(const std::string& file, Variants& variants, Report* report) {
  std::vector<std::pair<int, std::string>> order;
  for (const auto& [name, count] : variants) order.emplace_back(count.order, name);
  std::sort(order.begin(), order.end());
  progress_.clear();
  out_ << file << " [" << engine_.name() << "]\n";
  for (const auto& [rank, name] : order) {
    const VariantResult& c = variants[name].result;
    out_ << "  " << (c.ok() ? "pass " : "FAIL ") << c.passed << "/" << c.passed + c.failed << "  "
         << name << "\n";
    report->variants.push_back(c);
  }
}

int Replayer::replay_file(const std::string& file, Report* report) {
  Variants variants;
  try {
    VectorReader reader(file);
    MmaCase mc;
    while (hang_.empty() && reader.next(&mc)) {
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
      if (count.seen++ % options_.stride != 0) continue;
      if (!batch_.empty() && batch_.front().instr.ptx() != mc.instr.ptx()) flush(file, variants);
      batch_.push_back(mc);
      if (batch_.size() == kBatch) flush(file, variants);
    }
    flush(file, variants);
  } catch (const VectorError& e) {
    progress_.clear();
    err_ << "error: " << e.what() << "\n";
    return kExitBadVectorFile;
  } catch (const InstrError& e) {
    progress_.clear();
    err_ << "error: " << e.what() << "\n";
    return kExitBadInstruction;
  } catch (const OperandError& e) {
    progress_.clear();
    err_ << "error: " << e.what() << "\n";
    return kExitBadOperand;
  }
  print_file(file, variants, report);
  return -1;
}

int Replayer::finish() {
  progress_.clear();
  if (!hang_.empty()) out_ << "the replay stopped at the hang\n";
  if (engine_errors_) out_ << engine_errors_ << " engine check(s) failed (timing or scoreboard)\n";
  out_ << passed_ << " passed, " << failed_ << " failed\n";
  return failed_ || engine_errors_ ? kExitMismatch : kExitOk;
}

}  // namespace

int replay(Engine& engine, const std::vector<std::string>& files, const ReplayOptions& options,
           std::ostream& out, std::ostream& err, Report* report) {
  const auto start = std::chrono::steady_clock::now();
  report->engine = engine.name();
  // Up front, so that no case of a refused variant reaches the engine.
  if (options.refuse && refused_case(files, options, err) >= 0) {
    report->exit_code = kExitUsage;
    return kExitUsage;
  }
  Replayer replayer(engine, files, options, out, err);
  for (const std::string& file : files) {
    if (replayer.hung()) break;
    if (const int code = replayer.replay_file(file, report); code >= 0) return code;
  }
  report->exit_code = replayer.finish();
  report->wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report->exit_code;
}

}  // namespace tcu
