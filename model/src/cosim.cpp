#include "tcu/cosim.h"

#include <stdexcept>

#include "tcu/vectors.h"

namespace tcu {

void Cosim::error(const InFlight& f, uint64_t cycle, const std::string& what) {
  ++error_count_;
  if (errors_.size() < 100)
    errors_.push_back("cosim: " + f.instr.ptx() + " case " + f.case_name + " cycle " +
                      std::to_string(cycle) + ": " + what);
}

void Cosim::issue(uint64_t tag, const Instr& instr, const WarpOperands& operands,
                  const std::string& case_name, uint64_t cycle) {
  InFlight f;
  f.instr = instr;
  f.case_name = case_name;
  f.expected = golden_execute(instr, operands);
  f.issue_cycle = cycle;
  in_flight_[tag] = std::move(f);
}

namespace {

// The datapath's engines: int4 dense and sparse share one.
int engine_of(Family family) {
  return family == Family::kInt4Sparse ? int(Family::kInt4Dense) : int(family);
}

}  // namespace

// The output model. At each rising edge the pipelines' oldest D is at
// their output once its latency and the holds since its accept have passed;
// the output shows the skid register's D if it holds one, else that D. The
// pipelines hold while the skid is full and a D waits at their output; the
// shown D is delivered if out_ready is high, else it is (or stays) in the
// skid; the pipelines' D leaves them whenever the skid was empty.
void Cosim::edge(uint64_t cycle, bool out_ready) {
  const bool pipe_valid =
      !pipe_.empty() &&
      pipe_.front().due_unheld + (stalls_ - pipe_.front().stalls_at_accept) <= cycle;
  const bool shown = skid_full_ || pipe_valid;
  const uint64_t shown_tag = skid_full_ ? skid_tag_ : pipe_valid ? pipe_.front().tag : 0;
  if (skid_full_ && pipe_valid) ++stalls_;
  if (shown && out_ready) {
    auto it = in_flight_.find(shown_tag);
    if (it != in_flight_.end()) it->second.deliver_cycle = cycle;
  }
  if (pipe_valid && !skid_full_) {
    auto it = in_flight_.find(pipe_.front().tag);
    if (it != in_flight_.end()) it->second.take_cycle = cycle;
    pipe_.pop_front();
  }
  skid_full_ = shown && !out_ready;
  skid_tag_ = shown_tag;
}

void Cosim::advance(uint64_t cycle) {
  for (; next_edge_ <= cycle; ++next_edge_) {
    if (pipe_.empty() && !skid_full_) {
      next_edge_ = cycle + 1;
      return;
    }
    edge(next_edge_, true);
  }
}

void Cosim::datapath_backpressure(uint64_t cycle) {
  if (cycle < next_edge_)
    throw std::logic_error("Cosim::datapath_backpressure: cycle " + std::to_string(cycle) +
                           " is already modelled");
  advance(cycle - 1);
  edge(cycle, false);
  next_edge_ = cycle + 1;
}

void Cosim::datapath_accept(uint64_t tag, uint64_t cycle, uint64_t offered) {
  advance(cycle);
  InFlight& f = in_flight_.at(tag);
  f.accept_cycle = cycle;
  f.stalls_at_accept = stalls_;
  pipe_.push_back({tag, cycle + uint64_t(datapath_latency(datapath_, f.instr)), stalls_});
  const bool same_engine = engine_of(last_accept_instr_.family) == engine_of(f.instr.family);
  const uint64_t formula =
      !any_accept_ ? 0
                   : uint64_t(same_engine ? datapath_occupancy(datapath_, last_accept_instr_)
                                          : datapath_latency(datapath_, last_accept_instr_));
  if (any_accept_ && offered <= last_accept_cycle_ + formula) {
    const uint64_t interval = cycle - last_accept_cycle_;
    const uint64_t held = stalls_ - last_accept_stalls_;
    if (interval != formula + held)
      error(f, cycle,
            "accepted " + std::to_string(interval) + " cycles after the previous instruction (" +
                last_accept_instr_.ptx() + "); the formula says " + std::to_string(formula) +
                (same_engine ? " (its occupancy)" : " (its latency: the drain rule)") +
                (held ? " + " + std::to_string(held) + " held" : ""));
  }
  any_accept_ = true;
  last_accept_cycle_ = cycle;
  last_accept_stalls_ = stalls_;
  last_accept_instr_ = f.instr;
}

std::string Cosim::formula_text(const InFlight& f) const {
  const uint64_t want = uint64_t(datapath_latency(datapath_, f.instr));
  auto plus = [](uint64_t n, const char* what) {
    return n ? " + " + std::to_string(n) + " " + what : std::string();
  };
  if (f.deliver_cycle)
    return "the formula says " + std::to_string(want) +
           plus(f.take_cycle - f.accept_cycle - want, "held") +
           plus(f.deliver_cycle - f.take_cycle, "in the output skid register");
  if (f.take_cycle)
    return "the formula says " + std::to_string(want) +
           plus(f.take_cycle - f.accept_cycle - want, "held") +
           ", then the output skid register until out_ready";
  return "the formula says " + std::to_string(want) +
         plus(stalls_ - f.stalls_at_accept, "held so far") + ", not yet out of the pipelines";
}

void Cosim::datapath_result(uint64_t tag, uint64_t cycle) {
  advance(cycle);
  auto it = in_flight_.find(tag);
  if (it == in_flight_.end()) return;  // the front-end reports an unknown tag
  InFlight& f = it->second;
  f.result_cycle = cycle;
  if (f.deliver_cycle != cycle)
    error(f, cycle,
          "datapath latency " + std::to_string(cycle - f.accept_cycle) + " cycles; " +
              formula_text(f));
}

void Cosim::retire(uint64_t tag, const Fragment& d, uint64_t cycle, bool isolated,
                   uint64_t write_back_stalls) {
  auto it = in_flight_.find(tag);
  const InFlight& f = it->second;
  ++checked_;
  const int bits = fragment_layout(f.instr, Operand::kD).reg_bits();
  for (int lane = 0; lane < kLanes; ++lane)
    for (int reg = 0; reg < d.regs_per_lane; ++reg)
      if (d.at(lane, reg) != f.expected.at(lane, reg)) {
        error(f, cycle,
              "lane " + std::to_string(lane) + " d[" + std::to_string(reg) + "]: expected " +
                  format_register(f.expected.at(lane, reg), bits) + ", got " +
                  format_register(d.at(lane, reg), bits));
        lane = kLanes;
        break;
      }
  if (isolated) {
    const uint64_t latency = cycle - f.issue_cycle;
    const uint64_t want = uint64_t(instruction_latency(datapath_, front_end_, f.instr));
    // Back-pressure delays the datapath between accept and result, and
    // holds the write-back's beats.
    const uint64_t delayed = f.result_cycle - f.accept_cycle -
                             uint64_t(datapath_latency(datapath_, f.instr)) + write_back_stalls;
    if (latency != want + delayed)
      error(f, cycle,
            "instruction latency " + std::to_string(latency) + " cycles; the formula says " +
                std::to_string(want) +
                (delayed ? " + " + std::to_string(delayed) + " of back-pressure" : ""));
  }
  in_flight_.erase(it);
}

void Cosim::violation(uint64_t tag, uint64_t cycle, const std::string& what) {
  auto it = in_flight_.find(tag);
  if (it != in_flight_.end()) {
    error(it->second, cycle, what);
  } else {
    ++error_count_;
    if (errors_.size() < 100)
      errors_.push_back("cosim: cycle " + std::to_string(cycle) + ": " + what);
  }
}

std::string Cosim::case_name(uint64_t tag) const {
  auto it = in_flight_.find(tag);
  return it == in_flight_.end() ? std::string() : it->second.case_name;
}

std::vector<std::string> Cosim::take_errors() {
  std::vector<std::string> out;
  out.swap(errors_);
  return out;
}

}  // namespace tcu
