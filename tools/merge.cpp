#include "merge.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <stdexcept>

#include "exit_codes.h"
#include "report.h"
#include "run.h"

namespace tcu {
namespace {

namespace fs = std::filesystem;

// A bad input: a message naming the file, exit 2.
struct MergeError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct ShardReport {
  std::string path;
  nlohmann::json json;
  Report report;
  int index = 0, count = 1;
};

struct MergeOptions {
  std::vector<std::string> paths;
  std::string json_path, junit_path, compare_path;
  int shards = 0;  // expected N (0: the reports')
  int max_details = 5;
  bool print_missing = false;
};

// The files named: a directory stands for the *.json files in it.
std::vector<std::string> report_files(const std::vector<std::string>& paths) {
  std::vector<std::string> files;
  for (const std::string& path : paths) {
    std::error_code error;
    if (fs::is_directory(path, error)) {
      std::vector<std::string> in_dir;
      for (const auto& entry : fs::directory_iterator(path))
        if (entry.is_regular_file() && entry.path().extension() == ".json")
          in_dir.push_back(entry.path().string());
      std::sort(in_dir.begin(), in_dir.end());
      files.insert(files.end(), in_dir.begin(), in_dir.end());
    } else if (fs::exists(path, error)) {
      files.push_back(path);
    } else {
      throw MergeError(path + ": no such file or directory");
    }
  }
  return files;
}

nlohmann::json read_json(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw MergeError(path + ": cannot read");
  try {
    return nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw MergeError(path + ": not a JSON report (" + e.what() + ")");
  }
}

// Reads a report of `tcu run`; its --shard from the header.
ShardReport read_run_report(const std::string& path) {
  ShardReport shard{path, read_json(path), {}, 0, 1};
  const nlohmann::json& json = shard.json;
  if (!json.is_object() || !json.contains("tcu_report") || json.value("command", "") != "run")
    throw MergeError(path +
                     ": not a report of `tcu run` (no \"tcu_report\", or its \"command\" "
                     "is not \"run\")");
  try {
    shard.report = report_from_json(json);
  } catch (const std::exception& e) {
    throw MergeError(path + ": " + e.what());
  }
  const std::string text = json.at("options").value("shard", "");
  if (!parse_shard(text, &shard.index, &shard.count))
    throw MergeError(path + ": options.shard \"" + text + "\" is not i/N");
  return shard;
}

// What makes two reports parts of one run: the seed, the configuration,
// the options but --shard, --jobs and --details, and the variants.
nlohmann::json run_identity(const ShardReport& shard) {
  nlohmann::json identity;
  identity["seed"] = shard.json.value("seed", nlohmann::json());
  identity["configuration"] = shard.json.value("configuration", nlohmann::json());
  nlohmann::json options = shard.json.at("options");
  for (const char* key : {"shard", "jobs", "details"}) options.erase(key);
  identity["options"] = options;
  identity["engine"] = shard.report.engine;
  nlohmann::json variants = nlohmann::json::array();
  for (const VariantResult& v : shard.report.variants) variants.push_back(v.ptx);
  identity["variants"] = variants;
  return identity;
}

// The first field where two identities differ, as "name: A vs B".
std::string first_difference(const nlohmann::json& a, const nlohmann::json& b) {
  const nlohmann::json patch = nlohmann::json::diff(a, b);
  if (patch.empty()) return "";
  const std::string pointer = patch.front().at("path").get<std::string>();
  std::string name = pointer.substr(1);
  std::replace(name.begin(), name.end(), '/', '.');
  const nlohmann::json::json_pointer at(pointer);
  const std::string left = a.contains(at) ? a.at(at).dump() : "(none)";
  const std::string right = b.contains(at) ? b.at(at).dump() : "(none)";
  return name + " " + left + " vs " + right;
}

void check_same_run(const std::vector<ShardReport>& shards) {
  const nlohmann::json first = run_identity(shards.front());
  for (const ShardReport& shard : shards) {
    if (shard.count != shards.front().count)
      throw MergeError("inconsistent shards: " + shard.path + " is shard " +
                       std::to_string(shard.index) + "/" + std::to_string(shard.count) + ", " +
                       shards.front().path + " of /" + std::to_string(shards.front().count));
    if (const std::string why = first_difference(first, run_identity(shard)); !why.empty())
      throw MergeError("inconsistent shards: " + shard.path + " is not of the run of " +
                       shards.front().path + " (" + why + ")");
    const nlohmann::json version = shard.json.value("version", nlohmann::json());
    if (version != shards.front().json.value("version", nlohmann::json()))
      std::cerr << "warning: " << shard.path << " was written by another tcu build than "
                << shards.front().path << " (version " << version.dump() << ")\n";
  }
}

// Two reports of one shard are refused, naming both.
void check_duplicates(const std::vector<ShardReport>& shards) {
  std::map<int, const ShardReport*> seen;
  std::string duplicated;
  for (const ShardReport& shard : shards) {
    auto [at, fresh] = seen.emplace(shard.index, &shard);
    if (!fresh)
      duplicated += "\n  shard " + std::to_string(shard.index) + "/" + std::to_string(shard.count) +
                    ": " + at->second->path + " and " + shard.path;
  }
  if (!duplicated.empty())
    throw MergeError("duplicated shards (give each shard's report once):" + duplicated);
}

// The cases a shard of the run must have, per variant (mix: in all).
uint64_t expected_cases(const ShardReport& shard) {
  const nlohmann::json& options = shard.json.at("options");
  RunOptions run;
  run.count = options.at("count").get<uint64_t>();
  run.first = options.at("first").get<uint64_t>();
  run.shard_index = shard.index;
  run.shard_count = shard.count;
  return cases_in_shard(run);
}

// Why a shard's report does not cover its cases, or empty.
std::string incomplete(const ShardReport& shard) {
  const bool mix = shard.json.at("options").value("mix", false);
  const uint64_t want = expected_cases(shard);
  uint64_t total = 0;
  for (const VariantResult& v : shard.report.variants) {
    const uint64_t have = v.passed + v.failed;
    total += have;
    if (v.cases && v.cases->size() != have)
      return v.ptx + ": " + std::to_string(v.cases->size()) + " case records for " +
             std::to_string(have) + " cases";
    if (!mix && have != want)
      return v.ptx + ": " + std::to_string(have) + " of " + std::to_string(want) + " cases";
  }
  if (mix && total != want) return std::to_string(total) + " of " + std::to_string(want) + " cases";
  return "";
}

std::string joined_indices(const std::vector<int>& indices, const char* separator) {
  std::string text;
  for (int i : indices) text += (text.empty() ? "" : separator) + std::to_string(i);
  return text;
}

// The command line of a present shard, with --shard set to `index`.
std::string rerun_command(const ShardReport& shard, int index) {
  std::string text;
  const nlohmann::json argv = shard.json.value("argv", nlohmann::json::array());
  const std::string shard_text = std::to_string(index) + "/" + std::to_string(shard.count);
  for (size_t i = 0; i < argv.size(); ++i) {
    const std::string arg = argv[i].get<std::string>();
    if (arg == "--report" || (i > 0 && argv[i - 1] == "--report")) continue;
    text += (i ? " " : "") + (i > 0 && argv[i - 1] == "--shard" ? shard_text : arg);
  }
  return text + " --report shard-" + std::to_string(index) + ".json";
}

struct Coverage {
  int count = 0;
  std::vector<int> missing;
  std::vector<std::string> why;  // incomplete shards, a line each
};

Coverage coverage(const std::vector<ShardReport>& shards, int expected_count) {
  Coverage result;
  result.count = shards.empty() ? expected_count : shards.front().count;
  if (expected_count && result.count != expected_count)
    throw MergeError("--shards " + std::to_string(expected_count) + ": the reports are shards of " +
                     std::to_string(result.count));
  std::vector<bool> present(size_t(result.count), false);
  for (const ShardReport& shard : shards) {
    if (const std::string why = incomplete(shard); !why.empty()) {
      result.why.push_back("shard " + std::to_string(shard.index) + " (" + shard.path +
                           ") is incomplete: " + why);
      continue;
    }
    present[size_t(shard.index)] = true;
  }
  for (int i = 0; i < result.count; ++i)
    if (!present[size_t(i)]) result.missing.push_back(i);
  return result;
}

// The shards' variants added up, in the order of their shard indices.
Report merged_report(std::vector<ShardReport>& shards, int max_details) {
  std::sort(shards.begin(), shards.end(),
            [](const ShardReport& a, const ShardReport& b) { return a.index < b.index; });
  Report merged;
  merged.command = "run";
  merged.engine = shards.front().report.engine;
  merged.header = nlohmann::ordered_json::parse(shards.front().json.dump());
  for (const char* key : {"command", "engine", "variants", "macs", "activity", "passed", "failed",
                          "engine_errors", "wall_seconds", "exit_code"})
    merged.header.erase(key);
  merged.header["options"]["shard"] = "0/1";
  merged.header["merged_shards"] = shards.front().count;
  merged.variants = shards.front().report.variants;
  int details = 0;
  for (VariantResult& v : merged.variants) {
    v = VariantResult{v.ptx, v.file};
    v.cases.emplace();
  }
  for (const ShardReport& shard : shards) {
    for (size_t i = 0; i < merged.variants.size(); ++i) {
      VariantResult& to = merged.variants[i];
      const VariantResult& from = shard.report.variants[i];
      to.passed += from.passed;
      to.failed += from.failed;
      to.engine_errors += from.engine_errors;
      to.cycles += from.cycles;
      to.instructions += from.instruction_count();
      to.seconds += from.seconds;
      for (const std::string& line : from.details)
        if (details++ < max_details) to.details.push_back(line);
      if (!from.cases) to.cases.reset();
      if (to.cases) to.cases->insert(to.cases->end(), from.cases->begin(), from.cases->end());
    }
    if (shard.report.activity) {
      if (!merged.activity) merged.activity = Activity{};
      *merged.activity += *shard.report.activity;
    }
    merged.wall_seconds += shard.report.wall_seconds;
    merged.exit_code = std::max(merged.exit_code, shard.report.exit_code);
  }
  for (VariantResult& v : merged.variants)
    if (v.cases)
      std::sort(v.cases->begin(), v.cases->end(),
                [](const CaseRecord& a, const CaseRecord& b) { return a.index < b.index; });
  return merged;
}

// The datapath of the configuration the report names, for the activity table.
DatapathConfig report_datapath(const nlohmann::json& json) {
  DatapathConfig dp;
  const nlohmann::json p = json.value("configuration", nlohmann::json::object())
                               .value("parameters", nlohmann::json::object());
  auto get = [&p](const char* name, int fallback) { return p.value(name, fallback); };
  dp.int4_macs_per_cycle = get("Int4MacsPerCycle", dp.int4_macs_per_cycle);
  dp.e2m1_macs_per_cycle = get("E2m1MacsPerCycle", dp.e2m1_macs_per_cycle);
  dp.f16_fmas_per_cycle = get("F16FmasPerCycle", dp.f16_fmas_per_cycle);
  dp.f64_fmas_per_cycle = get("F64FmasPerCycle", dp.f64_fmas_per_cycle);
  return dp;
}

// Prints the merged run as one process would; returns its exit code.
int print_merged(const Report& merged, const std::vector<ShardReport>& shards, std::ostream& out) {
  double engine_seconds = 0;
  for (const VariantResult& v : merged.variants) {
    for (const std::string& line : v.details) out << "  " << line << "\n";
    print_run_variant(out, v);
    engine_seconds += v.seconds;
  }
  if (merged.activity) print_activity(out, *merged.activity, report_datapath(shards.front().json));
  out << "merged " << shards.size() << " shards (--shard i/" << shards.front().count
      << "); instr/s per shard process, summed over " << merged.wall_seconds
      << " s of shard wall time\n";
  const int code = print_run_summary(out, merged, engine_seconds);
  return std::max(code, merged.exit_code);
}

// --compare: every variant's counts and case records equal the reference's.
int compare_reports(const Report& merged, const nlohmann::json& merged_header,
                    const std::string& path, std::ostream& out) {
  ShardReport reference = read_run_report(path);
  if (reference.count != 1)
    throw MergeError(path + ": --compare takes the report of a whole run, not of shard " +
                     reference.json.at("options").value("shard", ""));
  ShardReport ours{"the merged report", nlohmann::json::parse(merged_header.dump()), merged, 0, 1};
  if (const std::string why = first_difference(run_identity(ours), run_identity(reference));
      !why.empty())
    throw MergeError(path + ": not a report of the same run (" + why + ")");
  uint64_t equal = 0;
  std::vector<std::string> differences;
  for (size_t i = 0; i < merged.variants.size(); ++i) {
    const VariantResult& a = merged.variants[i];
    const VariantResult& b = reference.report.variants[i];
    if (!a.cases || !b.cases)
      throw MergeError(std::string(!a.cases ? "the shards" : path) +
                       ": no case records (run with --record-cases)");
    if (a.passed != b.passed || a.failed != b.failed || a.engine_errors != b.engine_errors)
      differences.push_back(a.ptx + ": merged " + std::to_string(a.passed) + " passed, " +
                            std::to_string(a.failed) + " failed; " + path + " " +
                            std::to_string(b.passed) + " passed, " + std::to_string(b.failed) +
                            " failed");
    const size_t n = std::max(a.cases->size(), b.cases->size());
    for (size_t c = 0; c < n; ++c) {
      const CaseRecord none{~uint64_t(0), false, "(none)"};
      const CaseRecord& x = c < a.cases->size() ? (*a.cases)[c] : none;
      const CaseRecord& y = c < b.cases->size() ? (*b.cases)[c] : none;
      if (x == y) {
        ++equal;
        continue;
      }
      auto text = [](const CaseRecord& r) {
        return r.index == ~uint64_t(0) ? std::string("no case")
                                       : "case " + std::to_string(r.index) +
                                             (r.ok ? " pass D " : " FAIL D ") + r.digest;
      };
      differences.push_back(a.ptx + ": merged " + text(x) + "; " + path + " " + text(y));
    }
  }
  if (differences.empty()) {
    out << "compare: equal to " << path << " case for case (" << equal << " cases)\n";
    return kExitOk;
  }
  for (size_t i = 0; i < differences.size() && i < 10; ++i)
    out << "  differs: " << differences[i] << "\n";
  out << "FAIL: compare: " << differences.size() << " difference(s) from " << path << " (" << equal
      << " cases equal)\n";
  return kExitMismatch;
}

int merge(MergeOptions& opt) {
  std::vector<ShardReport> shards;
  for (const std::string& file : report_files(opt.paths)) shards.push_back(read_run_report(file));
  if (shards.empty() && opt.shards == 0)
    throw MergeError(
        "no reports (give the shards' JSON reports or their directory; with "
        "--print-missing, --shards N)");
  if (!shards.empty()) {
    check_same_run(shards);
    check_duplicates(shards);
  }
  const Coverage cover = coverage(shards, opt.shards);
  for (const std::string& line : cover.why) std::cerr << "note: " << line << "\n";
  if (opt.print_missing) {
    std::cout << joined_indices(cover.missing, ",") << "\n";
    return kExitOk;
  }
  if (!cover.missing.empty()) {
    std::cerr << "error: " << cover.missing.size() << " of " << cover.count
              << " shard(s) missing or incomplete: " << joined_indices(cover.missing, ", ") << "\n";
    if (!shards.empty())
      std::cerr << "re-run: " << rerun_command(shards.front(), cover.missing.front()) << "\n";
    return kExitMismatch;
  }
  Report merged = merged_report(shards, opt.max_details);
  int code = print_merged(merged, shards, std::cout);
  merged.exit_code = code;
  if (!opt.json_path.empty()) write_json_report(merged, opt.json_path);
  if (!opt.junit_path.empty()) write_junit_report(merged, opt.junit_path);
  if (!opt.compare_path.empty())
    code = std::max(code, compare_reports(merged, merged.header, opt.compare_path, std::cout));
  return code;
}

}  // namespace

int run_merge_main(const std::string& program_name, const std::vector<std::string>& args) {
  CLI::App app{
      "Join the JSON reports of the shards of one run (tcu run --shard i/N --report F) "
      "into the report of the whole run; name the shards missing, incomplete, "
      "duplicated or of another run. Exit status: 0 complete and every case passed; "
      "1 a case failed, a shard missing, or --compare found a difference; 2 unreadable, "
      "duplicated or inconsistent reports.",
      program_name + " run merge"};
  app.option_defaults()->always_capture_default();
  MergeOptions opt;
  app.add_option("reports", opt.paths, "shard reports, or directories of them (*.json)");
  app.add_option("--report", opt.json_path, "write the merged JSON report");
  app.add_option("--junit", opt.junit_path, "write the merged JUnit XML report");
  app.add_option("--details", opt.max_details, "mismatch lines kept")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--shards", opt.shards, "the run's shard count N (default: the reports')")
      ->check(CLI::Range(1, 1 << 30));
  app.add_flag("--print-missing", opt.print_missing,
               "print the missing or incomplete shard indices (\"1,3\", empty if none) and "
               "exit 0; for resubmitting them");
  app.add_option("--compare", opt.compare_path,
                 "check the merged run case for case against the report of a whole run "
                 "(both with --record-cases)");
  std::vector<std::string> reversed(args.rbegin(), args.rend());
  try {
    app.parse(reversed);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return kExitUsage;
  }
  try {
    return merge(opt);
  } catch (const MergeError& e) {
    std::cerr << "error: " << e.what() << "\n";
    return kExitUsage;
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << "\n";
    return kExitInternal;
  }
}

}  // namespace tcu
