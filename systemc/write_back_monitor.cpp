#include "write_back_monitor.h"

#include <algorithm>
#include <stdexcept>

namespace tcu {

const std::vector<int>& WriteBackMonitor::arrivals(const Instr& instr) {
  const int words = dest_words(instr);
  auto found = arrivals_.find(words);
  if (found == arrivals_.end())
    found = arrivals_
                .emplace(words, writeback_arrivals(
                                    instr, write_back_front_end(datapath_, front_end_)))
                .first;
  return found->second;
}

void WriteBackMonitor::start(uint64_t tag, const Instr& instr, bool isolated) {
  WritingBack& wb = write_backs_.emplace_back();
  wb.tag = tag;
  wb.instr = instr;
  wb.isolated = isolated;
  const FragmentLayout& layout = fragment_layout(instr, Operand::kD);
  wb.reg_bits = layout.reg_bits();
  wb.lane_words = layout.regs_per_lane() * wb.reg_bits / 32;
  if (size_t(kLanes * wb.lane_words) > wb.written.size())
    throw std::logic_error("WriteBackMonitor: a D of more than " +
                           std::to_string(wb.written.size()) + " words");
  wb.d.regs_per_lane = layout.regs_per_lane();
  wb.d.regs.assign(size_t(kLanes * layout.regs_per_lane()), 0);
  wb.due = &arrivals(instr);
}

void WriteBackMonitor::land_word(WritingBack& wb, const WbWord& w, uint64_t cycle) {
  const int lane_words = wb.lane_words;
  const size_t at = size_t(w.lane * lane_words + w.reg);
  auto where = [&] {
    return "write-back of lane " + std::to_string(w.lane) + " word " + std::to_string(w.reg);
  };
  if (w.reg >= lane_words || !write_word(&wb.d, wb.reg_bits, w.lane, w.reg, w.data)) {
    cosim_.violation(wb.tag, cycle, where() + ", outside the D fragment");
  } else if (wb.written[at]) {
    cosim_.violation(wb.tag, cycle, where() + " twice");
  } else {
    wb.written[at] = true;
    ++wb.words;
  }
}

void WriteBackMonitor::take_beat(uint64_t cycle) {
  if (write_backs_.empty()) {
    cosim_.violation(0, cycle, "a write-back beat with no D in the router");
    return;
  }
  WritingBack& wb = write_backs_.front();
  if (model_.wb_tag() != (wb.tag & 0xffff))
    cosim_.violation(wb.tag, cycle,
                     "write-back of tag " + std::to_string(model_.wb_tag()) + ", expected " +
                         std::to_string(wb.tag & 0xffff));
  const int n = model_.wb_words(words_.data());
  faults_.on_write_back(words_.data(), n);
  for (int i = 0; i < n; ++i) {
    // A word inside the fragment, not written yet, lands here; any other
    // goes to land_word, which says what is wrong with it.
    const WbWord& w = words_[size_t(i)];
    const size_t at = size_t(w.lane * wb.lane_words + w.reg);
    if (unsigned(w.lane) >= unsigned(kLanes) || unsigned(w.reg) >= unsigned(wb.lane_words) ||
        wb.written[at]) {
      land_word(wb, w, cycle);
      continue;
    }
    wb.written.set(at);
    ++wb.words;
    if (wb.reg_bits == 64) {
      uint64_t& v = wb.d.at(w.lane, w.reg / 2);
      v = w.reg % 2 ? (v & 0xffffffffull) | (uint64_t(w.data) << 32)
                    : (v & ~0xffffffffull) | w.data;
    } else {
      wb.d.at(w.lane, w.reg) = w.data;
    }
  }
  if (!model_.wb_last()) return;
  const int want = dest_words(wb.instr);
  if (wb.words != want)
    cosim_.violation(wb.tag, cycle,
                     "write-back ended after " + std::to_string(wb.words) + " of " +
                         std::to_string(want) + " D words");
}

bool WriteBackMonitor::advance(uint64_t cycle, bool stalled, std::vector<Fragment>* results,
                               std::vector<uint64_t>* stalls) {
  // The front D wrote back in the cycle ending now: a cycle of its schedule
  // ran, unless back-pressure held the beat it needed (counted as a stall)
  // or its words fell behind the schedule (which nothing explains: the
  // latency check then fails). It retires with its schedule's last cycle.
  WritingBack& wb = write_backs_.front();
  if (stalled)
    ++wb.stalls;
  else if (wb.words >= (*wb.due)[wb.elapsed])
    ++wb.elapsed;
  if (wb.elapsed < wb.due->size()) return false;
  cosim_.retire(wb.tag, wb.d, cycle, wb.isolated, uint64_t(wb.stalls));
  results->push_back(std::move(wb.d));
  stalls->push_back(uint64_t(wb.stalls));
  write_backs_.pop_front();
  return true;
}

bool WriteBackMonitor::need_beat() {
  // The router's beat is taken when the register file's write-back schedule
  // needs more words in the coming cycle than have arrived (a beat carries
  // DWordsPerCycle, the schedule moves min(rf, DWordsPerCycle) a cycle).
  active_ = !write_backs_.empty();
  if (!active_) return false;
  const WritingBack& wb = write_backs_.front();
  return wb.words < (*wb.due)[std::min(wb.elapsed, wb.due->size() - 1)];
}

std::vector<uint64_t> WriteBackMonitor::tags() const {
  std::vector<uint64_t> tags;
  for (const WritingBack& wb : write_backs_) tags.push_back(wb.tag);
  return tags;
}

}  // namespace tcu
