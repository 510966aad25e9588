// The warp front-end: 32 lanes of registers and an operand collector that
// reads them at the register file's bandwidth into the Verilated core
// (rtl/tcu_core.sv): lane-order register words, which the core's operand
// router places in matrix order itself; D comes back as lane-order words,
// which the front-end writes into the lanes' destination registers. Every
// step is reported to a checker (FrontEndChecker, frontend_hooks.h; the
// co-verification's Cosim implements it), which checks it.
//
// One SystemC process does whole cycles: per cycle it samples the core's
// outputs, clocks the Verilated model's rising edge, runs the front-end's
// logic on what it sampled, sets the core's inputs and clocks the falling
// edge, so the model sees exactly what it would see from signals, without
// a wide sc_signal or a delta cycle per port. The clock is the process's
// own timed event (the first edge when start_clock() is called, once the
// caller has reset the core): woken at a rising edge, the process runs that
// cycle and, while instructions are in flight, the next ones back to back,
// up to a quantum of kQuantum cycles (temporal decoupling, as TLM's quantum
// keeper: nothing else in the simulation reads the time between), and sets
// the event at the edge after its last cycle. One event and one activation
// run a quantum, where an sc_clock would add its two edges' processes and
// signal updates to every cycle.
//
// Its pieces, each with one job: the core's ports are driven by CoreDriver
// (core_driver.h, shared with `tcu bench`'s raw core); the handshakes' protocol
// rules are checked by HandshakeChecks; D is written back by the
// WriteBackMonitor; wb_ready is held low at random by BackPressure; one
// fault goes in through the FrontEndFaults hooks (frontend_hooks.h).
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <systemc>
#include <tuple>
#include <vector>

#include "backpressure.h"
#include "core_driver.h"
#include "datapath_model.h"
#include "frontend_hooks.h"
#include "handshake_checks.h"
#include "tcu/engine.h"
#include "tcu/golden.h"
#include "tcu/timing.h"
#include "write_back_monitor.h"

namespace tcu {

struct BackPressureStimulus {
  double probability = 0;  // that wb_ready is low in a cycle
  uint64_t seed = 1;       // of the back-pressure pattern
};

// The operands (and the expected D, where given) are the caller's: they
// stay alive until the instruction retires (the front-end copies no
// register file).
struct IssueRequest {
  Instr instr;
  const WarpOperands* operands = nullptr;
  std::string name;                    // case name for error messages
  const Fragment* expected = nullptr;  // the golden D, where the caller has it
};

SC_MODULE(WarpFrontEnd) {
  SC_HAS_PROCESS(WarpFrontEnd);

  // `period`: the clock's period (its rising edges at t, t + period, ...
  // from the time t of start_clock()).
  WarpFrontEnd(sc_core::sc_module_name name, DatapathModel * model, const DatapathConfig& datapath,
               const FrontEndConfig& front_end, FrontEndChecker* checker,
               FrontEndFaults* faults, const BackPressureStimulus& backpressure,
               const sc_core::sc_time& period);

  // Starts the clock: its first rising edge at the current simulation
  // time, then one a period. The caller resets the core first: no edge
  // reaches the model, and no check reads its outputs, before then.
  void start_clock();
  // Queues an instruction; its D lands in results() in issue order.
  void issue(IssueRequest request);
  bool idle() const;
  // When set, the process calls sc_pause() once the front-end is idle, so
  // sc_start() returns as soon as the queued work is done.
  void pause_when_idle(bool pause) { pause_when_idle_ = pause; }
  // The last cycle the process runs (it pauses there): a run's cycle limit,
  // exact although the process runs ahead of SystemC's time.
  void set_last_cycle(uint64_t cycle) { last_cycle_ = cycle; }
  // Cycles the process runs back to back in one activation, at most.
  static constexpr int kQuantum = 64;
  // Between runs (idle): a new register-file bandwidth (at most the
  // router's WordsPerCycle: throws std::invalid_argument).
  void set_front_end(const FrontEndConfig& config);
  std::vector<Fragment>& results() { return results_; }
  // Between runs (results() taken): `fragments`' storage is reused for the
  // coming Ds, and `*fragments` (emptied) swapped with results(), so that
  // neither allocates again.
  void reuse(std::vector<Fragment>* fragments) {
    write_back_.reuse(fragments);
    results_.swap(*fragments);
  }
  // Per D in results(), the write-back cycles back-pressure held.
  std::vector<uint64_t>& write_back_stalls() { return write_back_stalls_; }
  const FrontEndConfig& front_end() const { return front_end_; }
  const DatapathConfig& datapath() const { return datapath_; }
  uint64_t cycle() const { return cycle_; }
  // The case names of the instructions issued but not yet retired.
  std::vector<std::string> unfinished() const;

 private:
  // What the front-end works out once per instruction variant at
  // front_end_ (the words of a beat are the same for every instance; only
  // their data differ).
  struct CollectPlan {
    RegSchedule schedule;          // collect_schedule's
    std::vector<PackedBeat> tags;  // pack_tags of each beat
    PlacedSchedule places;         // where each beat's words are read
    OperandSources widths;         // the operands' register widths (no fragments)
    int d_words = 0;               // D's 32-bit words
  };
  // An instruction from its start to its write-back, in issue order.
  struct Flight {
    uint64_t tag;
    const IssueRequest* request;  // in pending_
    const CollectPlan* plan = nullptr;
    bool placed = false;        // its fragments are the layouts' shape: read by places
    bool corrupt_meta = false;  // a metadata fault goes into this one
    uint64_t offered = 0;       // the edge the router's dp_valid was first seen
    bool offered_seen = false;
    bool isolated = false;  // nothing else in flight when it issued
  };
  void tick();
  void run_cycle();  // one clock cycle
  void start_collection();
  void drive_collection();
  void router_handover();
  void datapath_output();
  void set_wb_ready();
  const CollectPlan& plan_of(const Instr& instr);

  DatapathModel& model_;
  sc_core::sc_time period_;
  sc_core::sc_event edge_;  // the clock's next rising edge
  bool clock_started_ = false;
  bool pause_when_idle_ = false;
  uint64_t last_cycle_ = UINT64_MAX;
  DatapathConfig datapath_;
  FrontEndConfig front_end_;
  FrontEndChecker* cosim_;
  CoreDriver driver_;
  FrontEndFaults& faults_;
  BackPressure backpressure_;
  HandshakeChecks handshakes_;
  WriteBackMonitor write_back_;
  bool wb_ready_ = false;    // what the core sees until the next falling edge
  bool wb_stalled_ = false;  // wb_ready_ is low by back-pressure (not the fault)
  uint64_t cycle_ = 0;
  uint64_t next_tag_ = 0;
  // The requests issued since the front-end was last idle, in issue order
  // (a deque: they stay where they are); the next to start collection.
  std::deque<IssueRequest> pending_;
  size_t next_pending_ = 0;
  // Being collected (the beat driver_.beat() on the ports); collected,
  // waiting for the datapath; in the datapath (then the write-back).
  std::optional<Flight> collecting_;
  OperandSources sources_;  // collecting_'s registers
  PlacedSources placed_sources_;
  PackedBeat beat_words_;
  // The plans by A's, B's, C's and D's layouts and the family; the last
  // one's variant, looked at first.
  using ScheduleKey = std::tuple<const FragmentLayout*, const FragmentLayout*,
                                 const FragmentLayout*, const FragmentLayout*, Family>;
  std::map<ScheduleKey, CollectPlan> schedules_;
  Instr last_instr_;
  const CollectPlan* last_plan_ = nullptr;
  std::deque<Flight> collected_;
  std::deque<Flight> in_datapath_;
  std::vector<Fragment> results_;
  std::vector<uint64_t> write_back_stalls_;  // parallel to results_
  size_t in_flight_ = 0;
};

}  // namespace tcu
