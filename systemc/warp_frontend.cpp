#include "warp_frontend.h"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

namespace tcu {
namespace {

std::string hex(uint32_t v) {
  char text[16];
  std::snprintf(text, sizeof text, "0x%08x", v);
  return text;
}

// The first differing word of a port, or -1.
template <size_t N>
int first_difference(const std::array<uint32_t, N>& a, const std::array<uint32_t, N>& b) {
  for (size_t i = 0; i < N; ++i)
    if (a[i] != b[i]) return int(i);
  return -1;
}

}  // namespace

bool parse_fault(const std::string& name, Fault* fault) {
  for (Fault f : {Fault::kNone, Fault::kDBit, Fault::kLate, Fault::kLaneSwap, Fault::kMeta})
    if (name == to_string(f)) {
      *fault = f;
      return true;
    }
  return false;
}

const char* to_string(Fault fault) {
  switch (fault) {
    case Fault::kNone:
      return "none";
    case Fault::kDBit:
      return "d-bit";
    case Fault::kLate:
      return "late";
    case Fault::kLaneSwap:
      return "lane-swap";
    case Fault::kMeta:
      return "meta";
  }
  return "?";
}

WarpFrontEnd::WarpFrontEnd(sc_core::sc_module_name name, DatapathModel* model,
                           const DatapathConfig& datapath, const FrontEndConfig& front_end,
                           const Stimulus& stimulus)
    : sc_module(name),
      model_(*model),
      datapath_(datapath),
      front_end_(front_end),
      stimulus_(stimulus),
      backpressure_rng_(stimulus.seed),
      cosim_(datapath, front_end) {
  set_front_end(front_end);
  SC_METHOD(tick);
  sensitive << clk.pos();
  dont_initialize();
}

void WarpFrontEnd::set_front_end(const FrontEndConfig& config) {
  if (const std::string why = rf_bandwidth_error(datapath_, config); !why.empty())
    throw std::invalid_argument(why);
  front_end_ = config;
  schedules_.clear();
  cosim_.set_front_end(config);
}

const WarpFrontEnd::CollectPlan& WarpFrontEnd::plan_of(const Instr& instr) {
  // The schedule follows from the source registers: A's, B's and C's
  // layouts (fragment_layout's cache gives each one address) and whether
  // metadata or scales are sent (the family).
  const ScheduleKey key{&fragment_layout(instr, Operand::kA), &fragment_layout(instr, Operand::kB),
                        &fragment_layout(instr, Operand::kC), instr.family};
  auto found = schedules_.find(key);
  if (found == schedules_.end()) {
    CollectPlan plan;
    plan.schedule = collect_schedule(instr, front_end_);
    for (const std::vector<RegWord>& beat : plan.schedule)
      plan.tags.push_back(pack_tags(beat.data(), int(beat.size())));
    found = schedules_.emplace(key, std::move(plan)).first;
  }
  return found->second;
}

void WarpFrontEnd::issue(IssueRequest request) {
  // Never into a datapath built without the instruction's engine.
  if (const char* param = disabled_by(datapath_, request.instr.family))
    throw UnsupportedInstruction("the datapath has no engine for " + request.instr.ptx() + " (" +
                                 param + "=0)");
  pending_.push_back(std::move(request));
  ++in_flight_;
  // Into an idle collector, the first beat goes in the cycle the request
  // arrives (the next edge takes it), as when the process starts it.
  if (!collecting_) {
    start_collection();
    drive_collection();
    model_.settle();
  }
}

bool WarpFrontEnd::idle() const { return in_flight_ == 0; }

std::vector<std::string> WarpFrontEnd::unfinished() const {
  std::vector<std::string> names;
  for (const WritingBack& wb : write_backs_) names.push_back(cosim_.case_name(wb.tag));
  for (const auto* queue : {&in_datapath_, &collected_})
    for (const Flight& f : *queue) names.push_back(f.request.name);
  if (collecting_) names.push_back(collecting_->request.name);
  for (const IssueRequest& r : pending_) names.push_back(r.name);
  return names;
}

void WarpFrontEnd::start_collection() {
  Flight f;
  f.tag = next_tag_++;
  f.request = std::move(pending_.front());
  pending_.pop_front();
  f.isolated = in_flight_ == pending_.size() + 1;
  const Instr& instr = f.request.instr;
  const CollectPlan& plan = plan_of(instr);
  f.schedule = &plan.schedule;
  f.tags = &plan.tags;
  if (fault_due(Fault::kMeta) && instr.sparse()) {
    f.corrupt_meta = true;  // after validation: the router takes what the registers hold
    fault_done_ = true;
  }
  cosim_.issue(f.tag, instr, f.request.operands, f.request.name, cycle_);
  collecting_ = std::move(f);
  sources_ = operand_sources(collecting_->request.instr, collecting_->request.operands);
  beat_ = 0;
}

void WarpFrontEnd::drive_collection() {
  offered_ = collecting_.has_value();
  model_.set_start(offered_ && beat_ == 0);
  if (!offered_) {
    model_.set_beat(nullptr, false);
    return;
  }
  const Flight& f = *collecting_;
  if (beat_ == 0)
    model_.set_descriptor(
        core_descriptor(f.request.instr, f.request.operands.selectors, uint32_t(f.tag)));
  const std::vector<RegWord>& beat = (*f.schedule)[beat_];
  const PackedBeat& tags = (*f.tags)[beat_];
  beat_words_.count = tags.count;
  beat_words_.valid = tags.valid;
  beat_words_.op = tags.op;
  beat_words_.lane = tags.lane;
  beat_words_.reg = tags.reg;
  read_beat_data(sources_, beat, &beat_words_);
  if (f.corrupt_meta)
    for (size_t i = 0; i < beat.size(); ++i)
      if (beat[i].operand == Operand::kMeta) beat_words_.data[i] ^= 0xf;
  model_.set_beat(&beat_words_, beat_ + 1 == f.schedule->size());
}

bool WarpFrontEnd::check_handover_tag(const Flight& f) {
  if (model_.dp_tag() == (f.tag & 0xffff)) return true;
  cosim_.violation(f.tag, cycle_,
                   "the router handed the datapath tag " + std::to_string(model_.dp_tag()) +
                       ", expected " + std::to_string(f.tag & 0xffff) + " (issue order)");
  return false;
}

void WarpFrontEnd::check_handover(const Flight& f) {
  // The golden layout tables check the router's placement.
  const Instr& instr = f.request.instr;
  pack_datapath_inputs(instr, f.request.operands, uint32_t(f.tag), &expected_);
  model_.dp_inputs(&got_);
  const DatapathInputs &e = expected_, &g = got_;
  if (e.family != g.family || e.a_signed != g.a_signed || e.b_signed != g.b_signed ||
      e.satfinite != g.satfinite || e.k32 != g.k32 || e.rounding != g.rounding ||
      e.c_f16 != g.c_f16 || e.d_f16 != g.d_f16 || e.scale_4x != g.scale_4x) {
    cosim_.violation(f.tag, cycle_, "the router handed the datapath a wrong descriptor");
    return;
  }
  struct Port {
    const char* name;
    int word;
    uint32_t want, got;
  };
  std::vector<Port> bad;
  auto check = [&](const char* name, const auto& want, const auto& got) {
    if (const int w = first_difference(want, got); w >= 0)
      bad.push_back({name, w, want[size_t(w)], got[size_t(w)]});
  };
  check("a", e.a, g.a);
  check("b", e.b, g.b);
  check("c", e.c, g.c);
  check("meta", e.meta, g.meta);
  check("scale_a", e.scale_a, g.scale_a);
  check("scale_b", e.scale_b, g.scale_b);
  if (!bad.empty())
    cosim_.violation(f.tag, cycle_,
                     std::string("the router placed operand ") + bad[0].name + " wrongly: in_" +
                         bad[0].name + "_i word " + std::to_string(bad[0].word) + " is " +
                         hex(bad[0].got) + ", the layout tables say " + hex(bad[0].want));
}

void WarpFrontEnd::check_output(bool taken, const Flight* f) {
  output_check_ = {};
  if (held_) {
    if (!model_.d_valid() || model_.d_tag() != held_tag_) {
      cosim_.violation(held_full_tag_, cycle_,
                       "out_valid, out_tag or out_d changed while out_ready was low");
    } else {
      output_check_.held = true;  // out_d_o's words are compared after the edge
      output_check_.held_tag = held_full_tag_;
    }
  }
  if (!taken) return;
  if (!f || model_.d_tag() != (f->tag & 0xffff)) {
    cosim_.violation(f ? f->tag : 0, cycle_,
                     "the datapath returned tag " + std::to_string(model_.d_tag()) +
                         (f ? ", expected " + std::to_string(f->tag & 0xffff) + " (issue order)"
                            : ", which is not in flight"));
    return;
  }
  output_check_.taken_tag = f->tag;
  output_check_.taken_words = int(fragment_layout(f->request.instr, Operand::kD).elem_count()) *
                              elem_bits(f->request.instr.d_type) / 32;
}

void WarpFrontEnd::check_output_data() {
  // out_d_o of the cycle that just ended (registered at the edge).
  const uint32_t* d = model_.d();
  if (output_check_.held && !std::equal(held_d_.begin(), held_d_.end(), d))
    cosim_.violation(output_check_.held_tag, cycle_,
                     "out_valid, out_tag or out_d changed while out_ready was low");
  for (int w = output_check_.taken_words; output_check_.taken_words && w < kDatapathDWords; ++w)
    if (d[w] != 0) {
      cosim_.violation(output_check_.taken_tag, cycle_,
                       "out_d bits " + std::to_string(32 * w) + ".." + std::to_string(32 * w + 31) +
                           " are set, above the instruction's D");
      break;
    }
  if (held_) std::copy(d, d + kDatapathDWords, held_d_.begin());
}

void WarpFrontEnd::take_beat() {
  if (write_backs_.empty()) {
    cosim_.violation(0, cycle_, "a write-back beat with no D in the router");
    return;
  }
  WritingBack& wb = write_backs_.front();
  if (model_.wb_tag() != (wb.tag & 0xffff))
    cosim_.violation(wb.tag, cycle_,
                     "write-back of tag " + std::to_string(model_.wb_tag()) + ", expected " +
                         std::to_string(wb.tag & 0xffff));
  const int n = model_.wb_words(wb_words_.data());
  if (fault_due(Fault::kLaneSwap))
    for (int i = 1; i < n; ++i)
      if (wb_words_[size_t(i)].data != wb_words_[0].data &&
          wb_words_[size_t(i)].lane != wb_words_[0].lane) {
        std::swap(wb_words_[0].lane, wb_words_[size_t(i)].lane);
        fault_done_ = true;
        break;
      }
  if (fault_due(Fault::kDBit) && n > 0) {
    wb_words_[0].data ^= 1;
    fault_done_ = true;
  }
  const int lane_words = wb.d.regs_per_lane * wb.reg_bits / 32;
  for (int i = 0; i < n; ++i) {
    const WbWord& w = wb_words_[size_t(i)];
    const size_t at = size_t(w.lane * lane_words + w.reg);
    if (w.reg >= lane_words || !write_word(&wb.d, wb.reg_bits, w.lane, w.reg, w.data)) {
      cosim_.violation(wb.tag, cycle_,
                       "write-back of lane " + std::to_string(w.lane) + " word " +
                           std::to_string(w.reg) + ", outside the D fragment");
    } else if (wb.written[at]) {
      cosim_.violation(wb.tag, cycle_,
                       "write-back of lane " + std::to_string(w.lane) + " word " +
                           std::to_string(w.reg) + " twice");
    } else {
      wb.written[at] = true;
      ++wb.words;
    }
  }
  if (!model_.wb_last()) return;
  const int want = dest_words(wb.instr);
  if (wb.words != want)
    cosim_.violation(wb.tag, cycle_,
                     "write-back ended after " + std::to_string(wb.words) + " of " +
                         std::to_string(want) + " D words");
}

void WarpFrontEnd::advance_write_back() {
  // The front D wrote back in the cycle ending now: a cycle of its schedule
  // ran, unless back-pressure held the beat it needed (counted as a stall)
  // or its words fell behind the schedule (which nothing explains: the
  // latency check then fails). It retires with its schedule's last cycle.
  WritingBack& wb = write_backs_.front();
  if (wb_stalled_)
    ++wb.stalls;
  else if (wb.words >= wb.due[wb.elapsed])
    ++wb.elapsed;
  if (wb.elapsed < wb.due.size()) return;
  cosim_.retire(wb.tag, wb.d, cycle_, wb.isolated, uint64_t(wb.stalls));
  results_.push_back(std::move(wb.d));
  write_backs_.pop_front();
  --in_flight_;
}

void WarpFrontEnd::set_wb_ready() {
  // The router's beat is taken when the register file's write-back schedule
  // needs more words in the coming cycle than have arrived (a beat carries
  // DWordsPerCycle, the schedule moves min(rf, DWordsPerCycle) a cycle).
  wb_active_ = !write_backs_.empty();
  wb_stalled_ = false;
  bool need = false;
  if (wb_active_) {
    const WritingBack& wb = write_backs_.front();
    need = wb.words < wb.due[std::min(wb.elapsed, wb.due.size() - 1)];
  }
  wb_ready_ = need;
  if (need && fault_due(Fault::kLate)) {
    wb_ready_ = false;  // a beat a cycle late that no back-pressure explains
    fault_done_ = true;
  } else if (need && stimulus_.backpressure > 0) {
    wb_ready_ =
        std::uniform_real_distribution<double>(0, 1)(backpressure_rng_) >= stimulus_.backpressure;
    wb_stalled_ = !wb_ready_;
  }
  model_.set_wb_ready(wb_ready_);
}

void WarpFrontEnd::tick() {
  ++cycle_;

  // ---- the handshakes of the cycle that ends at this rising edge ----------
  // The Cosim's output model needs every edge at which the router did not
  // take D (the datapath's out_ready_i low), before this edge's accept and
  // result.
  if (!model_.d_ready()) cosim_.datapath_backpressure(cycle_);
  const bool beat_taken = offered_ && (beat_ > 0 || model_.in_start_ready());
  // With the bypass the router offers the operands in the last beat's cycle.
  if (beat_taken && ++beat_ == collecting_->schedule->size()) {
    collected_.push_back(std::move(*collecting_));
    collecting_.reset();
  }
  // Router -> datapath: the operands, checked against the layout tables.
  if (model_.dp_valid()) {
    if (collected_.empty()) {
      cosim_.violation(0, cycle_, "the router offers the datapath an instruction not collected");
    } else {
      Flight& f = collected_.front();
      if (!f.offered_seen) {
        f.offered_seen = true;
        f.offered = cycle_;
      }
      if (model_.dp_ready()) {
        // The operands taken are checked after the edge (registered there).
        handover_check_ = check_handover_tag(f);
        handover_tag_ = f.tag;
        cosim_.datapath_accept(f.tag, cycle_, f.offered);
        last_accept_ = cycle_;
        in_datapath_.push_back(std::move(f));
        collected_.pop_front();
      }
    }
  }
  // Datapath -> router: D.
  const bool d_taken = model_.d_valid() && model_.d_ready();
  const Flight* leaving = in_datapath_.empty() ? nullptr : &in_datapath_.front();
  check_output(d_taken, leaving);
  held_ = model_.d_valid() && !model_.d_ready();
  if (held_) {
    held_tag_ = model_.d_tag();
    held_full_tag_ = leaving ? leaving->tag : 0;
  }
  // Router -> lanes: a beat of D words (a D taken before now).
  if (model_.wb_valid() && wb_ready_) take_beat();
  if (wb_active_) advance_write_back();
  if (d_taken && leaving) {
    cosim_.datapath_result(leaving->tag, cycle_);
    WritingBack wb;
    wb.tag = leaving->tag;
    wb.instr = leaving->request.instr;
    wb.isolated = leaving->isolated;
    const FragmentLayout& layout = fragment_layout(wb.instr, Operand::kD);
    wb.reg_bits = layout.reg_bits();
    wb.d.regs_per_lane = layout.regs_per_lane();
    wb.d.regs.assign(size_t(kLanes * layout.regs_per_lane()), 0);
    wb.written.assign(size_t(kLanes * layout.regs_per_lane() * wb.reg_bits / 32), false);
    wb.due = writeback_arrivals(wb.instr, write_back_front_end(datapath_, front_end_));
    write_backs_.push_back(std::move(wb));
    in_datapath_.pop_front();
  }

  model_.rising_edge();

  // ---- what the edge took ---------------------------------------------------
  if (handover_check_) {
    handover_check_ = false;
    for (auto f = in_datapath_.rbegin(); f != in_datapath_.rend(); ++f)
      if (f->tag == handover_tag_) {
        check_handover(*f);
        break;
      }
  }
  if (output_check_.held || output_check_.taken_words || held_) check_output_data();

  // ---- the front-end's inputs for the next cycle --------------------------
  if (!collecting_ && !pending_.empty()) start_collection();
  drive_collection();
  set_wb_ready();
  model_.falling_edge();
  if (pause_when_idle_ && idle()) sc_core::sc_pause();
}

}  // namespace tcu
