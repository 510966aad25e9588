#include "coverage.h"

#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <map>
#include <memory>
#include <optional>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

namespace tcu {
namespace fs = std::filesystem;

void CoverageSampler::sample(const Engine& engine, const std::vector<StreamItem>& items) {
  const std::optional<RegisterFileRun> rf = engine.register_file_run();
  if (rf && rf->write_back_stalls.size() != items.size())
    throw std::logic_error("coverage: the engine reported the write-back of " +
                           std::to_string(rf->write_back_stalls.size()) + " instructions, ran " +
                           std::to_string(items.size()));
  for (size_t p = 0; p < items.size(); ++p) {
    const StreamItem& item = items[p];
    coverage_->sample(item.instr, item.operands);
    if (last_) coverage_->sample_order(*last_, item.instr);
    last_ = item.instr;
    if (rf)
      coverage_->sample_register_file(
          register_file_traffic(item.instr, rf->collect, rf->write_back, rf->write_back_stalls[p]));
  }
}

void write_functional_json(const std::string& path, const FunctionalCoverage& coverage) {
  nlohmann::ordered_json bins = nlohmann::ordered_json::array();
  for (const CoverageBin& bin : coverage.bins())
    bins.push_back({{"group", bin.group},
                    {"name", bin.name},
                    {"kind", bin.kind},
                    {"hits", bin.hits},
                    {"first", bin.first},
                    {"waiver", bin.waiver.empty() ? nlohmann::ordered_json(nullptr)
                                                  : nlohmann::ordered_json(bin.waiver)}});
  std::ofstream out(path);
  if (!out) throw std::runtime_error(path + ": cannot write");
  out << nlohmann::ordered_json{{"bins", bins}}.dump(1) << "\n";
}

void add_functional_json(const std::string& path, FunctionalCoverage* coverage) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot read");
  nlohmann::json doc;
  try {
    in >> doc;
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(path + ": not JSON (" + e.what() + ")");
  }
  if (!doc.contains("bins") || !doc["bins"].is_array())
    throw std::runtime_error(path + ": no \"bins\" array");
  size_t index = 0;
  for (const auto& bin : doc["bins"]) {
    ++index;
    if (!bin.is_object() || !bin.contains("group") || !bin.contains("name") ||
        !bin.contains("hits") || !bin["hits"].is_number_unsigned())
      throw std::runtime_error(path + ": bin " + std::to_string(index) +
                               ": needs \"group\", \"name\" and a non-negative \"hits\"");
    // The RTL's cover points come from the merged rtl.dat, not from here.
    if (bin.value("kind", "") == "uarch") continue;
    const uint64_t first = bin.contains("first") && bin["first"].is_number_unsigned()
                               ? bin["first"].get<uint64_t>()
                               : 0;
    if (!coverage->add(bin["group"].get<std::string>(), bin["name"].get<std::string>(),
                       bin["hits"].get<uint64_t>(), first))
      throw std::runtime_error(path + ": bin " + std::to_string(index) + " (" +
                               bin["group"].get<std::string>() + " / " +
                               bin["name"].get<std::string>() +
                               ") is not a bin of this tcu's coverage model");
  }
}

namespace {

std::string trim(const std::string& text) {
  const size_t first = text.find_first_not_of(" \t");
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

// A line waiver starts with an RTL source path and a line: "rtl/...sv:N".
bool is_line_waiver(const std::string& text) {
  return text.rfind("rtl/", 0) == 0 && text.find(".sv:") != std::string::npos &&
         text.find(".sv:") < text.find('|');
}

}  // namespace

namespace {

// The waiver file `path`, or the built-in waivers where it is empty; `name`:
// what messages call it.
std::unique_ptr<std::istream> open_waivers(const std::string& path, std::string* name) {
  if (path.empty()) {
    *name = std::string(kBuiltInWaiversName);
    return std::make_unique<std::istringstream>(std::string(kBuiltInWaivers));
  }
  *name = path;
  auto in = std::make_unique<std::ifstream>(path);
  if (!*in) throw std::runtime_error(path + ": cannot read the waiver file");
  return in;
}

}  // namespace

std::vector<LineWaiver> read_line_waivers(const std::string& file) {
  std::vector<LineWaiver> waivers;
  std::string path;
  const std::unique_ptr<std::istream> stream = open_waivers(file, &path);
  std::istream& in = *stream;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    const std::string text = trim(line.substr(0, line.find('#')));
    if (!is_line_waiver(text)) continue;
    const std::string where = path + ":" + std::to_string(number);
    const size_t bar = text.find('|'), colon = text.find(".sv:") + 3;
    LineWaiver waiver;
    waiver.file = text.substr(0, colon);
    waiver.reason = trim(text.substr(bar + 1));
    waiver.where = where;
    const std::string range = trim(text.substr(colon + 1, bar - colon - 1));
    const size_t dash = range.find('-');
    try {
      size_t used = 0;
      waiver.first = std::stoi(range, &used);
      if (used != (dash == std::string::npos ? range.size() : dash)) throw std::invalid_argument("");
      waiver.last = waiver.first;
      if (dash != std::string::npos) {
        const std::string last = range.substr(dash + 1);
        waiver.last = std::stoi(last, &used);
        if (used != last.size()) throw std::invalid_argument("");
      }
    } catch (const std::exception&) {
      throw std::runtime_error(where + ": expected 'rtl/FILE.sv:LINE[-LINE] | REASON'");
    }
    if (waiver.first < 1 || waiver.last < waiver.first)
      throw std::runtime_error(where + ": '" + range + "' is not a range of lines");
    if (waiver.reason.empty() || waiver.reason.find('|') != std::string::npos)
      throw std::runtime_error(where + ": a line waiver needs one reason after one '|'");
    waivers.push_back(waiver);
  }
  return waivers;
}

void apply_waivers(const std::string& file, FunctionalCoverage* coverage, bool rtl_bins) {
  std::string path;
  const std::unique_ptr<std::istream> stream = open_waivers(file, &path);
  std::istream& in = *stream;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    const std::string text = trim(line.substr(0, line.find('#')));
    if (text.empty() || is_line_waiver(text)) continue;  // read_line_waivers' lines
    const size_t bar1 = text.find('|'), bar2 = text.find('|', bar1 + 1);
    const std::string where = path + ":" + std::to_string(number) + ": ";
    if (bar1 == std::string::npos || bar2 == std::string::npos)
      throw std::runtime_error(where + "expected 'GROUP | BIN | REASON'");
    const std::string group = trim(text.substr(0, bar1));
    const std::string name = trim(text.substr(bar1 + 1, bar2 - bar1 - 1));
    const std::string reason = trim(text.substr(bar2 + 1));
    if (group.empty() || name.empty() || reason.empty())
      throw std::runtime_error(where + "a waiver needs a group, a bin and a reason");
    bool found = false;
    if (group == "*") {
      for (const CoverageBin& bin : coverage->bins())
        if (bin.name == name) found |= coverage->waive(bin.group, name, reason);
    } else {
      found = coverage->waive(group, name, reason);
    }
    // The RTL's cover points (group rtl) exist only with a coverage build's data.
    if (!found && (group != "rtl" || rtl_bins))
      throw std::runtime_error(where + "no bin '" + name + "' in group '" + group + "'");
  }
}

void write_coverage_part(const std::string& dir, const FunctionalCoverage& coverage,
                         bool rtl_written) {
  write_functional_json((fs::path(dir) / "functional.json").string(), coverage);
  if (!rtl_written) fs::remove(fs::path(dir) / "rtl.dat");
}

namespace {

// Runs a command (argv), its output to `log`; the exit status.
int run_tool(const std::vector<std::string>& argv, const std::string& log) {
  std::string command;
  for (const std::string& arg : argv) {
    command += " '";
    for (char ch : arg) command += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
    command += "'";
  }
  command += " >'" + log + "' 2>&1";
  const int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

struct CodeCoverage {
  std::vector<std::pair<std::string, uint64_t>> cover_points;  // name, hits
  uint64_t lines = 0, lines_hit = 0;
  // Per RTL file ("rtl/x.sv"), per instrumented line: hits.
  std::map<std::string, std::map<int, uint64_t>> line_hits;
  // The uncovered lines ("rtl/x.sv:N") with their waiver's reason, or empty.
  std::vector<std::pair<std::string, std::string>> uncovered;
  uint64_t waived = 0, waived_but_hit = 0;
  // Per module (from the points' page, v_toggle/<module>): toggle points.
  std::map<std::string, std::pair<uint64_t, uint64_t>> toggles;  // hit, total
  uint64_t user = 0, user_hit = 0;
};

// The RTL's line coverage from rtl.info (files under rtl/).
void read_lines(const std::string& info, CodeCoverage* code) {
  std::ifstream in(info);
  std::string line, file;
  while (std::getline(in, line)) {
    if (line.rfind("SF:", 0) == 0) {
      // Verilator runs at the source root, so its paths are "rtl/x.sv";
      // a report merged elsewhere may name them absolute (".../rtl/x.sv").
      const std::string path = line.substr(3);
      const size_t at = path.rfind("/rtl/");
      file = path.rfind("rtl/", 0) == 0 ? path : at == std::string::npos ? "" : path.substr(at + 1);
    }
    if (file.empty() || line.rfind("DA:", 0) != 0) continue;
    const size_t comma = line.find(',');
    if (comma == std::string::npos) continue;
    const uint64_t hits = std::stoull(line.substr(comma + 1));
    code->line_hits[file][std::stoi(line.substr(3, comma - 3))] += hits;
  }
  for (const auto& [name, lines] : code->line_hits)
    for (const auto& [number, hits] : lines) {
      ++code->lines;
      if (hits > 0) ++code->lines_hit;
    }
}

// Marks the uncovered lines waived or not; a waiver that names no line the
// coverage build counts is an error (stale, or a typo), naming its line.
void apply_line_waivers(const std::vector<LineWaiver>& waivers, CodeCoverage* code) {
  std::map<std::pair<std::string, int>, std::string> reason;
  for (const LineWaiver& w : waivers) {
    const auto file = code->line_hits.find(w.file);
    bool counted = false;
    for (int number = w.first; number <= w.last; ++number) {
      if (file == code->line_hits.end() || !file->second.count(number)) continue;
      counted = true;
      reason[{w.file, number}] = w.reason;
      if (file->second.at(number) > 0) ++code->waived_but_hit;
    }
    if (!counted)
      throw std::runtime_error(w.where + ": " + w.file + ":" + std::to_string(w.first) +
                               (w.last > w.first ? "-" + std::to_string(w.last) : "") +
                               ": no line the coverage build counts");
  }
  for (const auto& [name, lines] : code->line_hits)
    for (const auto& [number, hits] : lines) {
      if (hits > 0) continue;
      const auto it = reason.find({name, number});
      code->uncovered.emplace_back(name + ":" + std::to_string(number),
                                   it == reason.end() ? "" : it->second);
      if (it != reason.end()) ++code->waived;
    }
}

// Toggle and user points from Verilator's coverage.dat: lines
// C '<key>\x02<value>\x01...' <count>.
void read_points(const std::string& dat, CodeCoverage* code) {
  std::ifstream in(dat);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("C '", 0) != 0) continue;
    const size_t end = line.rfind('\'');
    const std::string keys = line.substr(3, end - 3);
    const uint64_t count = std::stoull(line.substr(end + 1));
    std::string page, hierarchy, comment;
    for (size_t at = 0; at < keys.size();) {
      const size_t next = keys.find('\x01', at);
      const std::string field = keys.substr(at, next == std::string::npos ? std::string::npos
                                                                           : next - at);
      const size_t sep = field.find('\x02');
      if (sep != std::string::npos) {
        const std::string key = field.substr(0, sep), value = field.substr(sep + 1);
        if (key == "page") page = value;
        if (key == "h") hierarchy = value;
        if (key == "o") comment = value;
      }
      if (next == std::string::npos) break;
      at = next + 1;
    }
    if (page.rfind("v_toggle/", 0) == 0) {
      auto& [hit, total] = code->toggles[page.substr(9)];
      ++total;
      if (count > 0) ++hit;
    } else if (page.rfind("v_user/", 0) == 0) {
      ++code->user;
      if (count > 0) ++code->user_hit;
      code->cover_points.emplace_back(hierarchy + (comment.empty() ? "" : "." + comment), count);
    }
  }
}

std::string percent(uint64_t hit, uint64_t total) {
  std::ostringstream text;
  text << std::fixed << std::setprecision(1) << (total ? 100.0 * double(hit) / double(total) : 0)
       << "%";
  return text.str();
}

std::string html_escape(const std::string& text) {
  std::string out;
  for (char ch : text) {
    if (ch == '<') out += "&lt;";
    else if (ch == '>') out += "&gt;";
    else if (ch == '&') out += "&amp;";
    else out += ch;
  }
  return out;
}

struct KindSummary {
  uint64_t bins = 0, hit = 0, waived = 0;
};

std::map<std::string, KindSummary> summarize(const FunctionalCoverage& coverage) {
  std::map<std::string, KindSummary> kinds;
  for (const CoverageBin& bin : coverage.bins()) {
    KindSummary& k = kinds[bin.kind];
    ++k.bins;
    if (bin.hits > 0) ++k.hit;
    else if (!bin.waiver.empty()) ++k.waived;
  }
  return kinds;
}

void write_html(const std::string& dir, const FunctionalCoverage& coverage,
                const CodeCoverage* code) {
  fs::create_directories(fs::path(dir) / "html");
  std::ofstream html(fs::path(dir) / "html" / "index.html");
  html << "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>tcu coverage</title>\n"
          "<style>body{font-family:sans-serif}td,th{padding:2px 8px;text-align:left}"
          ".miss{background:#fdd}.waived{background:#ffd}.hit{background:#dfd}</style>"
          "</head><body>\n<h1>tcu coverage</h1>\n<h2>Functional bins</h2>\n<table>\n"
          "<tr><th>kind</th><th>bins</th><th>hit</th><th>waived</th><th>missed</th></tr>\n";
  for (const auto& [kind, k] : summarize(coverage))
    html << "<tr><td>" << kind << "</td><td>" << k.bins << "</td><td>" << k.hit << "</td><td>"
         << k.waived << "</td><td>" << k.bins - k.hit - k.waived << "</td></tr>\n";
  html << "</table>\n";
  if (code) {
    html << "<h2>RTL code coverage</h2>\n<p>Lines of rtl/: " << code->lines_hit << " of "
         << code->lines << " (" << percent(code->lines_hit, code->lines)
         << "); cover points: " << code->user_hit << " of " << code->user
         << ". <a href=\"rtl/index.html\">Annotated sources (genhtml)</a></p>\n"
         << "<table><tr><th>module</th><th>toggle points hit</th><th>of</th><th>%</th></tr>\n";
    for (const auto& [module, counts] : code->toggles)
      html << "<tr><td>" << html_escape(module) << "</td><td>" << counts.first << "</td><td>"
           << counts.second << "</td><td>" << percent(counts.first, counts.second)
           << "</td></tr>\n";
    html << "</table>\n<h3>Uncovered lines</h3>\n<table><tr><th>line</th><th>waiver</th></tr>\n";
    for (const auto& [where, why] : code->uncovered)
      html << "<tr class=\"" << (why.empty() ? "miss" : "waived") << "\"><td>"
           << html_escape(where) << "</td><td>" << (why.empty() ? "not waived" : html_escape(why))
           << "</td></tr>\n";
    html << "</table>\n";
  } else {
    html << "<p>No RTL code coverage: this tcu was built without TCU_COVERAGE "
            "(scripts/coverage.sh builds one).</p>\n";
  }
  html << "<h2>Every bin (missed first)</h2>\n<table>\n"
          "<tr><th>group</th><th>bin</th><th>kind</th><th>hits</th><th>first (cases)</th>"
          "<th>waiver</th></tr>\n";
  for (int pass = 0; pass < 3; ++pass)
    for (const CoverageBin& bin : coverage.bins()) {
      const int rank = bin.hits > 0 ? 2 : bin.waiver.empty() ? 0 : 1;
      if (rank != pass) continue;
      html << "<tr class=\"" << (rank == 0 ? "miss" : rank == 1 ? "waived" : "hit") << "\"><td>"
           << html_escape(bin.group) << "</td><td>" << html_escape(bin.name) << "</td><td>"
           << bin.kind << "</td><td>" << bin.hits << "</td><td>" << bin.first << "</td><td>"
           << html_escape(bin.waiver)
           << "</td></tr>\n";
    }
  html << "</table>\n</body></html>\n";
}

// The runs' RTL code coverage (rtl.dat of each part) merged into dir: its
// lcov file and HTML, read back with the line waivers applied. Returns
// false after an error (its message to `err`).
bool merge_code_coverage(const std::string& dir, const std::vector<std::string>& rtl_parts,
                         const std::string& waivers, std::ostream& err, CodeCoverage* code) {
  const std::string dat = (fs::path(dir) / "rtl.dat").string();
  const std::string info = (fs::path(dir) / "rtl.info").string();
  const std::string log = (fs::path(dir) / "coverage-tools.log").string();
  std::vector<std::string> merge = {"verilator_coverage", "--write", dat + ".merged"};
  merge.insert(merge.end(), rtl_parts.begin(), rtl_parts.end());
  if (run_tool(merge, log) != 0) {
    err << "error: --coverage: verilator_coverage could not merge the RTL coverage (see " << log
        << ")\n";
    return false;
  }
  fs::rename(dat + ".merged", dat);
  if (run_tool({"verilator_coverage", "--write-info", info, dat}, log) != 0) {
    err << "error: --coverage: verilator_coverage --write-info failed (see " << log << ")\n";
    return false;
  }
  if (run_tool({"genhtml", "--quiet", "--output-directory",
                (fs::path(dir) / "html" / "rtl").string(), info},
               log) != 0) {
    err << "error: --coverage: genhtml (Debian package lcov) failed (see " << log << ")\n";
    return false;
  }
  read_lines(info, code);
  read_points(dat, code);
  try {
    apply_line_waivers(read_line_waivers(waivers), code);
  } catch (const std::exception& e) {
    err << "error: --coverage: " << e.what() << "\n";
    return false;
  }
  return true;
}

// The summary's RTL lines: lines, the first uncovered lines not waived,
// toggles and cover points.
void print_code_summary(const CodeCoverage& code, std::ostream& out) {
  uint64_t toggle_hit = 0, toggle_total = 0;
  for (const auto& [module, counts] : code.toggles) {
    toggle_hit += counts.first;
    toggle_total += counts.second;
  }
  const uint64_t missed = code.uncovered.size() - code.waived;
  out << "  rtl lines      " << code.lines_hit << " / " << code.lines << " ("
      << percent(code.lines_hit, code.lines) << "); uncovered: " << code.waived << " waived, "
      << missed << " not waived";
  if (code.waived_but_hit) out << " (" << code.waived_but_hit << " waived lines were hit)";
  out << "\n";
  for (size_t i = 0, shown = 0; i < code.uncovered.size() && shown < 10; ++i)
    if (code.uncovered[i].second.empty()) {
      out << "    not waived: " << code.uncovered[i].first << "\n";
      ++shown;
    }
  out << "  rtl ";
  if (toggle_total > 0)
    out << "toggle points " << toggle_hit << " / " << toggle_total << " ("
        << percent(toggle_hit, toggle_total) << "), ";
  else
    out << "toggles not collected (COVERAGE_TOGGLE=1), ";
  out << "cover points " << code.user_hit << " / " << code.user << "\n";
}

}  // namespace

int finish_coverage(const std::string& dir, const std::vector<std::string>& parts,
                    const std::string& waivers, std::ostream& out, std::ostream& err) {
  FunctionalCoverage coverage;
  std::vector<std::string> rtl_parts;
  try {
    for (const std::string& part : parts) {
      add_functional_json((fs::path(part) / "functional.json").string(), &coverage);
      if (fs::exists(fs::path(part) / "rtl.dat"))
        rtl_parts.push_back((fs::path(part) / "rtl.dat").string());
    }
  } catch (const std::exception& e) {
    err << "error: --coverage: " << e.what() << "\n";
    return 1;
  }
  std::optional<CodeCoverage> code;
  if (!rtl_parts.empty()) {
    code.emplace();
    if (!merge_code_coverage(dir, rtl_parts, waivers, err, &*code)) return 1;
    for (const auto& [name, hits] : code->cover_points) coverage.add_bin("rtl", name, "uarch", hits);
  }
  try {
    apply_waivers(waivers, &coverage, code.has_value());
    write_functional_json((fs::path(dir) / "functional.json").string(), coverage);
  } catch (const std::exception& e) {
    err << "error: --coverage: " << e.what() << "\n";
    return 1;
  }
  write_html(dir, coverage, code ? &*code : nullptr);

  out << "coverage: " << dir << "/html/index.html\n";
  for (const auto& [kind, k] : summarize(coverage))
    out << "  functional " << std::left << std::setw(9) << kind << std::right << std::setw(6)
        << k.hit << " / " << k.bins << " bins hit, " << k.waived << " waived, "
        << k.bins - k.hit - k.waived << " missed\n";
  if (code)
    print_code_summary(*code, out);
  else
    out << "  rtl: no code coverage (this tcu was built without TCU_COVERAGE; "
           "scripts/coverage.sh builds one)\n";
  return 0;
}

}  // namespace tcu
