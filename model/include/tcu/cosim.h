// The golden model behind a small lockstep interface, as Ibex's
// dv/cosim/cosim.h: the co-simulation tells it what the RTL did, cycle by
// cycle, and it checks each step against the golden model and the timing
// formula. No SystemC here; the front-end (systemc/) drives it.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <unordered_map>
#include <vector>

#include "tcu/golden.h"
#include "tcu/timing.h"

namespace tcu {

class Cosim {
 public:
  Cosim(const DatapathConfig& datapath, const FrontEndConfig& front_end)
      : datapath_(datapath), front_end_(front_end) {}

  // An instruction entered the front-end; the golden model computes its D
  // now. `case_name` identifies it in error messages.
  void issue(uint64_t tag, const Instr& instr, const WarpOperands& operands,
             const std::string& case_name, uint64_t cycle);
  // The datapath accepted it (input handshake) at edge `cycle`; its operands
  // were first offered at edge `offered`. If that was no later than the
  // earliest the formula lets the datapath take it (the previous accept
  // plus the previous instruction's occupancy on the same engine, or its
  // datapath latency on another: the drain rule), the datapath decided
  // when: the accept interval must be that formula plus the cycles the
  // pipelines held between.
  void datapath_accept(uint64_t tag, uint64_t cycle, uint64_t offered);
  // out_ready was low at this rising edge. Report it before that cycle's
  // datapath_accept and datapath_result, each cycle in order; every edge
  // not reported had out_ready high.
  void datapath_backpressure(uint64_t cycle);
  // The datapath returned its D (output handshake): it must be the cycle the
  // output model below delivers it.
  void datapath_result(uint64_t tag, uint64_t cycle);
  // Its D reached the lanes' registers. `isolated`: the front-end was empty
  // when it issued, so the whole latency must equal instruction_latency()
  // plus the cycles back-pressure added to its datapath latency and the
  // `write_back_stalls` cycles its write-back was held by back-pressure.
  void retire(uint64_t tag, const Fragment& d, uint64_t cycle, bool isolated,
              uint64_t write_back_stalls = 0);
  // A rule the front-end checks itself (output stability, D's unused bits)
  // was broken by the instruction with this tag.
  void violation(uint64_t tag, uint64_t cycle, const std::string& what);
  // The case name an issued tag carries (empty if unknown).
  std::string case_name(uint64_t tag) const;

  void set_front_end(const FrontEndConfig& front_end) { front_end_ = front_end; }

  uint64_t checked() const { return checked_; }
  uint64_t errors() const { return error_count_; }
  std::vector<std::string> take_errors();

 private:
  struct InFlight {
    Instr instr;
    std::string case_name;
    Fragment expected;
    uint64_t issue_cycle = 0, accept_cycle = 0, stalls_at_accept = 0, result_cycle = 0;
    // The output model's cycles: its D left the pipeline (0: not yet), and
    // the output handshake it expects (0: not yet).
    uint64_t take_cycle = 0, deliver_cycle = 0;
  };
  void error(const InFlight& f, uint64_t cycle, const std::string& what);
  // The output model (docs/ARCHITECTURE.md, "Timing"): the datapath's
  // pipelines and its output skid register, one rising edge at a time.
  void advance(uint64_t cycle);
  void edge(uint64_t cycle, bool out_ready);
  std::string formula_text(const InFlight& f) const;

  DatapathConfig datapath_;
  FrontEndConfig front_end_;
  std::unordered_map<uint64_t, InFlight> in_flight_;
  // Accepted instructions whose D has not left the pipeline, in accept
  // order, each with the cycle its D reaches the pipeline's output without
  // holds; the tag in the skid register, if any.
  struct InPipe {
    uint64_t tag, due_unheld, stalls_at_accept;
  };
  std::deque<InPipe> pipe_;
  bool skid_full_ = false;
  uint64_t skid_tag_ = 0;
  // The first edge not modelled yet, and the edges at which the pipelines
  // held.
  uint64_t next_edge_ = 0, stalls_ = 0;
  // The last accept: its cycle, instruction and the holds before it.
  bool any_accept_ = false;
  uint64_t last_accept_cycle_ = 0, last_accept_stalls_ = 0;
  Instr last_accept_instr_;
  std::vector<std::string> errors_;
  uint64_t checked_ = 0, error_count_ = 0;
};

}  // namespace tcu
