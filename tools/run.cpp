#include "run.h"

#include <array>
#include <chrono>
#include <cstdio>
#include <map>
#include <optional>
#include <unordered_map>

#include "coverage.h"
#include "exit_codes.h"
#include "progress.h"
#include "tcu/activity.h"
#include "tcu/generator.h"
#include "tcu/instr.h"
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

std::string fragment_digest(const Fragment& fragment) {
  uint64_t hash = 0xcbf29ce484222325ull;
  auto mix = [&hash](uint64_t value) {
    for (int byte = 0; byte < 8; ++byte) {
      hash ^= (value >> (8 * byte)) & 0xff;
      hash *= 0x100000001b3ull;
    }
  };
  mix(uint64_t(fragment.regs_per_lane));
  for (uint64_t reg : fragment.regs) mix(reg);
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(hash));
  return text;
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

namespace {

uint64_t splitmix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

struct PlannedCase {
  uint64_t index;
  size_t variant;  // position in run_variants()
};

// The --ptx (and --mix) arguments that select a case's variant again.
std::string variant_args(const RunOptions& opt, const Instr& instr) {
  if (!opt.mix) return " --ptx '" + instr.ptx() + "'";
  std::string args = " --mix";
  for (const Instr& variant : opt.variants) args += " --ptx '" + variant.ptx() + "'";
  return args;
}

// The command that re-runs the batch [first, last] of the run's shard, in
// one process so that it is again one batch.
std::string rerun_batch(const RunOptions& opt, const Instr& instr, uint64_t first, uint64_t last) {
  std::string command = opt.rerun_prefix + variant_args(opt, instr) + " --seed " +
                        std::to_string(opt.seed) + " --first " + std::to_string(first) +
                        " --count " + std::to_string(last - first + 1);
  if (opt.shard_count > 1)
    command +=
        " --shard " + std::to_string(opt.shard_index) + "/" + std::to_string(opt.shard_count);
  return command + " --jobs 1";
}

std::string rerun_text(const RunOptions& opt, const Instr& instr, uint64_t index, uint64_t first,
                       uint64_t last) {
  std::string text =
      opt.mix ? "re-run alone (same variant and operands, other neighbours): " : "re-run: ";
  text += opt.rerun_prefix + variant_args(opt, instr) + " --seed " + std::to_string(opt.seed) +
          " --first " + std::to_string(index) + " --count 1";
  if (first != last) text += "; with its batch: " + rerun_batch(opt, instr, first, last);
  return text;
}

// The case a scoreboard line ("cosim: <ptx> case <id> cycle C: ...") names,
// as a position in `ids`; npos if it names none of them.
size_t named_case(const std::string& error,
                  const std::unordered_map<std::string, size_t>& position_of_id) {
  const size_t case_at = error.find(" case ");
  if (error.rfind("cosim: ", 0) != 0 || case_at == std::string::npos) return std::string::npos;
  const size_t id_at = case_at + 6, cycle_at = error.find(" cycle ", id_at);
  if (cycle_at == std::string::npos) return std::string::npos;
  const auto found = position_of_id.find(error.substr(id_at, cycle_at - id_at));
  return found == position_of_id.end() ? std::string::npos : found->second;
}

// The activity counters against what the run issued (tcu::
// activity_disagreements, and no stalled cycle without back-pressure); each
// disagreement is an engine check failed, charged to the first variant of
// its engine (so that `run --jobs` and the reports carry it). True if none.
bool check_activity(const Activity& counters, bool backpressure,
                    const std::optional<ReferenceActivity>& reference,
                    std::vector<VariantResult>& variants, std::ostream& out) {
  RunIssue issued{};
  std::array<VariantResult*, kActivityEngines> first_variant{};
  for (VariantResult& v : variants) {
    const std::optional<MacCounts> macs = instruction_macs(v.ptx);
    if (!macs) continue;
    const size_t e = size_t(activity_engine(parse_ptx(v.ptx).family));
    issued[e].instructions += v.instruction_count();
    issued[e].macs += macs->issued * v.instruction_count();
    if (!first_variant[e]) first_variant[e] = &v;
  }
  const std::vector<ActivityDisagreement> problems =
      activity_disagreements(counters, issued, backpressure, reference);
  for (const ActivityDisagreement& p : problems) {
    out << "activity counters disagree with the run: " << p.text << "\n";
    VariantResult* charged = p.engine && first_variant[size_t(*p.engine)]
                                 ? first_variant[size_t(*p.engine)]
                                 : &variants.front();
    ++charged->engine_errors;
    charged->details.push_back("activity counters: " + p.text);
  }
  return problems.empty();
}

// One run: its batches through the engine, each case checked, the results
// per variant.
class Runner {
 public:
  Runner(Engine& engine, const RunOptions& opt, std::ostream& out)
      : engine_(engine),
        opt_(opt),
        out_(out),
        variants_(run_variants(opt)),
        results_(variants_.size()),
        progress_(cases_in_run(opt)),
        progress_file_(opt.progress_file) {
    for (size_t v = 0; v < variants_.size(); ++v) {
      results_[v].ptx = variants_[v].ptx();
      if (opt.record_cases) results_[v].cases.emplace();
    }
    if (opt.coverage) sampler_.emplace(opt.coverage);
  }

  // Every case of the shard, in batches, a line per variant.
  void run_all();
  // The report's variants, activity and exit code; returns the exit code.
  int finish(Report* report);

 private:
  // The case's D digest (of `d`, none when null) only where cases are recorded.
  void record(const PlannedCase& c, bool ok, const Fragment* d) {
    if (opt_.record_cases)
      results_[c.variant].cases->push_back({c.index, ok, d ? fragment_digest(*d) : ""});
  }
  // A detail line of `variant` (the first max_details, or `always`).
  void note(size_t variant, const std::string& line, bool always) {
    if (!always && details_++ >= opt_.max_details) return;
    progress_.clear();
    out_ << "  " << line << "\n";
    results_[variant].details.push_back(line);
  }
  void print_variant(size_t v) {
    progress_.clear();
    print_run_variant(out_, results_[v]);
    out_.flush();
  }
  // Runs one batch back to back; false after a hang (the engine is unusable).
  bool run_batch(const std::vector<PlannedCase>& cases);
  // The batch's cases into items_, each with its golden D (in want_).
  void prepare(const std::vector<PlannedCase>& cases);
  // The batch through the engine (a hang into hang_; its D into got_), its
  // time and cycles shared among its variants by their cases.
  void execute(const std::vector<PlannedCase>& cases, const std::vector<StreamItem>& items);
  // The engine's errors, each charged to the case it names; which failed.
  std::vector<bool> take_engine_errors(const std::vector<PlannedCase>& cases,
                                       const std::vector<StreamItem>& items);
  // Every case's D against the golden model's (`want`, the items' expected).
  void compare(const std::vector<PlannedCase>& cases, const std::vector<StreamItem>& items,
               const std::vector<Fragment>& want, const std::vector<Fragment>& got,
               const std::vector<bool>& failed);

  Engine& engine_;
  const RunOptions& opt_;
  std::ostream& out_;
  const std::vector<Instr>& variants_;
  std::vector<VariantResult> results_;
  Progress progress_;
  ProgressFile progress_file_;
  double engine_seconds_ = 0;
  int details_ = 0;
  uint64_t cases_run_ = 0;
  std::string hang_;
  std::optional<CoverageSampler> sampler_;
  // A batch's cases, their golden D and the engine's, a slot a case, their
  // storage reused from batch to batch.
  std::vector<StreamItem> items_;
  std::vector<Fragment> want_, got_;
};

void Runner::execute(const std::vector<PlannedCase>& cases, const std::vector<StreamItem>& items) {
  const auto t0 = std::chrono::steady_clock::now();
  const uint64_t cycles_before = engine_.cycles();
  try {
    engine_.execute_stream_into(items, &got_);
  } catch (const DesignFailure& e) {
    hang_ = e.what();
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const uint64_t cycles = engine_.cycles() - cycles_before;
  engine_seconds_ += seconds;
  // A variant's share of the batch's time and cycles is its share of the cases.
  std::map<size_t, uint64_t> cases_of_variant;
  for (const PlannedCase& c : cases) ++cases_of_variant[c.variant];
  uint64_t cycles_shared = 0;
  for (const auto& [variant, n] : cases_of_variant) {
    results_[variant].seconds += seconds * double(n) / double(cases.size());
    results_[variant].cycles += cycles * n / cases.size();
    cycles_shared += cycles * n / cases.size();
  }
  results_[cases.front().variant].cycles += cycles - cycles_shared;
}

std::vector<bool> Runner::take_engine_errors(const std::vector<PlannedCase>& cases,
                                             const std::vector<StreamItem>& items) {
  const uint64_t first = cases.front().index, last = cases.back().index;
  std::vector<bool> failed(items.size(), false);
  const std::vector<std::string> errors = engine_.take_errors();
  if (errors.empty()) return failed;  // (the usual batch: no case table to build)
  std::unordered_map<std::string, size_t> position_of_id;
  for (size_t p = 0; p < items.size(); ++p) position_of_id[items[p].case_id] = p;
  for (const std::string& error : errors) {
    const size_t p = named_case(error, position_of_id);
    const size_t variant = p == std::string::npos ? cases.front().variant : cases[p].variant;
    ++results_[variant].engine_errors;
    if (p == std::string::npos) {
      note(variant, error, false);
      continue;
    }
    failed[p] = true;
    note(variant,
         error + "  (" + rerun_text(opt_, items[p].instr, cases[p].index, first, last) + ")",
         false);
  }
  return failed;
}

void Runner::compare(const std::vector<PlannedCase>& cases, const std::vector<StreamItem>& items,
                     const std::vector<Fragment>& wants, const std::vector<Fragment>& got,
                     const std::vector<bool>& failed) {
  const uint64_t first = cases.front().index, last = cases.back().index;
  for (size_t p = 0; p < items.size(); ++p) {
    const Instr& instr = items[p].instr;
    const Fragment& want = wants[p];
    const Fragment& have = got[p];
    bool ok = true;
    for (int lane = 0; lane < kLanes && ok; ++lane)
      for (int reg = 0; reg < want.regs_per_lane; ++reg) {
        if (want.at(lane, reg) == have.at(lane, reg)) continue;
        ok = false;
        const int bits = fragment_layout(instr, Operand::kD).reg_bits();
        note(cases[p].variant,
             "mismatch: " + instr.ptx() + " case " + items[p].case_id + " lane " +
                 std::to_string(lane) + " d[" + std::to_string(reg) + "]: expected " +
                 format_register(want.at(lane, reg), bits) + ", got " +
                 format_register(have.at(lane, reg), bits) + "  (" +
                 rerun_text(opt_, instr, cases[p].index, first, last) + ")",
             false);
        break;
      }
    (ok && !failed[p] ? results_[cases[p].variant].passed : results_[cases[p].variant].failed)++;
    record(cases[p], ok && !failed[p], &have);
  }
}

void Runner::prepare(const std::vector<PlannedCase>& cases) {
  // Each case's golden D is computed once, before the engine runs: the
  // check compares against it, and an engine with a golden scoreboard
  // (RTL) takes it as its expectation.
  items_.resize(cases.size());
  want_.resize(cases.size());
  for (size_t p = 0; p < cases.size(); ++p) {
    StreamItem& item = items_[p];
    item.instr = variants_[cases[p].variant];
    generate_operands(item.instr, opt_.seed, cases[p].index, opt_.special_rate, &item.operands);
    item.case_id = std::to_string(cases[p].index);
    golden_execute(item.instr, item.operands, &want_[p]);
    item.expected = &want_[p];
  }
}

bool Runner::run_batch(const std::vector<PlannedCase>& cases) {
  prepare(cases);
  const std::vector<StreamItem>& items = items_;
  const std::vector<Fragment>& want = want_;
  execute(cases, items);
  const std::vector<Fragment>& got = got_;
  const std::vector<bool> failed = take_engine_errors(cases, items);
  if (!hang_.empty()) {
    for (const PlannedCase& c : cases) {
      ++results_[c.variant].failed;
      record(c, false, nullptr);
    }
    note(cases.front().variant,
         "hang: " + hang_ + "  (re-run its batch: " +
             rerun_batch(opt_, variants_[cases.front().variant], cases.front().index,
                         cases.back().index) +
             ")",
         true);
    cases_run_ += cases.size();
    return false;
  }
  if (sampler_) sampler_->sample(engine_, items);
  compare(cases, items, want, got, failed);
  cases_run_ += cases.size();
  progress_.advance(cases.size());
  progress_file_.advance(cases.size());
  return true;
}

void Runner::run_all() {
  // The shard's indices: first_in_shard, + shard_count, ...
  const uint64_t in_shard = cases_in_shard(opt_);
  const uint64_t step = uint64_t(opt_.shard_count);
  const uint64_t first_in_shard =
      opt_.first + (uint64_t(opt_.shard_index) + step - opt_.first % step) % step;
  std::vector<PlannedCase> batch;
  if (opt_.mix) {
    for (uint64_t n = 0; n < in_shard && hang_.empty(); ++n) {
      const uint64_t index = first_in_shard + n * step;
      batch.push_back({index, mixed_variant(opt_.seed, index, variants_.size())});
      if (batch.size() == size_t(opt_.batch) || n + 1 == in_shard) {
        run_batch(batch);
        batch.clear();
      }
    }
    for (size_t v = 0; v < variants_.size(); ++v) print_variant(v);
    return;
  }
  for (size_t v = 0; v < variants_.size(); ++v) {
    for (uint64_t n = 0; n < in_shard && hang_.empty(); ++n) {
      batch.push_back({first_in_shard + n * step, v});
      if (batch.size() == size_t(opt_.batch) || n + 1 == in_shard) {
        run_batch(batch);
        batch.clear();
      }
    }
    print_variant(v);
  }
}

int Runner::finish(Report* report) {
  report->variants = std::move(results_);
  if (std::optional<Activity> activity = opt_.activity ? engine_.activity() : std::nullopt) {
    for (const VariantResult& v : report->variants)
      activity->router_words += v.instruction_count() * router_words(parse_ptx(v.ptx));
    report->activity = activity;
    progress_.clear();
    print_activity(out_, *activity, report->datapath);
    if (hang_.empty() && !report->variants.empty())
      check_activity(*activity, opt_.backpressure > 0, engine_.expected_activity(),
                     report->variants, out_);
  }
  if (!hang_.empty())
    out_ << "the run stopped at the hang: " << cases_in_run(opt_) - cases_run_
         << " case(s) not run\n";
  report->exit_code = print_run_summary(out_, *report, engine_seconds_);
  if (!hang_.empty()) report->exit_code = kExitMismatch;
  return report->exit_code;
}

}  // namespace

size_t mixed_variant(uint64_t seed, uint64_t index, size_t variant_count) {
  return size_t(splitmix64(splitmix64(seed) ^ index) % variant_count);
}

uint64_t cases_in_run(const RunOptions& opt) {
  return cases_in_shard(opt) * (opt.mix ? 1 : run_variants(opt).size());
}

int run(Engine& engine, const RunOptions& opt, std::ostream& out, Report* report) {
  const auto start = std::chrono::steady_clock::now();
  report->engine = engine.name();
  Runner runner(engine, opt, out);
  runner.run_all();
  runner.finish(report);
  report->wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report->exit_code;
}

}  // namespace tcu
