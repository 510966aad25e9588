#include "timing.h"

#include <cstdio>
#include <nlohmann/json.hpp>

#include "exit_codes.h"
#include "tcu/phys_figures.h"
#include "tcu/reference_timing.h"

namespace tcu {
namespace {

std::string claims_text(const TimingReference& ref) {
  if (ref.latency_claimed && ref.interval_claimed) return "latency, interval";
  if (ref.latency_claimed) return "latency";
  if (ref.interval_claimed) return "interval";
  return "-";
}

std::string parameters_text(const DatapathConfig& dp) {
  std::string text;
  for (const auto& [name, value] : datapath_parameters(dp))
    text += std::string(text.empty() ? "" : " ") + name + "=" + std::to_string(value);
  return text;
}

void print_rows(const std::vector<ModelTiming>& rows, std::ostream& out) {
  char line[256];
  std::snprintf(line, sizeof line, "%-22s %7s %8s   %-15s %9s %8s   %s\n", "family", "latency",
                "interval", "NAK sm_80 class", "ALU / MMA", "A100", "a100 preset claims");
  out << line;
  for (const ModelTiming& row : rows) {
    const TimingReference& ref = *row.reference;
    const std::string nak =
        ref.alu_latency ? std::to_string(ref.alu_latency) + " / " + std::to_string(ref.mma_latency)
                        : "-";
    const std::string interval = ref.interval ? std::to_string(ref.interval) : "-";
    std::snprintf(line, sizeof line, "%-22s %7d %8d   %-15s %9s %8s   %s\n", ref.family,
                  row.latency, row.interval, *ref.nak_class ? ref.nak_class : "-", nak.c_str(),
                  interval.c_str(), claims_text(ref).c_str());
    out << line;
  }
}

// The dot units' pipeline settings the data file (spec/phys_osu018.toml,
// tcu::phys::kDotUnitClocks) has figures for, and the configuration's own:
// the unit latency each costs (unit_latency, the timing formula) and the
// clock it allows (0: the data file has no figure of it).
struct UnitSetting {
  const char* engine;
  const char* parameter;
  int stages;
  int unit_latency;
  double fmax_mhz;
  bool configured;  // the configuration's own setting
};

std::vector<UnitSetting> unit_settings(const DatapathConfig& dp) {
  struct Engine {
    const char* name;
    const char* parameter;
    Family family;
    int DatapathConfig::*stages;
  };
  static const Engine engines[] = {
      {"int4", "IntStages", Family::kInt4Dense, &DatapathConfig::int_stages},
      {"e2m1", "E2m1Stages", Family::kE2m1, &DatapathConfig::e2m1_stages},
      {"f16", "FmaStages", Family::kF16, &DatapathConfig::fma_stages},
      {"f64", "FmaStages", Family::kF64, &DatapathConfig::fma_stages}};
  std::vector<UnitSetting> out;
  for (int e = 0; e < 4; ++e) {
    bool own = false;
    for (const phys::DotUnitClock* u = phys::kDotUnitClocks; u->engine >= 0; ++u) {
      if (u->engine != e) continue;
      DatapathConfig c = dp;
      c.*engines[e].stages = u->stages;
      own = own || dp.*engines[e].stages == u->stages;
      out.push_back({engines[e].name, engines[e].parameter, u->stages,
                     unit_latency(c, engines[e].family), u->fmax_mhz,
                     dp.*engines[e].stages == u->stages});
    }
    if (!own)
      out.push_back({engines[e].name, engines[e].parameter, dp.*engines[e].stages,
                     unit_latency(dp, engines[e].family), 0.0, true});
  }
  return out;
}

void print_unit_settings(const DatapathConfig& dp, std::ostream& out) {
  out << "unit pipelines: each setting's unit latency (cycles) and the clock it allows ("
      << phys::kLibrary << ", spec/phys_osu018.toml; * this configuration's)\n";
  char line[160];
  std::snprintf(line, sizeof line, "  %-6s %-11s %6s %13s %9s %8s\n", "unit", "parameter", "value",
                "unit latency", "fmax MHz", "ns");
  out << line;
  for (const UnitSetting& s : unit_settings(dp)) {
    if (s.fmax_mhz > 0.0)
      std::snprintf(line, sizeof line, "  %-6s %-11s %5d%1s %13d %9.1f %8.2f\n", s.engine,
                    s.parameter, s.stages, s.configured ? "*" : "", s.unit_latency, s.fmax_mhz,
                    1e3 / s.fmax_mhz);
    else
      std::snprintf(line, sizeof line, "  %-6s %-11s %5d%1s %13d %9s %8s\n", s.engine, s.parameter,
                    s.stages, s.configured ? "*" : "", s.unit_latency, "-", "-");
    out << line;
  }
}

// The configuration's clock as spec/phys_osu018.toml composes it, or nullptr.
const phys::ConfigClock* config_clock(const std::string& config) {
  for (const phys::ConfigClock& c : phys::kConfigClocks)
    if (c.config != nullptr && config == c.config) return &c;
  return nullptr;
}

void print_clock(const std::string& config, std::ostream& out) {
  const phys::ConfigClock* figures = config_clock(config);
  if (figures == nullptr) {
    out << "clock: the data file (spec/phys_osu018.toml) has no figure of " << config << "\n";
    return;
  }
  char text[128];
  std::snprintf(text, sizeof text, "%.1f MHz", figures->fmax_mhz);
  out << "clock (" << phys::kLibrary << ", composed from spec/phys_osu018.toml): datapath " << text
      << ", set by " << figures->set_by
      << (figures->in_place ? " (in its register wrapper)" : " (timed alone)") << "\n";
  for (const phys::EngineClock& e : figures->engines) {
    if (e.fmax_mhz <= 0.0) continue;
    std::snprintf(text, sizeof text, "%.1f MHz", e.fmax_mhz);
    out << "  " << e.engine << " engine " << text << ", set by " << e.set_by << "\n";
  }
}

nlohmann::ordered_json clock_json(const std::string& config) {
  const phys::ConfigClock* figures = config_clock(config);
  if (figures == nullptr) return nullptr;
  nlohmann::ordered_json j = {{"library", phys::kLibrary},
                              {"fmax_mhz", figures->fmax_mhz},
                              {"set_by", figures->set_by},
                              {"in_place", figures->in_place}};
  j["engines"] = nlohmann::ordered_json::object();
  for (const phys::EngineClock& e : figures->engines)
    if (e.fmax_mhz > 0.0) j["engines"][e.engine] = {{"fmax_mhz", e.fmax_mhz}, {"set_by", e.set_by}};
  return j;
}

void print_notes(const std::vector<ModelTiming>& rows, std::ostream& out) {
  const AccelSimReference& accel = a100_accel_sim();
  out << "Accel-Sim SM80, every tensor instruction alike: trace mode latency "
      << accel.trace_latency << ", initiation " << accel.trace_interval << "; PTX mode "
      << accel.ptx_latency << " / " << accel.ptx_interval << "\n"
      << "notes:\n";
  for (const ModelTiming& row : rows)
    out << "  " << row.reference->family << ": " << row.reference->note << "\n";
  out << "sources:\n";
  for (const TimingReference& ref : a100_timing_references())
    if (*ref.interval_source)
      out << "  A100 interval, " << ref.family << ": " << ref.interval_source << "\n";
  for (const ReferenceSource& source : a100_sources())
    out << "  " << source.name << ": " << source.citation << "\n";
}

void print_text(const TimingOptions& options, const std::vector<ModelTiming>& rows,
                const std::vector<std::string>& misses, std::ostream& out) {
  out << "tcu timing: configuration " << options.config << " (" << parameters_text(options.datapath)
      << "), front-end at WordsPerCycle (" << options.datapath.words_per_cycle
      << ") words a cycle\n"
      << "latency: issue to a dependent instruction able to read D (collection + datapath + "
         "write-back); interval: between back-to-back independent issues\n";
  print_rows(rows, out);
  print_clock(options.config, out);
  print_unit_settings(options.datapath, out);
  print_notes(rows, out);
  if (misses.empty()) {
    out << "the a100 preset's claims: all kept at " << options.config << "\n";
    return;
  }
  out << "the a100 preset's claims: " << misses.size() << " missed at " << options.config << "\n";
  for (const std::string& miss : misses) out << "  " << miss << "\n";
}

nlohmann::ordered_json reference_json(const TimingReference& ref) {
  const AccelSimReference& accel = a100_accel_sim();
  nlohmann::ordered_json j;
  j["nak_class"] = *ref.nak_class ? nlohmann::ordered_json(ref.nak_class) : nullptr;
  j["nak_alu_latency"] = ref.alu_latency ? nlohmann::ordered_json(ref.alu_latency) : nullptr;
  j["nak_mma_latency"] = ref.mma_latency ? nlohmann::ordered_json(ref.mma_latency) : nullptr;
  j["a100_interval"] = ref.interval ? nlohmann::ordered_json(ref.interval) : nullptr;
  j["a100_interval_source"] = ref.interval_source;
  j["accel_sim"] = {{"trace_latency", accel.trace_latency},
                    {"trace_interval", accel.trace_interval},
                    {"ptx_latency", accel.ptx_latency},
                    {"ptx_interval", accel.ptx_interval}};
  j["latency_claimed"] = ref.latency_claimed;
  j["interval_claimed"] = ref.interval_claimed;
  j["note"] = ref.note;
  return j;
}

void print_json(const TimingOptions& options, const std::vector<ModelTiming>& rows,
                const std::vector<std::string>& misses, std::ostream& out) {
  nlohmann::ordered_json doc;
  doc["config"] = options.config;
  nlohmann::ordered_json parameters = nlohmann::ordered_json::object();
  for (const auto& [name, value] : datapath_parameters(options.datapath)) parameters[name] = value;
  doc["parameters"] = parameters;
  doc["families"] = nlohmann::ordered_json::array();
  for (const ModelTiming& row : rows)
    doc["families"].push_back({{"family", row.reference->family},
                               {"ptx", row.instr.ptx()},
                               {"latency", row.latency},
                               {"interval", row.interval},
                               {"reference", reference_json(*row.reference)}});
  doc["unit_pipelines"] = nlohmann::ordered_json::array();
  for (const UnitSetting& s : unit_settings(options.datapath))
    doc["unit_pipelines"].push_back(
        {{"unit", s.engine},
         {"parameter", s.parameter},
         {"value", s.stages},
         {"unit_latency", s.unit_latency},
         {"fmax_mhz",
          s.fmax_mhz > 0.0 ? nlohmann::ordered_json(s.fmax_mhz) : nlohmann::ordered_json(nullptr)},
         {"configured", s.configured}});
  doc["sources"] = nlohmann::ordered_json::object();
  for (const ReferenceSource& source : a100_sources())
    doc["sources"][source.name] = source.citation;
  doc["a100_claims_missed"] = misses;
  doc["clock"] = clock_json(options.config);
  out << doc.dump(2) << "\n";
}

}  // namespace

int timing(const TimingOptions& options, std::ostream& out) {
  const std::vector<ModelTiming> rows = a100_model_timing(options.datapath);
  const std::vector<std::string> misses = a100_calibration_misses(options.datapath);
  if (options.json)
    print_json(options, rows, misses, out);
  else
    print_text(options, rows, misses, out);
  return options.check && !misses.empty() ? kExitMismatch : kExitOk;
}

}  // namespace tcu
