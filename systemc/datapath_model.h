// The Verilated core (tb/tcu_sim_top.sv around rtl/tcu_core.sv: the operand
// router and the datapath) as a plain C++ object clocked by its caller, one
// configuration per compiled model. No SystemC here: the warp front-end
// (warp_frontend.h) clocks it from its one SystemC process, and `tcu bench`
// and the RTL tests drive it directly (core_driver.h).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core_words.h"
#include "datapath_ports.h"
#include "tcu/activity.h"
#include "tcu/timing.h"

namespace tcu {

// A destination word on the core's wb_* ports.
struct WbWord {
  int lane = 0, reg = 0;
  uint32_t data = 0;
};

// A write-back beat as the wb_word_* ports carry it, as 32-bit words: slot
// s's valid bit at bit s of `valid`, its lane and word index at bits 5s and
// 3s of `lane` and `reg`, its data in data[s] (slots beyond the core's
// DWordsPerCycle zero).
constexpr int kMaxWbWords = 64;
struct WbPorts {
  std::array<uint32_t, kMaxWbWords / 32> valid{};
  std::array<uint32_t, 5 * kMaxWbWords / 32> lane{};
  std::array<uint32_t, 3 * kMaxWbWords / 32> reg{};
  std::array<uint32_t, kMaxWbWords> data{};
};
// The valid words of the first `d_words` slots of a beat, in slot order,
// into `out` (and their slots into `slots`, where given); returns their
// number.
int wb_words(const WbPorts& ports, int d_words, WbWord* out, int* slots = nullptr);

class DatapathModel {
 public:
  virtual ~DatapathModel() = default;
  virtual std::string config() const = 0;
  virtual int words_per_cycle() const = 0;    // WordsPerCycle: word slots of a beat
  virtual int d_words_per_cycle() const = 0;  // DWordsPerCycle

  // Inputs; they take effect at the next falling_edge() (combinational
  // outputs) and rising_edge() (registers).
  virtual void set_reset(bool active) = 0;
  virtual void set_start(bool start) = 0;
  virtual void set_descriptor(const CoreDescriptor& descriptor) = 0;
  // A beat: its words (at most words_per_cycle()) in slots 0..count-1, the
  // other slots empty (nullptr: no words); `last`: the instruction's last
  // beat. set_words packs the words first.
  virtual void set_beat(const PackedBeat* beat, bool last) = 0;
  void set_words(const LaneWord* words, int count, bool last) {
    const PackedBeat beat = pack_beat(words, count);
    set_beat(count ? &beat : nullptr, last);
  }
  virtual void set_wb_ready(bool ready) = 0;

  // Outputs as they stand before the next rising edge.
  virtual bool in_start_ready() const = 0;
  virtual bool wb_valid() const = 0;
  virtual bool wb_last() const = 0;
  virtual uint32_t wb_tag() const = 0;
  // The beat's ports (wb_word_*).
  virtual void wb_ports(WbPorts* out) const = 0;
  // The beat's valid words; returns their number.
  int wb_words(WbWord* out) const {
    WbPorts ports;
    wb_ports(&ports);
    return tcu::wb_words(ports, d_words_per_cycle(), out);
  }
  // Observation of the router-datapath handshakes (tcu_sim_top's obs_*).
  virtual bool dp_valid() const = 0;
  virtual bool dp_ready() const = 0;
  virtual uint32_t dp_tag() const = 0;
  virtual bool d_valid() const = 0;  // the datapath's out_valid_o
  virtual bool d_ready() const = 0;  // its out_ready_i (the router's d_ready_o)
  virtual uint32_t d_tag() const = 0;
  // What crossed, registered at the edge that took it (tcu_sim_top's
  // obs_hand_*, obs_out_d_o), so read after rising_edge(): the descriptor
  // and operands the datapath took at the last edge that accepted (with
  // dp_valid() and dp_ready() high before it), and out_d_o
  // (kDatapathDWords words) at the last edge ending a cycle with d_valid().
  virtual void dp_inputs(DatapathInputs* inputs) const = 0;
  // Of those, the descriptor only (the ports left as they are), and the
  // ports' words in place (valid until the next edge).
  virtual void dp_descriptor(DatapathInputs* inputs) const = 0;
  virtual DatapathPortWords dp_port_words() const = 0;
  // Whether dp_inputs() equals `expected`, descriptor and ports (a model
  // may compare its ports in place, without dp_inputs' copy).
  virtual bool dp_inputs_equal(const DatapathInputs& expected) const {
    DatapathInputs got;
    dp_inputs(&got);
    return same_datapath_inputs(expected, got);
  }
  virtual const uint32_t* d() const = 0;
  // The activity counters (the act_*_o ports) since reset.
  virtual Activity activity() const = 0;

  // One clock cycle is rising_edge() then falling_edge(); a caller reads
  // the outputs before the rising edge and changes inputs between the two.
  virtual void rising_edge() = 0;
  virtual void falling_edge() = 0;
  // Settles inputs set between clock edges (no edge, no trace sample).
  virtual void settle() = 0;
  uint64_t cycle() const { return cycle_; }

  // Resets the core: rst_ni high, then low (a falling edge of rst_ni, which
  // starts every asynchronous reset, also of flops behind a clock gate that
  // is closed, whatever value the inputs started from: with a random
  // power-up state rst_ni may start low), held low for `cycles` clock
  // cycles, then released. The other inputs are the caller's.
  void reset(int cycles = 4) {
    set_reset(false);
    settle();
    set_reset(true);
    settle();
    for (int i = 0; i < cycles; ++i) {
      rising_edge();
      falling_edge();
    }
    set_reset(false);
  }

  // Starts an FST waveform (time in ns = cycle).
  virtual void open_trace(const std::string& path) = 0;

  // Writes the model's code coverage (Verilator's coverage.dat format) to
  // `path`; false, writing nothing, when it was Verilated without coverage
  // (a build without TCU_COVERAGE).
  virtual bool write_coverage(const std::string& path) = 0;

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
// from spec/config.toml's [[config]] or TCU_CONFIG_<name> and, for a
// parameter it leaves out, the spec's default (which tests/spec/ checks is
// the RTL's).
const std::vector<std::pair<std::string, DatapathConfig>>& datapath_configs();
// Whether the configuration's datapath is one's own (TCU_BYO_RTL, in place
// of rtl/tcu_datapath.sv): its timing is its own, so the scoreboard checks
// its results only unless told otherwise (CheckMode).
bool datapath_is_own(const std::string& config);
// Whether the configuration's model writes waveforms: the configurations
// built from the synthesis implementations (SynthImpl=1) are Verilated
// without tracing (rtl/CMakeLists.txt says why), and open_trace refuses them.
bool datapath_is_traced(const std::string& config);
// "name: Param=value ...; ..." for `tcu --version` and the reports.
const char* datapath_configurations_text();

}  // namespace tcu
