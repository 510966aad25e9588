// The one driver of the core's instruction ports (in_start_i, the
// descriptor, a beat of register words, in_last_i; rtl/tcu_core.sv), shared
// by the warp front-end (warp_frontend.h), `tcu bench`'s raw core and the RTL
// tests. It holds the handshake: a start waits for in_start_ready_o, the
// beats after it are taken one a cycle. What the beats hold is the
// caller's: the front-end reads each from the lanes' registers in its
// cycle, CoreFeeder takes them prepared.
//
// Per cycle: sample() before the rising edge, then (after it) offer() or
// offer_nothing().
#pragma once

#include <cstddef>
#include <deque>

#include "datapath_model.h"

namespace tcu {

class CoreDriver {
 public:
  explicit CoreDriver(DatapathModel* model) : model_(*model) {}

  // What the coming rising edge takes of what is on the ports.
  enum class Taken { kNothing, kBeat, kLastBeat };
  Taken sample() {
    if (!offered_) return Taken::kNothing;
    // A start waits for in_start_ready; the beats after it are always taken.
    if (beat_ == 0 && !model_.in_start_ready()) return Taken::kNothing;
    if (++beat_ < beats_) return Taken::kBeat;
    beat_ = beats_ = 0;
    return Taken::kLastBeat;
  }
  // Whether an instruction is being fed (begun and its last beat not taken).
  bool busy() const { return beats_ != 0; }
  // The beat offer() puts on the ports next (0: the start, with the
  // descriptor).
  size_t beat() const { return beat_; }
  // The next instruction has this many beats (at least 1); only when idle.
  void begin(size_t beats) {
    beats_ = beats;
    beat_ = 0;
  }
  // Beat beat() of the instruction begun; `descriptor` is read at beat 0.
  void offer(const CoreDescriptor& descriptor, const PackedBeat& words) {
    offered_ = true;
    model_.set_start(beat_ == 0);
    if (beat_ == 0) model_.set_descriptor(descriptor);
    model_.set_beat(&words, beat_ + 1 == beats_);
  }
  // No start and no beat: the router must ignore the word ports and
  // in_last_i (rtl/tcu_operand_router.sv), so they carry junk -- every slot
  // valid with arbitrary tags and data, in_last_i high -- and a router that
  // reads them outside a beat corrupts its operands and fails the checks.
  void offer_nothing() {
    offered_ = false;
    model_.set_start(false);
    model_.set_beat(&junk_beat(), true);
  }

 private:
  static const PackedBeat& junk_beat() {
    static const PackedBeat junk = [] {
      PackedBeat beat;
      beat.count = 1;  // the ports take every slot's fields; data with count > 0
      uint32_t state = 0x9e3779b9u;
      auto next = [&state] { return state = state * 1664525u + 1013904223u; };
      beat.valid.fill(~0u);
      for (uint32_t& w : beat.op) w = next();
      for (uint32_t& w : beat.reg) w = next();
      for (uint32_t& w : beat.lane) w = next();
      for (uint32_t& w : beat.data) w = next();
      return beat;
    }();
    return junk;
  }

  DatapathModel& model_;
  size_t beats_ = 0, beat_ = 0;
  bool offered_ = false;
};

// An instruction ready to be fed: its descriptor and its beats of words.
struct CoreInstr {
  CoreDescriptor descriptor;
  std::vector<PackedBeat> beats;
};
CoreInstr core_instr(const Instr& instr, const WarpOperands& warp, uint32_t tag, int per_cycle);

// Feeds prepared instructions into the core at full rate through a
// CoreDriver (a beat a cycle, the next start as soon as the router takes
// it); for `tcu bench`'s raw core and the RTL tests, which write D back
// with wb_ready as they set it. Per cycle: sample() before rising_edge(),
// drive() after it.
class CoreFeeder {
 public:
  explicit CoreFeeder(DatapathModel* model) : driver_(model) {}
  // `instr` must stay alive until it has been taken.
  void push(const CoreInstr* instr) { queue_.push_back(instr); }
  bool idle() const { return queue_.empty(); }
  // Whether the beat on the ports is taken at this edge (and the
  // instruction's last: returns 2); 0 if none is.
  int sample() {
    const CoreDriver::Taken taken = driver_.sample();
    if (taken == CoreDriver::Taken::kLastBeat) queue_.pop_front();
    return int(taken);
  }
  void drive() {
    if (queue_.empty()) return driver_.offer_nothing();
    const CoreInstr& instr = *queue_.front();
    if (!driver_.busy()) driver_.begin(instr.beats.size());
    driver_.offer(instr.descriptor, instr.beats[driver_.beat()]);
  }

 private:
  CoreDriver driver_;
  std::deque<const CoreInstr*> queue_;
};

}  // namespace tcu
