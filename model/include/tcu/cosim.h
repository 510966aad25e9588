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
  // The datapath accepted it (input handshake). `waited` says whether its
  // operands were already waiting at the datapath's input when the previous
  // instruction was accepted; if that one was of the same family, the accept
  // interval must then equal its occupancy.
  void datapath_accept(uint64_t tag, uint64_t cycle, bool waited);
  // The datapath returned its D (output handshake).
  void datapath_result(uint64_t tag, uint64_t cycle);
  // Its D reached the lanes' registers. `isolated`: the front-end was empty
  // when it issued, so the whole latency must equal instruction_latency().
  void retire(uint64_t tag, const Fragment& d, uint64_t cycle, bool isolated);

  void set_front_end(const FrontEndConfig& front_end) { front_end_ = front_end; }

  uint64_t checked() const { return checked_; }
  uint64_t errors() const { return error_count_; }
  std::vector<std::string> take_errors();

 private:
  struct InFlight {
    Instr instr;
    std::string case_name;
    Fragment expected;
    uint64_t issue_cycle = 0, accept_cycle = 0;
  };
  void error(const InFlight& f, uint64_t cycle, const std::string& what);

  DatapathConfig datapath_;
  FrontEndConfig front_end_;
  std::unordered_map<uint64_t, InFlight> in_flight_;
  // The last accept: its cycle, family and occupancy.
  bool any_accept_ = false;
  uint64_t last_accept_cycle_ = 0;
  Family last_accept_family_ = Family::kInt4Dense;
  int last_accept_occupancy_ = 0;
  std::vector<std::string> errors_;
  uint64_t checked_ = 0, error_count_ = 0;
};

}  // namespace tcu
