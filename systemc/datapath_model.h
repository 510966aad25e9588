// The Verilated datapath (tb/tcu_sim_top.sv around rtl/tcu_datapath.sv) as a
// plain C++ object clocked by its caller, one configuration per compiled
// model. No SystemC here: the warp front-end (warp_frontend.h) clocks it
// from its one SystemC process, and `tcu bench` drives it directly to
// measure the raw datapath.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "datapath_ports.h"
#include "tcu/activity.h"
#include "tcu/timing.h"

namespace tcu {

class DatapathModel {
 public:
  virtual ~DatapathModel() = default;
  virtual std::string config() const = 0;

  // Inputs; they take effect at the next falling_edge() (combinational
  // outputs) and rising_edge() (registers).
  virtual void set_reset(bool active) = 0;
  virtual void set_instruction(const DatapathInputs& inputs) = 0;
  virtual void set_in_valid(bool valid) = 0;
  virtual void set_out_ready(bool ready) = 0;
  // The waveform-only lane view; each write is captured at the next rising
  // edge. Calling these costs nothing when no trace is open.
  virtual void show_lane_src(const std::array<uint32_t, kLaneSrcWords>& words) = 0;
  virtual void show_lane_dst(const std::array<uint32_t, kLaneDstWords>& words) = 0;

  // Outputs as they stand before the next rising edge.
  virtual bool in_ready() const = 0;
  virtual bool out_valid() const = 0;
  virtual uint32_t out_tag() const = 0;
  virtual const uint32_t* out_d() const = 0;  // kDatapathDWords words
  // The activity counters (the act_*_o ports) since reset.
  virtual Activity activity() const = 0;

  // One clock cycle is rising_edge() then falling_edge(); a caller reads
  // the outputs before the rising edge and changes inputs between the two.
  virtual void rising_edge() = 0;
  virtual void falling_edge() = 0;
  uint64_t cycle() const { return cycle_; }

  // Starts an FST waveform (time in ns = cycle).
  virtual void open_trace(const std::string& path) = 0;

 protected:
  uint64_t cycle_ = 0;
};

// Throws std::invalid_argument for a configuration that is not compiled in.
std::unique_ptr<DatapathModel> make_datapath_model(const std::string& config);
const DatapathConfig& datapath_config(const std::string& config);

// Defined by the generated datapath_factory.cpp (rtl/CMakeLists.txt), the one
// source that depends on which configurations were Verilated: every other
// object is the same for any set of configurations, so `tcu explore` links
// them into a tool for one more configuration without compiling them again.
//
// The configurations compiled in: every DatapathConfig field set by name,
// from TCU_CONFIG_<name> or, for a parameter it leaves out, the RTL default.
const std::vector<std::pair<std::string, DatapathConfig>>& datapath_configs();
// The parameters' defaults as rtl/tcu_datapath.sv declares them.
DatapathConfig rtl_default_datapath_config();
// "name: Param=value ...; ..." for `tcu --version` and the reports.
const char* datapath_configurations_text();

}  // namespace tcu
