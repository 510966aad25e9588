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
  for (size_t e = 0; e < engines.size(); ++e) {
    d.engines[e].busy -= o.engines[e].busy;
    d.engines[e].idle -= o.engines[e].idle;
    d.engines[e].stalled -= o.engines[e].stalled;
    d.engines[e].gated -= o.engines[e].gated;
    d.engines[e].macs -= o.engines[e].macs;
  }
  return d;
}

double mac_utilization(const Activity& activity, const DatapathConfig& config,
                       ActivityEngine engine) {
  const double peak = double(peak_issued_macs_per_cycle(config, engine_family(engine)));
  if (peak <= 0 || activity.cycles == 0) return 0;
  return double(activity[engine].macs) / (peak * double(activity.cycles));
}

std::vector<std::string> activity_disagreements(const Activity& counters, const RunIssue& issued) {
  std::vector<std::string> problems;
  auto report = [&](ActivityEngine engine, const std::string& what) {
    problems.push_back(std::string(to_string(engine)) + ": " + what);
  };
  for (size_t e = 0; e < counters.engines.size(); ++e) {
    const auto engine = ActivityEngine(e);
    const EngineActivity& c = counters.engines[e];
    const EngineIssue& want = issued[e];
    std::ostringstream text;
    if (c.busy + c.idle + c.gated != counters.cycles) {
      text << "busy " << c.busy << " + idle " << c.idle << " + gated " << c.gated
           << " != cycles " << counters.cycles;
      report(engine, text.str());
      text.str("");
    }
    if (c.macs != want.macs) {
      text << "counted " << c.macs << " MACs, the run issued " << want.macs;
      report(engine, text.str());
      text.str("");
    }
    if (want.instructions == 0 && (c.busy || c.idle)) {
      text << "no instruction, yet busy " << c.busy << " and idle " << c.idle << " cycles";
      report(engine, text.str());
      text.str("");
    }
    if (c.busy < want.instructions) {
      text << "busy " << c.busy << " cycles for " << want.instructions << " instructions";
      report(engine, text.str());
      text.str("");
    }
    if (c.stalled > c.busy) {
      text << "stalled " << c.stalled << " > busy " << c.busy;
      report(engine, text.str());
    }
  }
  return problems;
}

}  // namespace tcu
