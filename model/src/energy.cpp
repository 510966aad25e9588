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

}  // namespace

bool router_figures(double width, double& busy_pj_per_cycle, double& idle_pj_per_cycle) {
  const phys::RouterFigures *lo = nullptr, *hi = nullptr;
  for (const phys::RouterFigures& f : phys::kRouterPoints) {
    if (f.words_per_cycle == 0) break;
    const double w = (f.words_per_cycle + f.d_words_per_cycle) / 2.0;
    if (!lo || w < (lo->words_per_cycle + lo->d_words_per_cycle) / 2.0) lo = &f;
    if (!hi || w > (hi->words_per_cycle + hi->d_words_per_cycle) / 2.0) hi = &f;
  }
  if (!lo) return false;
  const double wl = (lo->words_per_cycle + lo->d_words_per_cycle) / 2.0;
  const double wh = (hi->words_per_cycle + hi->d_words_per_cycle) / 2.0;
  const double t = wh > wl ? (width - wl) / (wh - wl) : 0.0;
  busy_pj_per_cycle = lo->busy_pj_per_cycle + t * (hi->busy_pj_per_cycle - lo->busy_pj_per_cycle);
  idle_pj_per_cycle = lo->idle_pj_per_cycle + t * (hi->idle_pj_per_cycle - lo->idle_pj_per_cycle);
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
