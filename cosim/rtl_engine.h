// The RTL engine: the SystemC warp front-end (systemc/) driving the
// Verilated core, checked by the golden co-simulation (cosim.h) and with one
// injectable fault (fault_injector.h).
// SystemC elaborates once per process, so a process makes one RTL engine.
#pragma once

#include <memory>
#include <string>

#include "cosim.h"
#include "fault.h"
#include "tcu/engine.h"
#include "warp_frontend.h"

namespace tcu {

struct Stimulus {
  double backpressure = 0;  // probability that wb_ready is low in a cycle
  uint64_t seed = 1;        // of the back-pressure pattern
  Fault fault = Fault::kNone;
  CheckMode check = CheckMode::kCycles;  // what the scoreboard checks
};

struct RtlOptions {
  std::string config = "default";  // a name from datapath_configs()
  std::string trace;               // an FST file to write, or empty
  FrontEndConfig front_end;        // the register file (rf at most WordsPerCycle)
  Stimulus stimulus;               // back-pressure and fault injection
};

// Throws std::invalid_argument for an unknown configuration or a front-end
// configuration that front_end_config_error or rf_bandwidth_error refuses.
std::unique_ptr<Engine> make_rtl_engine(const RtlOptions& options);
std::unique_ptr<Engine> make_rtl_engine(const std::string& config, const std::string& trace,
                                        const FrontEndConfig& front_end);

// Changes the front-end's register file of an idle engine made by
// make_rtl_engine (one process can elaborate only one). Throws
// std::invalid_argument for another engine or a refused configuration.
void set_front_end(Engine& rtl_engine, const FrontEndConfig& front_end);

// Whether the engine's requested fault (RtlOptions::stimulus.fault) found an
// instruction to go into; false for any other engine.
bool fault_injected(const Engine& rtl_engine);

}  // namespace tcu
