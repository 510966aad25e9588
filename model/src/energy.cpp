#include "tcu/energy.h"

#include <cstdlib>

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

}  // namespace

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
  return estimate;
}

}  // namespace tcu
