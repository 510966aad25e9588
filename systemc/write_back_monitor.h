// The write-back monitor: the router's D beats (wb_*) into the lanes'
// destination registers, one D at a time in issue order, each word checked
// to land inside the D fragment and once; a D retires (to the checker) when the register file's write-back schedule has run. It says
// when the schedule needs the next beat (wb_ready), and counts the cycles
// back-pressure held it.
#pragma once

#include <array>
#include <bitset>
#include <map>
#include <cstdint>
#include <deque>
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
    arrivals_.clear();
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

 private:
  struct WritingBack {
    uint64_t tag;
    Instr instr;
    Fragment d;
    int words = 0, stalls = 0, reg_bits = 32;
    bool isolated = false;
    int lane_words = 0;                 // 32-bit words of D a lane
    std::bitset<kLanes * 8> written;    // per 32-bit word, lane-major
    // The register file's write-back pace (writeback_arrivals): (*due)[c]
    // words must have arrived by the end of its cycle c; `elapsed` cycles
    // of it have run (a cycle back-pressure holds does not count).
    const std::vector<int>* due = nullptr;
    size_t elapsed = 0;
  };
  // writeback_arrivals at front_end_, per D size in words (all it depends on).
  const std::vector<int>& arrivals(const Instr& instr);
  void land_word(WritingBack& wb, const WbWord& w, uint64_t cycle);

  DatapathModel& model_;
  FrontEndChecker& cosim_;
  FrontEndFaults& faults_;
  DatapathConfig datapath_;
  FrontEndConfig front_end_;
  std::deque<WritingBack> write_backs_;
  bool active_ = false;  // write_backs_.front() writes in the coming cycle
  std::array<WbWord, 64> words_{};
  std::map<int, std::vector<int>> arrivals_;
};

}  // namespace tcu
