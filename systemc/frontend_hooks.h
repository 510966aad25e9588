// What the warp front-end calls and others implement: the checker it
// reports every step to (co-verification implements it: cosim/cosim.h's
// Cosim), and the hooks through which a fault goes in (cosim/
// fault_injector.h). Plain C++: the front-end holds a reference to each and
// knows neither implementation.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tcu/golden.h"
#include "tcu/register_file.h"

namespace tcu {

struct PackedBeat;  // core_words.h
struct WbWord;      // datapath_model.h

// The steps of an instruction through the front-end, cycle by cycle.
class FrontEndChecker {
 public:
  virtual ~FrontEndChecker() = default;

  // An instruction entered the front-end at `cycle`. `case_name`
  // identifies it in error messages. `expected`: the golden D of it where
  // the caller has it already (alive until the instruction retires), or
  // null.
  virtual void issue(uint64_t tag, const Instr& instr, const WarpOperands& operands,
                     const std::string& case_name, uint64_t cycle,
                     const Fragment* expected = nullptr) = 0;
  // The datapath accepted it (input handshake) at edge `cycle`; its
  // operands were first offered at edge `offered`.
  virtual void datapath_accept(uint64_t tag, uint64_t cycle, uint64_t offered) = 0;
  // out_ready was low at this rising edge. Reported before that cycle's
  // datapath_accept and datapath_result, each cycle in order; every edge
  // not reported had out_ready high.
  virtual void datapath_backpressure(uint64_t cycle) = 0;
  // The datapath returned its D (output handshake) at edge `cycle`.
  virtual void datapath_result(uint64_t tag, uint64_t cycle) = 0;
  // Its D reached the lanes' registers at `cycle`. `isolated`: the
  // front-end was empty when it issued (its whole latency is then
  // predictable); `write_back_stalls`: cycles back-pressure held its
  // write-back.
  virtual void retire(uint64_t tag, const Fragment& d, uint64_t cycle, bool isolated,
                      uint64_t write_back_stalls) = 0;
  // A rule the front-end checks itself was broken by the instruction with
  // this tag (0 or unknown: by none in particular).
  virtual void violation(uint64_t tag, uint64_t cycle, const std::string& what) = 0;
  // The case name an issued tag carries (empty if unknown).
  virtual std::string case_name(uint64_t tag) const = 0;
  // Between runs: a new register file (the timing of collection and
  // write-back follows it).
  virtual void set_front_end(const FrontEndConfig& front_end) = 0;
};

// The places a fault can go into. The defaults inject nothing.
class FrontEndFaults {
 public:
  virtual ~FrontEndFaults() = default;
  // An instruction starts collection: whether its metadata words are to be
  // corrupted.
  virtual bool take_meta(const Instr&) { return false; }
  // Corrupts the metadata words of a beat read for such an instruction.
  virtual void corrupt_meta(const std::vector<RegWord>&, PackedBeat*) {}
  // A write-back beat's `n` words as the lanes receive them.
  virtual void on_write_back(WbWord*, int) {}
  // Whether on_write_back may change the coming beat's words.
  virtual bool alters_write_back() const { return false; }
  // A write-back beat is due: whether it is held a cycle that no
  // back-pressure explains.
  virtual bool hold_beat() { return false; }
};

}  // namespace tcu
