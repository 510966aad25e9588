#include "parallel.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>

#include "exit_codes.h"
#include "progress.h"

extern char** environ;

namespace tcu {
namespace {

struct Child {
  ChildShard shard;
  std::string out_path, err_path;
  pid_t pid = -1;
  int exit_code = kExitInternal;
  std::string failure;  // why it did not finish normally
};

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

pid_t spawn(const std::string& program_name, const std::vector<std::string>& args,
            const Child& child) {
  std::vector<std::string> argv_strings = {program_name};
  argv_strings.insert(argv_strings.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& s : argv_strings) argv.push_back(s.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, child.out_path.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, child.err_path.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  pid_t pid = -1;
  const int rc = posix_spawn(&pid, "/proc/self/exe", &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) throw std::runtime_error(std::string("cannot start a job: ") + std::strerror(rc));
  return pid;
}

volatile sig_atomic_t g_stop_signal = 0;
void on_stop_signal(int signal) { g_stop_signal = signal; }

// While the jobs run, SIGINT/SIGTERM/SIGHUP stop them and remove the
// temporary directory before the signal takes its usual effect.
class StopSignals {
 public:
  StopSignals() {
    struct sigaction action = {};
    action.sa_handler = on_stop_signal;
    sigemptyset(&action.sa_mask);
    for (size_t i = 0; i < kSignals.size(); ++i) sigaction(kSignals[i], &action, &saved_[i]);
  }
  ~StopSignals() {
    for (size_t i = 0; i < kSignals.size(); ++i) sigaction(kSignals[i], &saved_[i], nullptr);
  }

 private:
  static constexpr std::array<int, 3> kSignals = {SIGINT, SIGTERM, SIGHUP};
  std::array<struct sigaction, 3> saved_;
};

std::string shard_text(const ChildShard& s) {
  return std::to_string(s.index) + "/" + std::to_string(s.count);
}

// Starts the jobs: shard i of N split J ways, index % (N*J) == i + k*N for
// child k; their files in `dir`.
std::vector<Child> start_children(
    const RunOptions& opt, int jobs, const std::string& program_name,
    const std::function<std::vector<std::string>(const ChildShard&)>& child_args,
    const std::filesystem::path& dir) {
  std::vector<Child> children(static_cast<size_t>(jobs));
  for (int k = 0; k < jobs; ++k) {
    Child& child = children[size_t(k)];
    child.shard.index = opt.shard_index + k * opt.shard_count;
    child.shard.count = opt.shard_count * jobs;
    const std::string stem = (dir / ("job" + std::to_string(k))).string();
    child.shard.report_path = stem + ".json";
    child.shard.progress_path = stem + ".progress";
    child.out_path = stem + ".out";
    child.err_path = stem + ".err";
    child.pid = spawn(program_name, child_args(child.shard), child);
  }
  return children;
}

// Waits for every child, showing their progress. On a stop signal the
// children are stopped, `dir` removed and the signal re-raised: returns
// kExitInternal then, else -1.
int wait_for_children(std::vector<Child>& children, const RunOptions& opt,
                      const std::filesystem::path& dir, std::ostream& err) {
  Progress progress(cases_in_run(opt));
  size_t running = children.size();
  while (running > 0) {
    if (const int signal = g_stop_signal) {
      progress.clear();
      for (Child& child : children)
        if (child.pid > 0) kill(child.pid, SIGTERM);
      for (Child& child : children)
        if (child.pid > 0) waitpid(child.pid, nullptr, 0);
      std::filesystem::remove_all(dir);
      err << "tcu run: stopped by signal " << strsignal(signal) << "\n";
      std::signal(signal, SIG_DFL);
      raise(signal);
      return kExitInternal;
    }
    for (Child& child : children) {
      if (child.pid < 0) continue;
      int status = 0;
      const pid_t done = waitpid(child.pid, &status, WNOHANG);
      if (done == 0) continue;
      child.pid = -1;
      --running;
      if (done < 0) {
        child.failure = std::string("lost: ") + std::strerror(errno);
      } else if (WIFEXITED(status)) {
        child.exit_code = WEXITSTATUS(status);
      } else if (WIFSIGNALED(status)) {
        child.failure = std::string("killed by signal ") + strsignal(WTERMSIG(status));
      }
    }
    if (running == 0) break;
    uint64_t done_cases = 0;
    for (const Child& child : children) done_cases += ProgressFile::read(child.shard.progress_path);
    progress.set(done_cases);
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  progress.clear();
  return -1;
}

// The children's reports into `parts` (their errors to `err`); returns the
// worst exit code among them.
int read_child_reports(const std::vector<Child>& children, std::ostream& err,
                       std::vector<Report>* parts) {
  int worst = kExitOk;
  std::set<std::string> errors_shown;
  for (const Child& child : children) {
    const std::string name = "job --shard " + shard_text(child.shard);
    const std::string errors = read_file(child.err_path);
    if (child.exit_code > kExitMismatch && !errors.empty() && errors_shown.insert(errors).second)
      err << errors;
    if (!child.failure.empty()) {
      err << "error: " << name << ": " << child.failure << "\n";
      worst = std::max(worst, int(kExitInternal));
      continue;
    }
    worst = std::max(worst, child.exit_code);
    if (child.exit_code > kExitMismatch) continue;
    try {
      std::ifstream in(child.shard.report_path);
      parts->push_back(report_from_json(nlohmann::json::parse(in)));
    } catch (const std::exception& e) {
      err << "error: " << name << ": no readable report (" << e.what() << ")\n";
      worst = std::max(worst, int(kExitInternal));
    }
  }
  return worst;
}

// The children's reports merged variant by variant (each child runs the
// same variants in the same order) into report->variants, with their lines;
// their activity counters added up (the jobs' datapaths side by side).
void merge_reports(const RunOptions& opt, const std::vector<Report>& parts, std::ostream& out,
                   Report* report) {
  const std::vector<Instr>& variants = run_variants(opt);
  int details = 0;
  for (size_t i = 0; i < variants.size(); ++i) {
    VariantResult merged;
    merged.ptx = variants[i].ptx();
    for (const Report& part : parts) {
      if (i >= part.variants.size()) continue;
      const VariantResult& v = part.variants[i];
      merged.passed += v.passed;
      merged.failed += v.failed;
      merged.engine_errors += v.engine_errors;
      merged.cycles += v.cycles;
      merged.seconds = std::max(merged.seconds, v.seconds);  // the jobs ran side by side
      for (const std::string& line : v.details)
        if (details++ < opt.max_details) merged.details.push_back(line);
      if (v.cases) {
        if (!merged.cases) merged.cases.emplace();
        merged.cases->insert(merged.cases->end(), v.cases->begin(), v.cases->end());
      }
    }
    if (merged.cases)
      std::sort(merged.cases->begin(), merged.cases->end(),
                [](const CaseRecord& a, const CaseRecord& b) { return a.index < b.index; });
    for (const std::string& line : merged.details) out << "  " << line << "\n";
    print_run_variant(out, merged);
    report->variants.push_back(std::move(merged));
  }
  if (!parts.empty()) report->engine = parts.front().engine;
  for (const Report& part : parts) {
    if (!part.activity) continue;
    if (!report->activity) report->activity = Activity{};
    *report->activity += *part.activity;
  }
}

}  // namespace

int run_parallel(const RunOptions& opt, int jobs, const std::string& program_name,
                 const std::function<std::vector<std::string>(const ChildShard&)>& child_args,
                 std::ostream& out, std::ostream& err, Report* report) {
  namespace fs = std::filesystem;
  const auto start = std::chrono::steady_clock::now();
  std::string dir_template = (fs::temp_directory_path() / "tcu-jobs-XXXXXX").string();
  if (!mkdtemp(dir_template.data()))
    throw std::runtime_error("cannot create a temporary directory in " +
                             fs::temp_directory_path().string());
  const fs::path dir = dir_template;
  std::vector<Child> children = start_children(opt, jobs, program_name, child_args, dir);
  StopSignals stop_signals;
  if (const int code = wait_for_children(children, opt, dir, err); code >= 0) return code;
  std::vector<Report> parts;
  const int worst = read_child_reports(children, err, &parts);
  fs::remove_all(dir);

  merge_reports(opt, parts, out, report);
  if (report->activity) print_activity(out, *report->activity, report->datapath);
  report->wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  char line[120];
  std::snprintf(line, sizeof line, "%d jobs (--shard i/%d), %.2f s wall time\n", jobs,
                opt.shard_count * jobs, report->wall_seconds);
  out << line;
  if (parts.size() < children.size())
    out << children.size() - parts.size() << " of " << jobs
        << " jobs did not finish (see the errors above): their cases are not counted\n";
  const int merged_code = print_run_summary(out, *report, report->wall_seconds);
  report->exit_code = std::max(worst, merged_code);
  return report->exit_code;
}

}  // namespace tcu
