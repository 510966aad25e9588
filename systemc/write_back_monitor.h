// The write-back monitor: the router's D beats (wb_*) into the lanes'
// destination registers, one D at a time in issue order, each word checked
// to land inside the D fragment and once; a D retires (to the checker) when
// the register file's write-back schedule has run. It says when the
// schedule needs the next beat (wb_ready), and counts the cycles
// back-pressure held it.
//
// What a D's write-back needs of its variant (the D layout's shape, the
// schedule's pace) is worked out once per variant. A beat's tags (which
// slots are valid, their lanes and words) decode to the same places in the
// D fragment whenever they are the same: each beat of a variant's D keeps
// the places its tags last decoded to, and a beat with those tags again
// lands its data there without decoding them (the twice check still made,
// against the words written so far).
#pragma once

#include <array>
#include <bitset>
#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <vector>

#include "datapath_model.h"
#include "frontend_hooks.h"

namespace tcu {

class WriteBackMonitor {
 public:
  WriteBackMonitor(DatapathModel* model, FrontEndChecker* cosim, FrontEndFaults* faults,
                   const DatapathConfig& datapath, const FrontEndConfig& front_end)
      : model_(*model),
        cosim_(*cosim),
        faults_(*faults),
        datapath_(datapath),
        front_end_(front_end) {}
  void set_front_end(const FrontEndConfig& front_end) {
    front_end_ = front_end;
    shapes_.clear();
    last_shape_ = nullptr;
  }

  // The router took `tag`'s D from the datapath: its write-back follows the
  // ones before it.
  void start(uint64_t tag, const Instr& instr, bool isolated);
  // A beat crossed at this edge (wb_valid and wb_ready high before it).
  void take_beat(uint64_t cycle);
  // Whether a D was writing back in the cycle that just ended.
  bool active() const { return active_; }
  // At the edge ending a cycle in which the front D wrote back (active()):
  // its schedule advanced (unless `stalled` by back-pressure); once it has
  // run, the D retires into `results`, the cycles back-pressure held its
  // write-back into `stalls`. Returns whether one retired.
  bool advance(uint64_t cycle, bool stalled, std::vector<Fragment>* results,
               std::vector<uint64_t>* stalls);
  // For the coming cycle: whether a D writes back and needs a beat.
  bool need_beat();
  // The tags of the Ds still writing back, in order.
  std::vector<uint64_t> tags() const;
  // Fragments whose storage the coming Ds reuse (their contents are
  // overwritten); `fragments` is left empty.
  void reuse(std::vector<Fragment>* fragments) {
    for (Fragment& f : *fragments) spares_.push_back(std::move(f));
    fragments->clear();
  }

 private:
  using Written = std::bitset<kLanes * 8>;  // per 32-bit word of D, lane-major
  // A beat's tags and where its valid words land: slot `slot`'s data is
  // 32-bit word `half` of the D fragment's registers (two a 64-bit
  // register, its low half first).
  struct BeatPlaces {
    bool known = false;
    std::array<uint32_t, 2 + 10 + 6> tags{};  // WbPorts' valid, lane and reg words
    Written mask;
    struct Move {
      uint16_t slot, half;
    };
    std::vector<Move> moves;
  };
  // What a D's write-back needs of its variant.
  struct Shape {
    int reg_bits = 32, regs_per_lane = 0, lane_words = 0, words = 0;
    // The register file's write-back pace (writeback_arrivals): due[c]
    // words must have arrived by the end of the schedule's cycle c.
    std::vector<int> due;
    std::vector<BeatPlaces> beats;  // by beat of the write-back
  };
  struct WritingBack {
    uint64_t tag;
    Shape* shape = nullptr;
    Fragment d;
    int words = 0, stalls = 0, beats = 0;
    bool isolated = false;
    Written written;
    // Cycles of the schedule that have run (a cycle back-pressure holds
    // does not count).
    size_t elapsed = 0;
  };
  Shape& shape_of(const Instr& instr);
  // A beat by its decoded words (from `slots`), each checked; `places`
  // (null: none) learns where they land if every one is in the fragment and
  // none is twice in the beat.
  void land_words(WritingBack& wb, const WbWord* words, const int* slots, int n, uint64_t cycle,
                  BeatPlaces* places);
  void land_word(WritingBack& wb, const WbWord& w, uint64_t cycle);

  DatapathModel& model_;
  FrontEndChecker& cosim_;
  FrontEndFaults& faults_;
  DatapathConfig datapath_;
  FrontEndConfig front_end_;
  std::deque<WritingBack> write_backs_;
  std::vector<Fragment> spares_;  // storage for the coming Ds (reuse())
  bool active_ = false;  // write_backs_.front() writes in the coming cycle
  WbPorts ports_;
  std::array<WbWord, kMaxWbWords> words_{};
  std::array<int, kMaxWbWords> slots_{};
  std::map<const FragmentLayout*, Shape> shapes_;  // by D layout
  Instr last_instr_;
  Shape* last_shape_ = nullptr;  // shape_of(last_instr_)
};

}  // namespace tcu
