// The cycles the scoreboard expects (docs/architecture.md, "Timing"): the
// datapath's pipelines and its output skid register modelled one rising
// edge at a time from the handshakes the testbench reports, and the
// formulas of model/timing.h for the accept interval, the datapath latency
// and an isolated instruction's whole latency. Each check returns the
// error's text (empty: as predicted); the caller names the case.
#pragma once

#include <cstdint>
#include <deque>
#include <string>

#include "tag_table.h"
#include "tcu/activity.h"
#include "tcu/instr.h"
#include "tcu/timing.h"

namespace tcu {

class TimingModel {
 public:
  TimingModel(const DatapathConfig& datapath, const FrontEndConfig& front_end)
      : datapath_(datapath), front_end_(front_end) {}
  void set_front_end(const FrontEndConfig& front_end) { front_end_ = front_end; }

  void issue(uint64_t tag, const Instr& instr, uint64_t cycle);
  // The datapath accepted `tag` at edge `cycle`, first offered at edge
  // `offered`. If that was no later than the earliest the formula lets the
  // datapath take it (the previous accept plus the previous instruction's
  // occupancy on the same engine, or its datapath latency on another: the
  // drain rule), the datapath decided when: the accept interval must be
  // that formula plus the cycles the pipelines held between.
  std::string accept(uint64_t tag, uint64_t cycle, uint64_t offered);
  // out_ready was low at this edge (reported in cycle order, before that
  // edge's accept and result).
  void backpressure(uint64_t cycle);
  // The output handshake of `tag` at edge `cycle`: it must be the edge the
  // output model delivers it.
  std::string result(uint64_t tag, uint64_t cycle);
  // The edge the output model delivered `tag`'s D (0: not yet).
  uint64_t delivered(uint64_t tag) const;
  // The edges so far at which the pipelines held (the skid register full and
  // a D waiting behind it): the RTL's stalled cycles, summed over engines.
  uint64_t held_edges() const { return stalls_; }
  // The held edges and, per engine, the edges from an instruction's accept
  // to its D leaving the pipelines (its take), each edge counted once: what
  // the RTL's activity counters must read (tcu/activity.h).
  ReferenceActivity activity() const { return activity_; }
  // Its D reached the lanes at `cycle`; an isolated instruction's latency
  // must equal instruction_latency() plus the back-pressure it met. Forgets
  // the tag.
  std::string retire(uint64_t tag, uint64_t cycle, bool isolated, uint64_t write_back_stalls);

 private:
  struct Times {
    Instr instr;
    uint64_t issue = 0, accept = 0, stalls_at_accept = 0, result = 0;
    // Its D left the pipeline (0: not yet), and the output handshake the
    // model expects (0: not yet).
    uint64_t take = 0, deliver = 0;
  };
  // The pipelines' oldest D and the skid register at one rising edge.
  void advance(uint64_t cycle);
  void edge(uint64_t cycle, bool out_ready);
  void count_busy(const Times& t);
  std::string formula_text(const Times& t) const;
  std::string latency_error(const Times& t, uint64_t cycle, uint64_t write_back_stalls) const;

  DatapathConfig datapath_;
  FrontEndConfig front_end_;
  TagTable<Times> times_;
  // Accepted instructions whose D has not left the pipeline, in accept
  // order, each with the cycle its D reaches the pipeline's output without
  // holds; the tag in the skid register, if any.
  struct InPipe {
    uint64_t tag, due_unheld, stalls_at_accept;
  };
  std::deque<InPipe> pipe_;
  // The busy edges so far, and per engine the first edge not counted yet.
  ReferenceActivity activity_;
  std::array<uint64_t, kActivityEngines> busy_next_{};
  bool skid_full_ = false;
  uint64_t skid_tag_ = 0;
  // The first edge not modelled yet, and the edges at which the pipelines
  // held.
  uint64_t next_edge_ = 0, stalls_ = 0;
  // The last accept: its cycle, instruction and the holds before it.
  bool any_accept_ = false;
  uint64_t last_accept_cycle_ = 0, last_accept_stalls_ = 0;
  Instr last_accept_instr_;
};

}  // namespace tcu
