// The warp front-end: 32 lanes of registers, operand collection at the
// register file's bandwidth, issue into the Verilated datapath, collection
// of D and write-back into the lanes' destination registers. Every step is
// reported to the golden model's Cosim, which checks it.
//
// One SystemC process, on the clock's rising edge, does a whole cycle: it
// samples the datapath's outputs, clocks the Verilated model's rising edge,
// runs the front-end's logic on what it sampled, sets the datapath's inputs
// and clocks the falling edge, so the model sees exactly what it would see
// from signals, without a wide sc_signal or a delta cycle per port.
//
// Beyond the Cosim's checks the front-end checks the output protocol itself:
// out_valid, out_tag and out_d hold while out_ready is low, and D's bits
// above the instruction's D are zero. It can hold out_ready low at random
// (back-pressure) and inject one fault, to show that the checks fire.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <optional>
#include <random>
#include <string>
#include <systemc>
#include <vector>

#include "datapath_model.h"
#include "tcu/cosim.h"
#include "tcu/engine.h"
#include "tcu/golden.h"
#include "tcu/timing.h"

namespace tcu {

// Faults the front-end can inject into one instruction, each of which a
// check must catch (`tcu run --inject-fault`).
enum class Fault {
  kNone,
  kDBit,      // flip one bit of D on write-back
  kLate,      // take one D from the datapath a cycle late
  kLaneSwap,  // swap two lanes' D registers on write-back
  kMeta,      // corrupt one sparse metadata nibble after validation
};
// "d-bit", "late", "lane-swap", "meta" (and "none"); false if unknown.
bool parse_fault(const std::string& name, Fault* fault);
const char* to_string(Fault fault);

struct Stimulus {
  double backpressure = 0;  // probability that out_ready is low in a cycle
  uint64_t seed = 1;        // of the back-pressure pattern
  Fault fault = Fault::kNone;
};

struct IssueRequest {
  Instr instr;
  WarpOperands operands;
  std::string name;  // case name for error messages
};

SC_MODULE(WarpFrontEnd) {
  SC_HAS_PROCESS(WarpFrontEnd);
  sc_core::sc_in<bool> clk{"clk"};

  WarpFrontEnd(sc_core::sc_module_name name, DatapathModel * model,
               const DatapathConfig& datapath, const FrontEndConfig& front_end,
               const Stimulus& stimulus, bool drive_lane_view);

  // Queues an instruction; its D lands in results() in issue order.
  void issue(IssueRequest request);
  bool idle() const;
  // When set, the process calls sc_pause() once the front-end is idle, so
  // sc_start() returns as soon as the queued work is done.
  void pause_when_idle(bool pause) { pause_when_idle_ = pause; }
  // Between runs (idle): a new register-file bandwidth.
  void set_front_end(const FrontEndConfig& config) {
    front_end_ = config;
    cosim_.set_front_end(config);
  }
  std::vector<Fragment>& results() { return results_; }
  uint64_t cycle() const { return cycle_; }
  Cosim& cosim() { return cosim_; }
  // The case names of the instructions issued but not yet retired.
  std::vector<std::string> unfinished() const;
  // Whether the requested fault found an instruction to go into.
  bool fault_injected() const { return fault_done_; }

 private:
  struct Collecting {
    uint64_t tag;
    IssueRequest request;
    int cycles_left;
  };
  struct WritingBack {
    uint64_t tag;
    Instr instr;
    Fragment d;
    int cycles_left;
  };
  struct InDatapath {
    uint64_t tag;
    Instr instr;
    std::string name;
  };
  void tick();
  void take_result(uint64_t tag, const Matrix& d);
  void check_output(bool delivered, uint32_t out_tag, const Instr* instr, uint64_t tag);
  void drive_inputs(uint64_t tag, const IssueRequest& request);
  void show_lanes(const Instr& instr, const WarpOperands& operands);
  void show_lanes(const Instr& instr, const Fragment& d);
  bool fault_due(Fault kind) const { return stimulus_.fault == kind && !fault_done_; }

  DatapathModel& model_;
  DatapathInputs inputs_;
  bool pause_when_idle_ = false;
  DatapathConfig datapath_;
  FrontEndConfig front_end_;
  Stimulus stimulus_;
  std::mt19937_64 backpressure_rng_;
  bool out_ready_ = true;  // what the datapath sees until the next falling edge
  Cosim cosim_;
  bool drive_lane_view_;
  uint64_t cycle_ = 0;
  uint64_t next_tag_ = 0;
  std::deque<IssueRequest> pending_;
  std::optional<Collecting> collecting_;
  // The request presented to the datapath, waiting for in_ready.
  std::optional<uint64_t> presented_tag_;
  uint64_t presented_since_ = 0;
  uint64_t last_accept_ = 0;
  std::deque<WritingBack> write_back_;
  std::vector<InDatapath> in_datapath_;  // accepted, D not yet out
  std::vector<uint64_t> isolated_tags_;
  std::vector<Fragment> results_;
  size_t in_flight_ = 0;
  // The output held at the last edge with out_ready low, to check it holds.
  bool held_ = false;
  uint32_t held_tag_ = 0;
  uint64_t held_full_tag_ = 0;
  std::array<uint32_t, kDatapathDWords> held_d_{};
  // A D taken a cycle late (Fault::kLate).
  std::optional<std::pair<uint64_t, Matrix>> late_;
  bool fault_done_ = false;
};

}  // namespace tcu
