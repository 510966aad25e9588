#include "warp_frontend.h"

#include <stdexcept>

namespace tcu {

WarpFrontEnd::WarpFrontEnd(sc_core::sc_module_name name, DatapathModel* model,
                           const DatapathConfig& datapath, const FrontEndConfig& front_end,
                           FrontEndChecker* checker, FrontEndFaults* faults,
                           const BackPressureStimulus& backpressure, const sc_core::sc_time& period)
    : sc_module(name),
      model_(*model),
      period_(period),
      datapath_(datapath),
      front_end_(front_end),
      cosim_(checker),
      driver_(model),
      faults_(*faults),
      backpressure_(backpressure.probability, backpressure.seed),
      handshakes_(model, checker),
      write_back_(model, checker, faults, datapath, front_end) {
  set_front_end(front_end);
  SC_METHOD(tick);
  sensitive << edge_;
  dont_initialize();
}

void WarpFrontEnd::start_clock() {
  if (clock_started_) throw std::logic_error("WarpFrontEnd::start_clock: the clock runs already");
  clock_started_ = true;
  edge_.notify(sc_core::SC_ZERO_TIME);  // the first rising edge, now
}

void WarpFrontEnd::set_front_end(const FrontEndConfig& config) {
  if (const std::string why = rf_bandwidth_error(datapath_, config); !why.empty())
    throw std::invalid_argument(why);
  front_end_ = config;
  schedules_.clear();
  last_plan_ = nullptr;
  cosim_->set_front_end(config);
  write_back_.set_front_end(config);
}

const WarpFrontEnd::CollectPlan& WarpFrontEnd::plan_of(const Instr& instr) {
  if (last_plan_ && same_variant(instr, last_instr_)) return *last_plan_;
  // The schedule follows from the source registers: A's, B's and C's
  // layouts (fragment_layout's cache gives each one address) and whether
  // metadata or scales are sent (the family); D's layout gives its size.
  const FragmentLayout& d = fragment_layout(instr, Operand::kD);
  const ScheduleKey key{&fragment_layout(instr, Operand::kA), &fragment_layout(instr, Operand::kB),
                        &fragment_layout(instr, Operand::kC), &d, instr.family};
  auto found = schedules_.find(key);
  if (found == schedules_.end()) {
    CollectPlan plan;
    plan.schedule = collect_schedule(instr, front_end_);
    for (const std::vector<RegWord>& beat : plan.schedule)
      plan.tags.push_back(pack_tags(beat.data(), int(beat.size())));
    plan.places = place_schedule(instr, plan.schedule);
    plan.widths = operand_sources(instr, WarpOperands{});
    plan.d_words = d.elem_count() * elem_bits(instr.d_type) / 32;
    found = schedules_.emplace(key, std::move(plan)).first;
  }
  last_instr_ = instr;
  last_plan_ = &found->second;
  return found->second;
}

void WarpFrontEnd::issue(IssueRequest request) {
  // Never into a datapath built without the instruction's engine.
  if (const char* param = disabled_by(datapath_, request.instr.family))
    throw UnsupportedInstruction("the datapath has no engine for " + request.instr.ptx() + " (" +
                                 param + "=0)");
  // The requests of the last run are all retired when the front-end is
  // idle: their store starts again.
  if (in_flight_ == 0) {
    pending_.clear();
    next_pending_ = 0;
  }
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
  for (uint64_t tag : write_back_.tags()) names.push_back(cosim_->case_name(tag));
  for (const auto* queue : {&in_datapath_, &collected_})
    for (const Flight& f : *queue) names.push_back(f.request->name);
  if (collecting_) names.push_back(collecting_->request->name);
  for (size_t r = next_pending_; r < pending_.size(); ++r) names.push_back(pending_[r].name);
  return names;
}

void WarpFrontEnd::start_collection() {
  Flight f;
  f.tag = next_tag_++;
  f.request = &pending_[next_pending_++];
  f.isolated = in_flight_ == pending_.size() - next_pending_ + 1;
  const Instr& instr = f.request->instr;
  const CollectPlan& plan = plan_of(instr);
  f.plan = &plan;
  f.corrupt_meta = faults_.take_meta(instr);
  cosim_->issue(f.tag, instr, *f.request->operands, f.request->name, cycle_, f.request->expected);
  collecting_ = std::move(f);
  sources_ = with_fragments(plan.widths, *collecting_->request->operands);
  // The words' places where the fragments are the layouts' shape (every
  // validated case's), else the word-by-word reads.
  if (fits(plan.places, sources_)) {
    collecting_->placed = true;
    placed_sources_ = placed_sources(sources_);
  }
  driver_.begin(plan.schedule.size());
}

void WarpFrontEnd::drive_collection() {
  if (!collecting_) return driver_.offer_nothing();
  const Flight& f = *collecting_;
  const size_t beat_index = driver_.beat();
  const std::vector<RegWord>& beat = f.plan->schedule[beat_index];
  const PackedBeat& tags = f.plan->tags[beat_index];
  beat_words_.count = tags.count;
  beat_words_.valid = tags.valid;
  beat_words_.op = tags.op;
  beat_words_.lane = tags.lane;
  beat_words_.reg = tags.reg;
  if (f.placed)
    read_placed_beat(placed_sources_, f.plan->places.beats[beat_index], &beat_words_);
  else
    read_beat_data(sources_, beat, &beat_words_);
  if (f.corrupt_meta) faults_.corrupt_meta(beat, &beat_words_);
  // The descriptor is read with the first beat only.
  static const CoreDescriptor kNoDescriptor{};
  driver_.offer(beat_index == 0 ? core_descriptor(f.request->instr, f.request->operands->selectors,
                                                  uint32_t(f.tag))
                                : kNoDescriptor,
                beat_words_);
}

void WarpFrontEnd::router_handover() {
  // Router -> datapath: the operands, checked against the layout tables.
  if (collected_.empty()) {
    cosim_->violation(0, cycle_, "the router offers the datapath an instruction not collected");
    return;
  }
  Flight& f = collected_.front();
  if (!f.offered_seen) {
    f.offered_seen = true;
    f.offered = cycle_;
  }
  if (!model_.dp_ready()) return;
  // The operands taken are checked after the edge (registered there).
  handshakes_.handover_before(f.tag, cycle_);
  cosim_->datapath_accept(f.tag, cycle_, f.offered);
  in_datapath_.push_back(std::move(f));
  collected_.pop_front();
}

void WarpFrontEnd::datapath_output() {
  // Datapath -> router: D.
  const bool d_taken = model_.d_valid() && model_.d_ready();
  const Flight* leaving = in_datapath_.empty() ? nullptr : &in_datapath_.front();
  const HandshakeChecks::InDatapath oldest{leaving ? leaving->tag : 0,
                                           leaving ? leaving->plan->d_words : 0};
  handshakes_.output_before(d_taken, leaving ? &oldest : nullptr, cycle_);
  // Router -> lanes: a beat of D words (a D taken before now).
  if (model_.wb_valid() && wb_ready_) write_back_.take_beat(cycle_);
  if (write_back_.active() &&
      write_back_.advance(cycle_, wb_stalled_, &results_, &write_back_stalls_))
    --in_flight_;
  if (d_taken && leaving) {
    cosim_->datapath_result(leaving->tag, cycle_);
    write_back_.start(leaving->tag, leaving->request->instr, leaving->isolated);
    in_datapath_.pop_front();
  }
}

void WarpFrontEnd::set_wb_ready() {
  const bool need = write_back_.need_beat();
  wb_stalled_ = false;
  wb_ready_ = need;
  if (need && faults_.hold_beat()) {
    wb_ready_ = false;  // a beat a cycle late that no back-pressure explains
  } else if (need && backpressure_.active()) {
    wb_stalled_ = backpressure_.hold();
    wb_ready_ = !wb_stalled_;
  }
  model_.set_wb_ready(wb_ready_);
}

void WarpFrontEnd::tick() {
  // Cycles back to back while instructions are in flight, up to a quantum
  // and the last cycle allowed; the next activation at the edge after them.
  int ran = 0;
  do {
    run_cycle();
    ++ran;
  } while (ran < kQuantum && !idle() && cycle_ < last_cycle_);
  edge_.notify(period_ * double(ran));
  if ((pause_when_idle_ && idle()) || cycle_ >= last_cycle_) sc_core::sc_pause();
}

void WarpFrontEnd::run_cycle() {
  ++cycle_;

  // ---- the handshakes of the cycle that ends at this rising edge ----------
  // The checker's output model needs every edge at which the router did not
  // take D (the datapath's out_ready_i low), before this edge's accept and
  // result.
  if (!model_.d_ready()) cosim_->datapath_backpressure(cycle_);
  // With the bypass the router offers the operands in the last beat's cycle.
  if (driver_.sample() == CoreDriver::Taken::kLastBeat) {
    collected_.push_back(std::move(*collecting_));
    collecting_.reset();
  }
  if (model_.dp_valid()) router_handover();
  datapath_output();

  model_.rising_edge();

  // ---- what the edge took ---------------------------------------------------
  if (handshakes_.handover_pending()) {
    const Flight* taken = nullptr;
    for (auto f = in_datapath_.rbegin(); f != in_datapath_.rend() && !taken; ++f)
      if (f->tag == handshakes_.handover_tag()) taken = &*f;
    handshakes_.handover_after(taken ? &taken->request->instr : nullptr,
                               taken ? taken->request->operands : nullptr, cycle_);
  }
  if (handshakes_.output_pending()) handshakes_.output_after(cycle_);

  // ---- the front-end's inputs for the next cycle --------------------------
  if (!collecting_ && next_pending_ < pending_.size()) start_collection();
  drive_collection();
  set_wb_ready();
  model_.falling_edge();
}

}  // namespace tcu
