#include "write_back_monitor.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace tcu {
namespace {

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
              "a 64-bit register's low 32-bit word comes first in memory");

// 32-bit word `half` of `regs` (two a register, its low half first).
void put_half(std::vector<uint64_t>& regs, size_t half, uint32_t data) {
  std::memcpy(reinterpret_cast<char*>(regs.data()) + 4 * half, &data, sizeof data);
}

}  // namespace

WriteBackMonitor::Shape& WriteBackMonitor::shape_of(const Instr& instr) {
  if (last_shape_ && same_variant(instr, last_instr_)) return *last_shape_;
  const FragmentLayout& layout = fragment_layout(instr, Operand::kD);
  auto found = shapes_.find(&layout);
  if (found == shapes_.end()) {
    Shape shape;
    shape.reg_bits = layout.reg_bits();
    shape.regs_per_lane = layout.regs_per_lane();
    shape.lane_words = shape.regs_per_lane * shape.reg_bits / 32;
    if (size_t(kLanes * shape.lane_words) > Written().size())
      throw std::logic_error("WriteBackMonitor: a D of more than " +
                             std::to_string(Written().size()) + " words");
    shape.words = dest_words(instr);
    shape.due = writeback_arrivals(instr, write_back_front_end(datapath_, front_end_));
    found = shapes_.emplace(&layout, std::move(shape)).first;
  }
  last_instr_ = instr;
  last_shape_ = &found->second;
  return found->second;
}

void WriteBackMonitor::start(uint64_t tag, const Instr& instr, bool isolated) {
  WritingBack& wb = write_backs_.emplace_back();
  wb.tag = tag;
  wb.isolated = isolated;
  wb.shape = &shape_of(instr);
  if (!spares_.empty()) {
    wb.d = std::move(spares_.back());
    spares_.pop_back();
  }
  wb.d.regs_per_lane = wb.shape->regs_per_lane;
  wb.d.regs.assign(size_t(kLanes * wb.shape->regs_per_lane), 0);
}

void WriteBackMonitor::land_word(WritingBack& wb, const WbWord& w, uint64_t cycle) {
  const int lane_words = wb.shape->lane_words;
  const size_t at = size_t(w.lane * lane_words + w.reg);
  auto where = [&] {
    return "write-back of lane " + std::to_string(w.lane) + " word " + std::to_string(w.reg);
  };
  if (w.reg >= lane_words || !write_word(&wb.d, wb.shape->reg_bits, w.lane, w.reg, w.data)) {
    cosim_.violation(wb.tag, cycle, where() + ", outside the D fragment");
  } else if (wb.written[at]) {
    cosim_.violation(wb.tag, cycle, where() + " twice");
  } else {
    wb.written[at] = true;
    ++wb.words;
  }
}

void WriteBackMonitor::land_words(WritingBack& wb, const WbWord* words, const int* slots, int n,
                                  uint64_t cycle, BeatPlaces* places) {
  const Shape& shape = *wb.shape;
  bool clean = places != nullptr;  // every word in the fragment, none twice in the beat
  Written mask;
  std::vector<BeatPlaces::Move> moves;
  for (int i = 0; i < n; ++i) {
    const WbWord& w = words[i];
    const size_t at = size_t(w.lane * shape.lane_words + w.reg);
    const bool inside =
        unsigned(w.lane) < unsigned(kLanes) && unsigned(w.reg) < unsigned(shape.lane_words);
    // Word w.reg of the lane is 32-bit word `half` of the registers.
    const size_t half =
        shape.reg_bits == 64 ? 2 * size_t(w.lane * shape.regs_per_lane + w.reg / 2) + size_t(w.reg % 2)
                             : 2 * size_t(w.lane * shape.regs_per_lane + w.reg);
    if (clean && inside && !mask[at]) {
      mask.set(at);
      moves.push_back({uint16_t(slots[i]), uint16_t(half)});
    } else {
      clean = false;
    }
    // A word inside the fragment, not written yet, lands here; any other
    // goes to land_word, which says what is wrong with it.
    if (!inside || wb.written[at]) {
      land_word(wb, w, cycle);
      continue;
    }
    wb.written.set(at);
    ++wb.words;
    put_half(wb.d.regs, half, w.data);
  }
  if (!clean) return;
  places->known = true;
  std::memcpy(places->tags.data(), ports_.valid.data(), 4 * ports_.valid.size());
  std::memcpy(places->tags.data() + 2, ports_.lane.data(), 4 * ports_.lane.size());
  std::memcpy(places->tags.data() + 12, ports_.reg.data(), 4 * ports_.reg.size());
  places->mask = mask;
  places->moves = std::move(moves);
}

void WriteBackMonitor::take_beat(uint64_t cycle) {
  if (write_backs_.empty()) {
    cosim_.violation(0, cycle, "a write-back beat with no D in the router");
    return;
  }
  WritingBack& wb = write_backs_.front();
  Shape& shape = *wb.shape;
  if (model_.wb_tag() != (wb.tag & 0xffff))
    cosim_.violation(wb.tag, cycle,
                     "write-back of tag " + std::to_string(model_.wb_tag()) + ", expected " +
                         std::to_string(wb.tag & 0xffff));
  model_.wb_ports(&ports_);
  const size_t beat = size_t(wb.beats++);
  if (shape.beats.size() <= beat) shape.beats.resize(beat + 1);
  BeatPlaces& places = shape.beats[beat];
  // The beat's tags as this beat's last: its words land where they did,
  // unless one of them is written already. A fault that alters the words
  // as the lanes receive them takes the words one by one.
  const bool altered = faults_.alters_write_back();
  if (!altered && places.known &&
      std::memcmp(places.tags.data(), ports_.valid.data(), 4 * ports_.valid.size()) == 0 &&
      std::memcmp(places.tags.data() + 2, ports_.lane.data(), 4 * ports_.lane.size()) == 0 &&
      std::memcmp(places.tags.data() + 12, ports_.reg.data(), 4 * ports_.reg.size()) == 0 &&
      (wb.written & places.mask).none()) {
    wb.written |= places.mask;
    wb.words += int(places.moves.size());
    for (const BeatPlaces::Move& m : places.moves) put_half(wb.d.regs, m.half, ports_.data[m.slot]);
  } else {
    const int n = wb_words(ports_, model_.d_words_per_cycle(), words_.data(), slots_.data());
    faults_.on_write_back(words_.data(), n);
    land_words(wb, words_.data(), slots_.data(), n, cycle, altered ? nullptr : &places);
  }
  if (!model_.wb_last()) return;
  if (wb.words != shape.words)
    cosim_.violation(wb.tag, cycle,
                     "write-back ended after " + std::to_string(wb.words) + " of " +
                         std::to_string(shape.words) + " D words");
}

bool WriteBackMonitor::advance(uint64_t cycle, bool stalled, std::vector<Fragment>* results,
                               std::vector<uint64_t>* stalls) {
  // The front D wrote back in the cycle ending now: a cycle of its schedule
  // ran, unless back-pressure held the beat it needed (counted as a stall)
  // or its words fell behind the schedule (which nothing explains: the
  // latency check then fails). It retires with its schedule's last cycle.
  WritingBack& wb = write_backs_.front();
  const std::vector<int>& due = wb.shape->due;
  if (stalled)
    ++wb.stalls;
  else if (wb.words >= due[wb.elapsed])
    ++wb.elapsed;
  if (wb.elapsed < due.size()) return false;
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
  const std::vector<int>& due = wb.shape->due;
  return wb.words < due[std::min(wb.elapsed, due.size() - 1)];
}

std::vector<uint64_t> WriteBackMonitor::tags() const {
  std::vector<uint64_t> tags;
  for (const WritingBack& wb : write_backs_) tags.push_back(wb.tag);
  return tags;
}

}  // namespace tcu
