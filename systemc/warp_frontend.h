// The warp front-end: 32 lanes of registers and an operand collector that
// reads them at the register file's bandwidth into the Verilated core
// (rtl/tcu_core.sv): lane-order register words, which the core's operand
// router places in matrix order itself; D comes back as lane-order words,
// which the front-end writes into the lanes' destination registers. Every
// step is reported to the golden model's Cosim, which checks it.
//
// One SystemC process, on the clock's rising edge, does a whole cycle: it
// samples the core's outputs, clocks the Verilated model's rising edge,
// runs the front-end's logic on what it sampled, sets the core's inputs
// and clocks the falling edge, so the model sees exactly what it would see
// from signals, without a wide sc_signal or a delta cycle per port.
//
// The scoreboard: the golden model's D against the words written back
// (Cosim), the operands the router hands the datapath against
// pack_datapath_inputs (the golden layout tables) at every datapath
// handshake, and the output protocol: the datapath's out_valid, out_tag and
// out_d hold while the router does not take D, and D's bits above the
// instruction's D are zero; every D word is written back once. It can hold
// wb_ready low at random (back-pressure) and inject one fault, to show that
// the checks fire.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <systemc>
#include <tuple>
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
  kDBit,      // flip one bit of a D word on write-back
  kLate,      // hold one write-back beat a cycle, unaccounted
  kLaneSwap,  // swap two lanes' words of a write-back beat
  kMeta,      // corrupt the sparse metadata words after validation
};
// "d-bit", "late", "lane-swap", "meta" (and "none"); false if unknown.
bool parse_fault(const std::string& name, Fault* fault);
const char* to_string(Fault fault);

struct Stimulus {
  double backpressure = 0;  // probability that wb_ready is low in a cycle
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

  WarpFrontEnd(sc_core::sc_module_name name, DatapathModel * model, const DatapathConfig& datapath,
               const FrontEndConfig& front_end, const Stimulus& stimulus);

  // Queues an instruction; its D lands in results() in issue order.
  void issue(IssueRequest request);
  bool idle() const;
  // When set, the process calls sc_pause() once the front-end is idle, so
  // sc_start() returns as soon as the queued work is done.
  void pause_when_idle(bool pause) { pause_when_idle_ = pause; }
  // Between runs (idle): a new register-file bandwidth (at most the
  // router's WordsPerCycle: throws std::invalid_argument).
  void set_front_end(const FrontEndConfig& config);
  std::vector<Fragment>& results() { return results_; }
  uint64_t cycle() const { return cycle_; }
  Cosim& cosim() { return cosim_; }
  // The case names of the instructions issued but not yet retired.
  std::vector<std::string> unfinished() const;
  // Whether the requested fault found an instruction to go into.
  bool fault_injected() const { return fault_done_; }

 private:
  // An instruction from its start to its retirement, in issue order.
  struct Flight {
    uint64_t tag;
    IssueRequest request;
    const RegSchedule* schedule = nullptr;  // collect_schedule's, cached per variant
    const std::vector<PackedBeat>* tags = nullptr;  // its beats' tags, packed
    bool corrupt_meta = false;              // Fault::kMeta goes into this one
    uint64_t offered = 0;  // the edge the router's dp_valid was first seen
    bool offered_seen = false;
    bool isolated = false;  // nothing else in flight when it issued
  };
  struct WritingBack {
    uint64_t tag;
    Instr instr;
    Fragment d;
    int words = 0, stalls = 0, reg_bits = 32;
    bool isolated = false;
    std::vector<bool> written;  // per 32-bit word, lane-major
    // The register file's write-back pace (writeback_arrivals): due[c]
    // words must have arrived by the end of its cycle c; `elapsed` cycles
    // of it have run (a cycle back-pressure holds does not count).
    std::vector<int> due;
    size_t elapsed = 0;
  };
  void tick();
  void start_collection();
  void drive_collection();
  // The handshakes' checks before the edge; what crossed after it.
  bool check_handover_tag(const Flight& f);
  void check_handover(const Flight& f);
  void check_output(bool taken, const Flight* f);
  void check_output_data();
  void take_beat();
  void advance_write_back();
  void set_wb_ready();
  bool fault_due(Fault kind) const { return stimulus_.fault == kind && !fault_done_; }
  struct CollectPlan {
    RegSchedule schedule;
    std::vector<PackedBeat> tags;  // pack_tags of each beat
  };
  const CollectPlan& plan_of(const Instr& instr);

  DatapathModel& model_;
  bool pause_when_idle_ = false;
  DatapathConfig datapath_;
  FrontEndConfig front_end_;
  Stimulus stimulus_;
  std::mt19937_64 backpressure_rng_;
  bool wb_ready_ = false;    // what the core sees until the next falling edge
  bool wb_stalled_ = false;  // wb_ready_ is low by back-pressure (not the fault)
  bool wb_active_ = false;   // write_backs_.front() is writing in this cycle
  Cosim cosim_;
  uint64_t cycle_ = 0;
  uint64_t next_tag_ = 0;
  std::deque<IssueRequest> pending_;
  // Being collected (the beat `beat_` on the ports); collected, waiting for
  // the datapath; in the datapath; D being written back.
  std::optional<Flight> collecting_;
  OperandSources sources_;  // collecting_'s registers
  PackedBeat beat_words_;
  size_t beat_ = 0;
  // collect_schedule per instruction variant at front_end_ (the words of a
  // beat are the same for every instance; only their data differ).
  using ScheduleKey = std::tuple<const FragmentLayout*, const FragmentLayout*,
                                 const FragmentLayout*, Family>;
  std::map<ScheduleKey, CollectPlan> schedules_;
  bool offered_ = false;
  std::deque<Flight> collected_;
  std::deque<Flight> in_datapath_;
  // D being written back, one at a time, in issue order (the front one).
  std::deque<WritingBack> write_backs_;
  uint64_t last_accept_ = 0;
  std::vector<Fragment> results_;
  size_t in_flight_ = 0;
  // The datapath's output held at the last edge with out_ready low, to
  // check it holds.
  bool held_ = false;
  uint32_t held_tag_ = 0;
  uint64_t held_full_tag_ = 0;
  std::array<uint32_t, kDatapathDWords> held_d_{};
  // Checks of what the coming edge takes: the operands of the flight with
  // handover_tag_; out_d_o held (against held_d_) or taken.
  bool handover_check_ = false;
  uint64_t handover_tag_ = 0;
  struct OutputCheck {
    bool held = false;
    uint64_t held_tag = 0;
    int taken_words = 0;  // nonzero: D taken, of this many words
    uint64_t taken_tag = 0;
  } output_check_;
  DatapathInputs expected_, got_;
  std::array<WbWord, 64> wb_words_{};
  bool fault_done_ = false;
};

}  // namespace tcu
