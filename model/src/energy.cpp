#include "tcu/energy.h"

#include <algorithm>
#include <cstdlib>
#include <string_view>

#include "tcu/phys_figures.h"  // generated from spec/phys_osu018.toml

namespace tcu {

namespace {

bool engine_built(const DatapathConfig& config, ActivityEngine engine) {
  switch (engine) {
    case ActivityEngine::kInt4:
      return config.int4_enable;
    case ActivityEngine::kE2m1:
      return config.e2m1_enable;
    case ActivityEngine::kF16:
      return config.f16_enable;
    case ActivityEngine::kF64:
      return config.f64_enable;
  }
  return false;
}

int config_stages(const DatapathConfig& config, ActivityEngine engine) {
  switch (engine) {
    case ActivityEngine::kInt4:
      return config.int_stages;
    case ActivityEngine::kE2m1:
      return config.e2m1_stages;
    case ActivityEngine::kF16:
    case ActivityEngine::kF64:
      return config.fma_stages;
  }
  return 0;
}

// The engine's unit at `stages`, or at the nearest stage count measured
// (the fewer stages on a tie); nullptr if the data file has none.
const phys::DotUnitFigures* unit_figures(ActivityEngine engine, int stages) {
  const phys::DotUnitFigures* best = nullptr;
  for (const phys::DotUnitFigures& f : phys::kDotUnits) {
    if (f.engine != int(engine)) continue;
    const int d = std::abs(f.stages - stages), best_d = best ? std::abs(best->stages - stages) : 0;
    if (!best || d < best_d || (d == best_d && f.stages < best->stages)) best = &f;
  }
  return best;
}

// The engine's registers around its units: every clocked cycle their idle
// figure; every issued MAC the engine's data energy around its units, its
// logic measured busy where the data file has it (engine_glue_figures),
// else the registers' dynamic figure and their data toggles (toggles per
// issued MAC x pJ per toggle).
void price_regs(EngineEnergy& out, const EngineActivity& a, ActivityEngine engine,
                const DatapathConfig& config) {
  const int sparse = engine == ActivityEngine::kInt4 ? int(config.sparse_enable) : -1;
  const EngineRegs r = engine_regs_figures(engine, out.units, out.config_stages, sparse);
  if (!r.found) return;
  out.regs_flip_flops = r.flip_flops;
  out.regs_source = r.exact ? "measured" : "interpolated";
  out.regs_idle_pj_per_cycle = r.flip_flops * r.idle_pj_per_flip_flop;
  out.regs_dynamic_pj_per_issued_mac = r.dynamic_pj_per_issued_mac;
  out.regs_dynamic_priced = r.dynamic_priced || r.toggles_priced;
  out.regs_toggles_per_issued_mac = r.toggles_per_issued_mac;
  out.regs_pj_per_toggle = r.pj_per_toggle;
  out.regs_data_pj_per_issued_mac = r.toggles_per_issued_mac * r.pj_per_toggle;
  out.around_pj_per_issued_mac =
      out.regs_dynamic_pj_per_issued_mac + out.regs_data_pj_per_issued_mac;
  const EngineGlue g = engine_glue_figures(engine, out.units, out.config_stages, sparse);
  if (g.found) {
    out.glue_source = g.exact ? "measured" : "per issued MAC";
    out.glue_pj_per_issued_mac = g.dynamic_pj_per_issued_mac;
    out.around_pj_per_issued_mac = g.dynamic_pj_per_issued_mac;
  }
  out.regs_pj = double(a.busy + a.idle) * out.regs_idle_pj_per_cycle +
                double(a.macs) * out.around_pj_per_issued_mac;
  out.pj += out.regs_pj;
}

// The engine's energy a cycle in each state (energy.h).
void price_states(EngineEnergy& out, const EngineActivity& a) {
  out.idle_pj_per_cycle = out.units * out.idle_pj_per_unit_cycle + out.regs_idle_pj_per_cycle;
  out.gated_pj_per_cycle = out.units * out.leakage_pj_per_unit_cycle;
  const double per_mac = out.dynamic_pj_per_issued_mac + out.around_pj_per_issued_mac;
  if (a.busy)
    out.busy_pj_per_cycle = double(a.macs) * per_mac / double(a.busy) + out.idle_pj_per_cycle;
}

RouterEnergy router_energy(const Activity& activity, const DatapathConfig& config) {
  RouterEnergy out;
  out.words = activity.router_words;
  out.width = (config.words_per_cycle + config.d_words_per_cycle) / 2.0;
  double busy = 0, idle = 0;
  if (!router_figures(out.width, busy, idle)) return out;
  out.measured = true;
  out.idle_pj_per_cycle = idle;
  out.dynamic_pj_per_word = (busy - idle) / out.width;
  out.pj = double(activity.cycles) * idle + double(out.words) * out.dynamic_pj_per_word;
  return out;
}

// The engine's tables that apply: the int4 engine's at `sparse` where it has
// any (its sparse path is on a clock of its own, so they differ little).
std::vector<const phys::EngineRegsFigures*> regs_tables(ActivityEngine engine, int sparse) {
  std::vector<const phys::EngineRegsFigures*> all, same;
  for (const phys::EngineRegsFigures& f : phys::kEngineRegs) {
    if (f.engine < 0) break;
    if (f.engine != int(engine)) continue;
    all.push_back(&f);
    if (f.sparse == sparse) same.push_back(&f);
  }
  return same.empty() ? all : same;
}

double mean_idle_per_flip_flop(ActivityEngine engine, int sparse, bool& own) {
  double sum = 0;
  int n = 0;
  for (const phys::EngineRegsFigures* f : regs_tables(engine, sparse))
    if (f->idle_pj_per_flip_flop >= 0) sum += f->idle_pj_per_flip_flop, ++n;
  own = n > 0;
  if (own) return sum / n;
  for (const phys::EngineRegsFigures& f : phys::kEngineRegs) {
    if (f.engine < 0) break;
    if (f.idle_pj_per_flip_flop >= 0) sum += f.idle_pj_per_flip_flop, ++n;
  }
  if (n) return sum / n;
  // None measured on an engine: the output skid's, a register bank of the
  // same cells with its load enable, inputs held.
  for (const phys::GlueFigures& g : phys::kGlue) {
    if (!g.unit) break;
    if (std::string_view(g.unit) == "tcu_output_skid") return g.idle_pj_per_cycle / g.flip_flops;
  }
  return 0.0;
}

}  // namespace

double piecewise_linear(std::vector<std::pair<double, double>> points, double x) {
  std::sort(points.begin(), points.end());
  std::vector<std::pair<double, double>> merged;  // equal x averaged
  for (size_t i = 0; i < points.size();) {
    size_t j = i;
    double sum = 0;
    for (; j < points.size() && points[j].first == points[i].first; ++j) sum += points[j].second;
    merged.emplace_back(points[i].first, sum / double(j - i));
    i = j;
  }
  if (merged.empty()) return 0.0;
  if (merged.size() == 1) return merged[0].second;
  size_t hi = 1;
  while (hi + 1 < merged.size() && merged[hi].first < x) ++hi;
  const auto& [x0, y0] = merged[hi - 1];
  const auto& [x1, y1] = merged[hi];
  return y0 + (x - x0) * (y1 - y0) / (x1 - x0);
}

EngineRegs engine_regs_figures(ActivityEngine engine, int units, int stages, int sparse) {
  EngineRegs out;
  const std::vector<const phys::EngineRegsFigures*> tables = regs_tables(engine, sparse);
  if (tables.empty()) return out;
  out.found = true;
  std::vector<std::pair<double, double>> by_stages;  // (stages, flip-flops at `units`)
  std::vector<int> stage_counts;
  for (const phys::EngineRegsFigures* f : tables)
    if (std::find(stage_counts.begin(), stage_counts.end(), f->stages) == stage_counts.end())
      stage_counts.push_back(f->stages);
  for (int s : stage_counts) {
    std::vector<std::pair<double, double>> by_units;
    for (const phys::EngineRegsFigures* f : tables) {
      if (f->stages != s) continue;
      by_units.emplace_back(f->units, f->flip_flops);
      if (f->units == units && s == stages) out.exact = true;
    }
    by_stages.emplace_back(s, piecewise_linear(by_units, units));
  }
  out.flip_flops = std::max(0.0, piecewise_linear(by_stages, stages));
  out.idle_pj_per_flip_flop = mean_idle_per_flip_flop(engine, sparse, out.idle_own);
  double sum = 0;
  int n = 0;
  for (const phys::EngineRegsFigures* f : tables)
    if (f->dynamic_pj_per_issued_mac >= 0) sum += f->dynamic_pj_per_issued_mac, ++n;
  out.dynamic_priced = n > 0;
  out.dynamic_pj_per_issued_mac = n ? sum / n : 0.0;
  for (const phys::EngineRegsToggles& t : phys::kEngineRegsToggles) {
    if (t.engine < 0) break;
    if (t.engine != int(engine)) continue;
    out.toggles_priced = true;
    out.toggles_per_issued_mac = t.toggles_per_issued_mac;
    out.pj_per_toggle = t.pj_per_toggle;
  }
  return out;
}

EngineGlue engine_glue_figures(ActivityEngine engine, int units, int stages, int sparse) {
  EngineGlue out;
  for (const phys::EngineGlueFigures& g : phys::kEngineGlue) {
    if (g.engine < 0) break;
    if (g.engine != int(engine)) continue;
    out.found = true;
    out.exact = g.units == units && g.stages == stages && g.sparse == sparse;
    out.dynamic_pj_per_issued_mac = g.dynamic_pj_per_issued_mac;
  }
  return out;
}

bool router_figures(double width, double& busy_pj_per_cycle, double& idle_pj_per_cycle) {
  std::vector<RouterEnergyPoint> points;
  for (const phys::RouterFigures& f : phys::kRouterPoints) {
    if (f.words_per_cycle == 0) break;
    points.push_back(
        {f.words_per_cycle, f.d_words_per_cycle, f.busy_pj_per_cycle, f.idle_pj_per_cycle});
  }
  return router_figures(points, width, busy_pj_per_cycle, idle_pj_per_cycle);
}

bool router_figures(const std::vector<RouterEnergyPoint>& points, double width,
                    double& busy_pj_per_cycle, double& idle_pj_per_cycle) {
  std::vector<std::pair<double, double>> busy, idle;
  for (const RouterEnergyPoint& f : points) {
    const double w = (f.words_per_cycle + f.d_words_per_cycle) / 2.0;
    busy.emplace_back(w, f.busy_pj_per_cycle);
    idle.emplace_back(w, f.idle_pj_per_cycle);
  }
  if (busy.empty()) return false;
  busy_pj_per_cycle = piecewise_linear(busy, width);
  idle_pj_per_cycle = piecewise_linear(idle, width);
  return true;
}

double glue_pj_per_cycle(const DatapathConfig& config, int* parts) {
  int engines = 0, d_bits = 0, priced = 0;
  for (int e = 0; e < kActivityEngines; ++e) {
    if (!engine_built(config, ActivityEngine(e))) continue;
    ++engines;
    d_bits = std::max(d_bits, phys::kEngineDBits[e]);
  }
  double pj = 0;
  for (const phys::GlueFigures& g : phys::kGlue) {
    if (!g.unit) break;
    const std::string_view unit = g.unit;
    if (unit == "tcu_output_skid") {
      if (!engines) continue;
      pj += g.idle_pj_per_cycle * double(g.flip_flops - g.data_w + d_bits) / g.flip_flops;
    } else if (unit == "tcu_activity") {
      if (!engines) continue;
      pj += g.idle_pj_per_cycle * (engines + 1.0 / phys::kActivityCounters);
    } else {
      pj += g.idle_pj_per_cycle;
    }
    ++priced;
  }
  if (parts) *parts = priced;
  return pj;
}

const char* energy_library() { return phys::kLibrary; }
const char* energy_figures_date() { return phys::kDate; }

EnergyEstimate estimate_energy(const Activity& activity, const DatapathConfig& config) {
  EnergyEstimate estimate;
  for (int e = 0; e < kActivityEngines; ++e) {
    const ActivityEngine engine = ActivityEngine(e);
    const EngineActivity& a = activity[engine];
    EngineEnergy& out = estimate.engines[size_t(e)];
    const phys::DotUnitFigures* figures = unit_figures(engine, config_stages(config, engine));
    out.config_stages = config_stages(config, engine);
    out.units = engine_built(config, engine) ? dot_units(config, engine_family(engine)) : 0;
    out.macs = a.macs;
    estimate.macs += a.macs;
    if (!figures) {  // not in the data file: not priced
      estimate.unpriced_macs += a.macs;
      continue;
    }
    const phys::DotUnitFigures& f = *figures;
    out.measured = true;
    out.unit = f.unit;
    out.stages = f.stages;
    out.dynamic_pj_per_issued_mac = (f.busy_pj_per_cycle - f.idle_pj_per_cycle) / f.issued_macs_per_cycle;
    out.idle_pj_per_unit_cycle = f.idle_pj_per_cycle;
    out.leakage_pj_per_unit_cycle = f.leakage_pj_per_cycle;
    out.pj = double(a.macs) * out.dynamic_pj_per_issued_mac +
             double(a.busy + a.idle) * out.units * f.idle_pj_per_cycle +
             double(a.gated) * out.units * f.leakage_pj_per_cycle;
    if (out.units > 0) price_regs(out, a, engine, config);
    price_states(out, a);
    estimate.pj += out.pj;
  }
  estimate.router = router_energy(activity, config);
  estimate.pj += estimate.router.pj;
  estimate.glue.pj_per_cycle = glue_pj_per_cycle(config, &estimate.glue.parts);
  estimate.glue.pj = double(activity.cycles) * estimate.glue.pj_per_cycle;
  estimate.pj += estimate.glue.pj;
  return estimate;
}

}  // namespace tcu
