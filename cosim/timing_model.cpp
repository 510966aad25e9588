#include "timing_model.h"

#include <algorithm>
#include <stdexcept>

namespace tcu {
namespace {

// The datapath's engines: int4 dense and sparse share one.
int engine_of(Family family) {
  return family == Family::kInt4Sparse ? int(Family::kInt4Dense) : int(family);
}

std::string plus(uint64_t n, const char* what) {
  return n ? " + " + std::to_string(n) + " " + what : std::string();
}

}  // namespace

void TimingModel::issue(uint64_t tag, const Instr& instr, uint64_t cycle) {
  Times& t = times_.insert(tag);
  t = Times{};
  t.instr = instr;
  t.issue = cycle;
}

// The output model. At each rising edge the pipelines' oldest D is at
// their output once its latency and the holds since its accept have passed;
// the output shows the skid register's D if it holds one, else that D. The
// pipelines hold while the skid is full and a D waits at their output; the
// shown D is delivered if out_ready is high, else it is (or stays) in the
// skid; the pipelines' D leaves them whenever the skid was empty.
void TimingModel::edge(uint64_t cycle, bool out_ready) {
  const bool pipe_valid =
      !pipe_.empty() &&
      pipe_.front().due_unheld + (stalls_ - pipe_.front().stalls_at_accept) <= cycle;
  const bool shown = skid_full_ || pipe_valid;
  const uint64_t shown_tag = skid_full_ ? skid_tag_ : pipe_valid ? pipe_.front().tag : 0;
  if (skid_full_ && pipe_valid) {
    ++stalls_;
    ++activity_.held_edges;
  }
  if (!out_ready) ++activity_.out_ready_low_edges;
  if (shown && out_ready) {
    if (Times* t = times_.find(shown_tag)) t->deliver = cycle;
  }
  if (pipe_valid && !skid_full_) {
    if (Times* t = times_.find(pipe_.front().tag)) {
      t->take = cycle;
      count_busy(*t);
    }
    pipe_.pop_front();
  }
  skid_full_ = shown && !out_ready;
  skid_tag_ = shown_tag;
}

// The engine is busy at every edge from the accept's to the take's; an
// instruction accepted before the previous one's take (same engine) shares
// the edges between. Takes come in accept order, so the engine's edges so
// far end before busy_next_ (the engine's first edge not yet counted).
void TimingModel::count_busy(const Times& t) {
  const size_t engine = size_t(activity_engine(t.instr.family));
  uint64_t& next = busy_next_[engine];
  const uint64_t from = std::max(t.accept, next);
  if (t.take >= from) activity_.busy[engine] += t.take - from + 1;
  next = std::max(next, t.take + 1);
}

void TimingModel::advance(uint64_t cycle) {
  for (; next_edge_ <= cycle; ++next_edge_) {
    if (pipe_.empty() && !skid_full_) {
      next_edge_ = cycle + 1;
      return;
    }
    edge(next_edge_, true);
  }
}

void TimingModel::backpressure(uint64_t cycle) {
  if (cycle < next_edge_)
    throw std::logic_error("TimingModel::backpressure: cycle " + std::to_string(cycle) +
                           " is already modelled");
  advance(cycle - 1);
  edge(cycle, false);
  next_edge_ = cycle + 1;
}

std::string TimingModel::accept(uint64_t tag, uint64_t cycle, uint64_t offered) {
  advance(cycle);
  Times* found = times_.find(tag);
  if (!found)
    throw std::out_of_range("TimingModel::accept: tag " + std::to_string(tag) + " was not issued");
  Times& t = *found;
  t.accept = cycle;
  t.stalls_at_accept = stalls_;
  pipe_.push_back({tag, cycle + uint64_t(datapath_latency(datapath_, t.instr)), stalls_});
  const bool same_engine = engine_of(last_accept_instr_.family) == engine_of(t.instr.family);
  const uint64_t formula =
      !any_accept_ ? 0
                   : uint64_t(same_engine ? datapath_occupancy(datapath_, last_accept_instr_)
                                          : datapath_latency(datapath_, last_accept_instr_));
  std::string error;
  if (any_accept_ && offered <= last_accept_cycle_ + formula) {
    const uint64_t interval = cycle - last_accept_cycle_;
    const uint64_t held = stalls_ - last_accept_stalls_;
    if (interval != formula + held)
      error = "accepted " + std::to_string(interval) + " cycles after the previous instruction (" +
              last_accept_instr_.ptx() + "); the formula says " + std::to_string(formula) +
              (same_engine ? " (its occupancy)" : " (its latency: the drain rule)") +
              (held ? " + " + std::to_string(held) + " held" : "");
  }
  any_accept_ = true;
  last_accept_cycle_ = cycle;
  last_accept_stalls_ = stalls_;
  last_accept_instr_ = t.instr;
  return error;
}

std::string TimingModel::formula_text(const Times& t) const {
  const uint64_t want = uint64_t(datapath_latency(datapath_, t.instr));
  const std::string says = "the formula says " + std::to_string(want);
  if (t.deliver)
    return says + plus(t.take - t.accept - want, "held") +
           plus(t.deliver - t.take, "in the output skid register");
  if (t.take)
    return says + plus(t.take - t.accept - want, "held") +
           ", then the output skid register until out_ready";
  return says + plus(stalls_ - t.stalls_at_accept, "held so far") +
         ", not yet out of the pipelines";
}

std::string TimingModel::result(uint64_t tag, uint64_t cycle) {
  advance(cycle);
  Times* found = times_.find(tag);
  if (!found) return {};  // the front-end reports an unknown tag
  Times& t = *found;
  t.result = cycle;
  if (t.deliver == cycle) return {};
  return "datapath latency " + std::to_string(cycle - t.accept) + " cycles; " + formula_text(t);
}

uint64_t TimingModel::delivered(uint64_t tag) const {
  const Times* t = times_.find(tag);
  return t ? t->deliver : 0;
}

std::string TimingModel::retire(uint64_t tag, uint64_t cycle, bool isolated,
                                uint64_t write_back_stalls) {
  const Times* t = times_.find(tag);
  if (!t) return {};
  std::string error;
  if (isolated) error = latency_error(*t, cycle, write_back_stalls);
  times_.erase(tag);
  return error;
}

std::string TimingModel::latency_error(const Times& t, uint64_t cycle,
                                       uint64_t write_back_stalls) const {
  const uint64_t latency = cycle - t.issue;
  const uint64_t want = uint64_t(instruction_latency(datapath_, front_end_, t.instr));
  // Back-pressure delays the datapath between accept and result, and holds
  // the write-back's beats.
  const uint64_t delayed =
      t.result - t.accept - uint64_t(datapath_latency(datapath_, t.instr)) + write_back_stalls;
  if (latency == want + delayed) return {};
  return "instruction latency " + std::to_string(latency) + " cycles; the formula says " +
         std::to_string(want) +
         (delayed ? " + " + std::to_string(delayed) + " of back-pressure" : "");
}

}  // namespace tcu
