// The RTL engine: the SystemC warp front-end driving the Verilated datapath.
// SystemC elaborates once per process, so a process makes one RTL engine.
#pragma once

#include <memory>
#include <string>

#include "tcu/engine.h"

namespace tcu {

// config: a name from datapath_configs() ("default", "small"). trace: an
// FST file to write, or empty. Throws std::invalid_argument for an unknown
// configuration.
std::unique_ptr<Engine> make_rtl_engine(const std::string& config, const std::string& trace,
                                        int rf_regs_per_cycle);

}  // namespace tcu
