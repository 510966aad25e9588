#include "tcu/activity.h"

#include <sstream>

namespace tcu {

const char* to_string(ActivityEngine engine) {
  switch (engine) {
    case ActivityEngine::kInt4:
      return "int4";
    case ActivityEngine::kE2m1:
      return "e2m1";
    case ActivityEngine::kF16:
      return "f16";
    case ActivityEngine::kF64:
      return "f64";
  }
  return "?";
}

ActivityEngine activity_engine(Family family) {
  switch (family) {
    case Family::kInt4Dense:
    case Family::kInt4Sparse:
      return ActivityEngine::kInt4;
    case Family::kE2m1:
      return ActivityEngine::kE2m1;
    case Family::kF16:
      return ActivityEngine::kF16;
    case Family::kF64:
      return ActivityEngine::kF64;
  }
  return ActivityEngine::kInt4;
}

Family engine_family(ActivityEngine engine) {
  switch (engine) {
    case ActivityEngine::kInt4:
      return Family::kInt4Dense;
    case ActivityEngine::kE2m1:
      return Family::kE2m1;
    case ActivityEngine::kF16:
      return Family::kF16;
    case ActivityEngine::kF64:
      return Family::kF64;
  }
  return Family::kInt4Dense;
}

Activity& Activity::operator+=(const Activity& o) {
  cycles += o.cycles;
  router_words += o.router_words;
  for (size_t e = 0; e < engines.size(); ++e) {
    engines[e].busy += o.engines[e].busy;
    engines[e].idle += o.engines[e].idle;
    engines[e].stalled += o.engines[e].stalled;
    engines[e].gated += o.engines[e].gated;
    engines[e].macs += o.engines[e].macs;
  }
  return *this;
}

Activity Activity::operator-(const Activity& o) const {
  Activity d = *this;
  d.cycles -= o.cycles;
  d.router_words -= o.router_words;
  for (size_t e = 0; e < engines.size(); ++e) {
    d.engines[e].busy -= o.engines[e].busy;
    d.engines[e].idle -= o.engines[e].idle;
    d.engines[e].stalled -= o.engines[e].stalled;
    d.engines[e].gated -= o.engines[e].gated;
    d.engines[e].macs -= o.engines[e].macs;
  }
  return d;
}

uint64_t router_words(const Instr& instr) {
  return uint64_t(source_words(instr)) + uint64_t(dest_words(instr));
}

double mac_utilization(const Activity& activity, const DatapathConfig& config,
                       ActivityEngine engine) {
  const double peak = double(peak_issued_macs_per_cycle(config, engine_family(engine)));
  if (peak <= 0 || activity.cycles == 0) return 0;
  return double(activity[engine].macs) / (peak * double(activity.cycles));
}

std::vector<ActivityDisagreement> activity_disagreements(
    const Activity& counters, const RunIssue& issued, bool backpressure,
    const std::optional<ReferenceActivity>& reference) {
  std::vector<ActivityDisagreement> problems;
  auto report = [&](ActivityEngine engine, const std::string& what) {
    problems.push_back({engine, std::string(to_string(engine)) + ": " + what});
  };
  // Back-pressure: the run's, or the write-back's (out_ready low at an edge
  // the reference saw).
  const bool held_back = backpressure || (reference && reference->out_ready_low_edges > 0);
  uint64_t stalled = 0;
  for (size_t e = 0; e < counters.engines.size(); ++e) {
    const auto engine = ActivityEngine(e);
    const EngineActivity& c = counters.engines[e];
    const EngineIssue& want = issued[e];
    stalled += c.stalled;
    std::ostringstream text;
    auto flush = [&] {
      report(engine, text.str());
      text.str("");
    };
    if (c.busy + c.idle + c.gated != counters.cycles) {
      text << "busy " << c.busy << " + idle " << c.idle << " + gated " << c.gated
           << " != cycles " << counters.cycles;
      flush();
    }
    if (c.macs != want.macs) {
      text << "counted " << c.macs << " MACs, the run issued " << want.macs;
      flush();
    }
    if (want.instructions == 0 && (c.busy || c.idle)) {
      text << "no instruction, yet busy " << c.busy << " and idle " << c.idle << " cycles";
      flush();
    }
    if (c.busy < want.instructions) {
      text << "busy " << c.busy << " cycles for " << want.instructions << " instructions";
      flush();
    }
    if (c.stalled > c.busy) {
      text << "stalled " << c.stalled << " > busy " << c.busy;
      flush();
    }
    // out_ready never low: the skid register never fills, no pipeline holds.
    if (!held_back && c.stalled) {
      text << c.stalled << " stalled cycles without back-pressure";
      flush();
    }
    if (reference && c.busy != reference->busy[e]) {
      text << "busy " << c.busy << " cycles, the reference's instructions were in flight "
           << reference->busy[e];
      flush();
    }
  }
  if (reference && stalled != reference->held_edges)
    problems.push_back({std::nullopt, "stalled cycles " + std::to_string(stalled) +
                                          " over the engines, the reference's pipelines held " +
                                          std::to_string(reference->held_edges)});
  return problems;
}

}  // namespace tcu
