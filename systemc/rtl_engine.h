// The RTL engine: the SystemC warp front-end driving the Verilated core.
// SystemC elaborates once per process, so a process makes one RTL engine.
#pragma once

#include <memory>
#include <string>

#include "tcu/engine.h"
#include "warp_frontend.h"

namespace tcu {

struct RtlOptions {
  std::string config = "default";  // a name from datapath_configs()
  std::string trace;               // an FST file to write, or empty
  // Register words read a cycle; 0: the configuration's WordsPerCycle.
  // More than WordsPerCycle is refused (std::invalid_argument).
  int rf_regs_per_cycle = 0;
  Stimulus stimulus;  // back-pressure and fault injection
};

// Throws std::invalid_argument for an unknown configuration or a register
// bandwidth above its router's WordsPerCycle.
std::unique_ptr<Engine> make_rtl_engine(const RtlOptions& options);
std::unique_ptr<Engine> make_rtl_engine(const std::string& config, const std::string& trace,
                                        int rf_regs_per_cycle);

// Changes the front-end's register-file bandwidth of an idle engine made by
// make_rtl_engine (one process can elaborate only one); 0: the router's
// WordsPerCycle. Throws std::invalid_argument for another engine or a
// bandwidth above WordsPerCycle.
void set_rf_bandwidth(Engine& rtl_engine, int rf_regs_per_cycle);

// Whether the engine's requested fault (RtlOptions::stimulus.fault) found an
// instruction to go into; false for any other engine.
bool fault_injected(const Engine& rtl_engine);

}  // namespace tcu
