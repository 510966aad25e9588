#include "report.h"

#include <cstdio>
#include <fstream>
#include <iomanip>
#include <sstream>
#include <stdexcept>
#include <string>

#include "tcu/energy.h"
#include "version.h"
// The MACs of an instruction (instruction_macs).
#include "tcu/instr.h"
#include "tcu/timing.h"

namespace tcu {

uint64_t Report::passed() const {
  uint64_t n = 0;
  for (const auto& v : variants) n += v.passed;
  return n;
}
uint64_t Report::failed() const {
  uint64_t n = 0;
  for (const auto& v : variants) n += v.failed;
  return n;
}
uint64_t Report::engine_errors() const {
  uint64_t n = 0;
  for (const auto& v : variants) n += v.engine_errors;
  return n;
}

std::optional<MacCounts> instruction_macs(const std::string& ptx) {
  try {
    const Instr instr = parse_ptx(ptx);
    return MacCounts{uint64_t(issued_macs(instr)), uint64_t(instr.macs())};
  } catch (const InstrError&) {
    return std::nullopt;
  }
}

nlohmann::ordered_json version_json() {
  const BuildInfo& info = build_info();
  nlohmann::ordered_json version;
  version["tcu"] = info.version;
  version["git"] = info.git_hash;
  version["compiler"] = info.compiler;
  version["build_type"] = info.build_type;
  version["rtl"] = info.have_rtl;
  if (info.have_rtl) {
    version["verilator"] = info.verilator_version;
    version["systemc"] = systemc_version();
    version["configurations"] = rtl_configurations();
  }
  return version;
}

namespace {

constexpr char kEnergyCovers[] =
    "the dot units, the engines' registers around them, the operand router and the parts on the "
    "ungated clock (not the int4 engine's sparse path, on a clock of its own, nor the sparse "
    "mux); per engine MACs x dynamic pJ/MAC + clocked (busy + idle) cycles x units x idle "
    "pJ/cycle + gated cycles x units x leakage pJ/cycle; its registers' clocked cycles x their "
    "idle pJ/cycle + MACs x their dynamic pJ/MAC; router cycles x idle pJ/cycle + router words "
    "x dynamic pJ/word; cycles x the output skid's, the control's and the activity counters' "
    "idle pJ/cycle";

}  // namespace

void print_activity(std::ostream& out, const Activity& activity, const DatapathConfig& datapath,
                    const std::string& indent) {
  char line[200];
  out << indent << "activity (RTL counters, " << activity.cycles << " cycles):\n";
  out << indent;
  std::snprintf(line, sizeof line, "  %-6s %12s %12s %12s %12s %14s %9s %13s\n", "engine", "busy",
                "idle", "stalled", "gated", "MACs", "MAC util", "energy pJ");
  out << line;
  const EnergyEstimate energy = estimate_energy(activity, datapath);
  for (int e = 0; e < kActivityEngines; ++e) {
    const ActivityEngine engine = ActivityEngine(e);
    const EngineActivity& a = activity[engine];
    out << indent;
    std::snprintf(line, sizeof line, "  %-6s %12llu %12llu %12llu %12llu %14llu %8.1f%% %13.4g\n",
                  to_string(engine), static_cast<unsigned long long>(a.busy),
                  static_cast<unsigned long long>(a.idle),
                  static_cast<unsigned long long>(a.stalled),
                  static_cast<unsigned long long>(a.gated), static_cast<unsigned long long>(a.macs),
                  100 * mac_utilization(activity, datapath, engine), energy.engines[size_t(e)].pj);
    out << line;
  }
  std::snprintf(line, sizeof line, "  energy %.4g pJ, %.3g pJ/issued MAC", energy.pj, energy.pj_per_issued_mac());
  out << indent << line << " (estimate, " << energy_library()
      << ": the dot units', the engines' registers', the router's and the glue's figures x the counters; docs/guide/energy.md)\n";
  if (energy.router.measured) {
    std::snprintf(line, sizeof line, "  router %.4g pJ (%llu words)", energy.router.pj,
                  static_cast<unsigned long long>(energy.router.words));
    out << indent << line << "\n";
  }
  if (energy.glue.parts) {
    std::snprintf(line, sizeof line, "  skid, control, counters %.4g pJ (%.4g pJ/cycle)",
                  energy.glue.pj, energy.glue.pj_per_cycle);
    out << indent << line << "\n";
  }
  for (int e = 0; e < kActivityEngines; ++e) {
    const EngineEnergy& x = energy.engines[size_t(e)];
    if (!x.measured)
      out << indent << "  " << to_string(ActivityEngine(e))
          << ": no figures in the data file, not priced (0 pJ above)\n";
    else if (x.units > 0 && x.stages != x.config_stages)
      out << indent << "  " << to_string(ActivityEngine(e)) << ": priced with " << x.unit
          << "'s figures at " << x.stages << " stages, the nearest the data file holds (this "
          << "configuration's unit has " << x.config_stages << ")\n";
    if (x.units > 0 && x.measured && !*x.regs_source)
      out << indent << "  " << to_string(ActivityEngine(e))
          << ": no [[engine_regs]] figures, its registers around the units not priced\n";
  }
  std::string idle_only;  // engines whose registers have no busy figure
  for (int e = 0; e < kActivityEngines; ++e) {
    const EngineEnergy& x = energy.engines[size_t(e)];
    if (x.units > 0 && *x.regs_source && !x.regs_dynamic_priced)
      idle_only += std::string(idle_only.empty() ? "" : ", ") + to_string(ActivityEngine(e));
  }
  if (!idle_only.empty())
    out << indent << "  the registers around the units of " << idle_only
        << ": priced idle alone (no busy figure in the data file)\n";
}

nlohmann::ordered_json energy_json(const Activity& activity, const DatapathConfig& datapath) {
  const EnergyEstimate energy = estimate_energy(activity, datapath);
  nlohmann::ordered_json json;
  json["pj"] = energy.pj;
  json["pj_per_issued_mac"] = energy.pj_per_issued_mac();  // over the priced engines' MACs
  json["library"] = energy_library();
  json["figures_date"] = energy_figures_date();
  json["covers"] = kEnergyCovers;
  json["router"] = {{"measured", energy.router.measured},
                    {"pj", energy.router.pj},
                    {"words", energy.router.words},
                    {"width", energy.router.width},
                    {"idle_pj_per_cycle", energy.router.idle_pj_per_cycle},
                    {"dynamic_pj_per_word", energy.router.dynamic_pj_per_word}};
  json["glue"] = {{"parts", energy.glue.parts},
                  {"pj", energy.glue.pj},
                  {"pj_per_cycle", energy.glue.pj_per_cycle}};
  nlohmann::ordered_json& engines = json["per_engine"];
  for (int e = 0; e < kActivityEngines; ++e) {
    const EngineEnergy& x = energy.engines[size_t(e)];
    engines[to_string(ActivityEngine(e))] = {
        {"measured", x.measured},
        {"pj", x.pj},
        {"macs", x.macs},
        {"pj_per_issued_mac", x.macs ? x.pj / double(x.macs) : 0.0},
        {"units", x.units},
        {"unit", x.unit},
        {"stages", x.stages},
        {"config_stages", x.config_stages},
        {"dynamic_pj_per_issued_mac", x.dynamic_pj_per_issued_mac},
        {"idle_pj_per_unit_cycle", x.idle_pj_per_unit_cycle},
        {"leakage_pj_per_unit_cycle", x.leakage_pj_per_unit_cycle},
        {"regs_source", x.regs_source},
        {"regs_flip_flops", x.regs_flip_flops},
        {"regs_pj", x.regs_pj},
        {"regs_idle_pj_per_cycle", x.regs_idle_pj_per_cycle},
        {"regs_dynamic_pj_per_issued_mac", x.regs_dynamic_pj_per_issued_mac},
        {"regs_dynamic_priced", x.regs_dynamic_priced},
        {"regs_toggles_per_issued_mac", x.regs_toggles_per_issued_mac},
        {"regs_pj_per_toggle", x.regs_pj_per_toggle},
        {"regs_data_pj_per_issued_mac", x.regs_data_pj_per_issued_mac},
        {"glue_source", x.glue_source},
        {"glue_pj_per_issued_mac", x.glue_pj_per_issued_mac},
        {"around_pj_per_issued_mac", x.around_pj_per_issued_mac},
        {"busy_pj_per_cycle", x.busy_pj_per_cycle},
        {"idle_pj_per_cycle", x.idle_pj_per_cycle},
        {"gated_pj_per_cycle", x.gated_pj_per_cycle}};
  }
  return json;
}

nlohmann::ordered_json activity_json(const Activity& activity, const DatapathConfig& datapath) {
  nlohmann::ordered_json json;
  json["cycles"] = activity.cycles;
  json["router_words"] = activity.router_words;
  nlohmann::ordered_json& engines = json["engines"];
  for (int e = 0; e < kActivityEngines; ++e) {
    const ActivityEngine engine = ActivityEngine(e);
    const EngineActivity& a = activity[engine];
    engines[to_string(engine)] = {
        {"busy", a.busy},
        {"idle", a.idle},
        {"stalled", a.stalled},
        {"gated", a.gated},
        {"macs", a.macs},
        {"peak_macs_per_cycle", peak_issued_macs_per_cycle(datapath, engine_family(engine))},
        {"mac_utilization", mac_utilization(activity, datapath, engine)}};
  }
  return json;
}

Activity activity_from_json(const nlohmann::json& json) {
  Activity activity;
  activity.cycles = json.at("cycles").get<uint64_t>();
  activity.router_words = json.value("router_words", uint64_t(0));
  for (int e = 0; e < kActivityEngines; ++e) {
    const ActivityEngine engine = ActivityEngine(e);
    const nlohmann::json& j = json.at("engines").at(to_string(engine));
    activity[engine] = {j.at("busy").get<uint64_t>(), j.at("idle").get<uint64_t>(),
                        j.at("stalled").get<uint64_t>(), j.at("gated").get<uint64_t>(),
                        j.at("macs").get<uint64_t>()};
  }
  return activity;
}

nlohmann::ordered_json to_json(const Report& report) {
  nlohmann::ordered_json json = report.header;
  json["command"] = report.command;
  json["engine"] = report.engine;
  auto& variants = json["variants"] = nlohmann::ordered_json::array();
  MacCounts total;
  for (const VariantResult& v : report.variants) {
    nlohmann::ordered_json entry;
    entry["ptx"] = v.ptx;
    if (!v.file.empty()) entry["file"] = v.file;
    entry["passed"] = v.passed;
    entry["failed"] = v.failed;
    entry["engine_errors"] = v.engine_errors;
    entry["cycles"] = v.cycles;
    entry["instructions"] = v.instruction_count();
    if (const auto per = instruction_macs(v.ptx)) {
      entry["issued_macs"] = v.instruction_count() * per->issued;
      entry["dense_macs"] = v.instruction_count() * per->dense;
      total.issued += v.instruction_count() * per->issued;
      total.dense += v.instruction_count() * per->dense;
    }
    entry["seconds"] = v.seconds;
    entry["details"] = v.details;
    if (v.cases) {
      auto& cases = entry["cases"] = nlohmann::ordered_json::array();
      for (const CaseRecord& c : *v.cases)
        cases.push_back({{"case", c.index}, {"ok", c.ok}, {"d", c.digest}});
    }
    variants.push_back(std::move(entry));
  }
  if (report.activity) {
    json["activity"] = activity_json(*report.activity, report.datapath);
    json["energy"] = energy_json(*report.activity, report.datapath);
  }
  json["passed"] = report.passed();
  json["failed"] = report.failed();
  json["engine_errors"] = report.engine_errors();
  json["wall_seconds"] = report.wall_seconds;
  json["exit_code"] = report.exit_code;
  json["macs"] = {{"issued", total.issued},
                  {"dense", total.dense},
                  {"definition",
                   "issued: products the dot units compute (tcu::issued_macs); dense: the "
                   "dense-equivalent m*n*k per instruction (Instr::macs; m8n8k4 .f16 is four "
                   "quad pairs, 1,024; a 2:4 sparse instruction issues half of it)"}};
  return json;
}

Report report_from_json(const nlohmann::json& json) {
  Report report;
  try {
    report.command = json.at("command").get<std::string>();
    report.engine = json.at("engine").get<std::string>();
    for (const auto& entry : json.at("variants")) {
      VariantResult v;
      v.ptx = entry.at("ptx").get<std::string>();
      if (entry.contains("file")) v.file = entry.at("file").get<std::string>();
      v.passed = entry.at("passed").get<uint64_t>();
      v.failed = entry.at("failed").get<uint64_t>();
      v.engine_errors = entry.at("engine_errors").get<uint64_t>();
      v.cycles = entry.at("cycles").get<uint64_t>();
      if (entry.contains("instructions")) v.instructions = entry.at("instructions").get<uint64_t>();
      v.seconds = entry.at("seconds").get<double>();
      v.details = entry.at("details").get<std::vector<std::string>>();
      if (entry.contains("cases")) {
        v.cases.emplace();
        for (const auto& c : entry.at("cases"))
          v.cases->push_back(
              {c.at("case").get<uint64_t>(), c.at("ok").get<bool>(), c.at("d").get<std::string>()});
      }
      report.variants.push_back(std::move(v));
    }
    if (json.contains("activity")) report.activity = activity_from_json(json.at("activity"));
    report.wall_seconds = json.at("wall_seconds").get<double>();
    report.exit_code = json.at("exit_code").get<int>();
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(std::string("malformed report: ") + e.what());
  }
  return report;
}

void write_json_report(const Report& report, const std::string& path) {
  std::ofstream out(path);
  out << to_json(report).dump(2) << "\n";
  if (!out.flush()) throw std::runtime_error(path + ": cannot write the report");
}

namespace {

std::string xml_escape(const std::string& text) {
  std::string out;
  for (char ch : text) {
    switch (ch) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        out += ch;
    }
  }
  return out;
}

}  // namespace

// One <testsuite> per vector file (replay) or one for the run; a <testcase>
// per variant, failing with the variant's mismatch lines.
void write_junit_report(const Report& report, const std::string& path) {
  std::vector<std::string> suites;  // in first-seen order
  for (const auto& v : report.variants)
    if (suites.empty() || suites.back() != v.file) suites.push_back(v.file);
  std::ostringstream xml;
  xml << std::fixed << std::setprecision(3);
  xml << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  xml << "<testsuites name=\"tcu " << report.command << "\" tests=\"" << report.variants.size()
      << "\" time=\"" << report.wall_seconds << "\">\n";
  for (const std::string& suite : suites) {
    const std::string suite_name =
        "tcu " + report.command + " [" + report.engine + "]" + (suite.empty() ? "" : " " + suite);
    int tests = 0, failures = 0;
    double seconds = 0;
    for (const auto& v : report.variants)
      if (v.file == suite) ++tests, failures += !v.ok(), seconds += v.seconds;
    xml << "  <testsuite name=\"" << xml_escape(suite_name) << "\" tests=\"" << tests
        << "\" failures=\"" << failures << "\" errors=\"0\" time=\"" << seconds << "\">\n";
    for (const auto& v : report.variants) {
      if (v.file != suite) continue;
      xml << "    <testcase classname=\"" << xml_escape(suite_name) << "\" name=\""
          << xml_escape(v.ptx) << "\" time=\"" << v.seconds << "\">\n";
      if (!v.ok()) {
        std::string body;
        for (const auto& line : v.details) body += line + "\n";
        xml << "      <failure message=\"" << v.failed << " of " << v.passed + v.failed
            << " cases failed, " << v.engine_errors << " engine check(s) failed\">"
            << xml_escape(body) << "</failure>\n";
      }
      xml << "      <system-out>" << v.passed << "/" << v.passed + v.failed
          << " passed</system-out>\n";
      xml << "    </testcase>\n";
    }
    xml << "  </testsuite>\n";
  }
  xml << "</testsuites>\n";
  std::ofstream out(path);
  out << xml.str();
  if (!out.flush()) throw std::runtime_error(path + ": cannot write the JUnit report");
}

}  // namespace tcu
