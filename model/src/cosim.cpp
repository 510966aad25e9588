#include "tcu/cosim.h"

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

void Cosim::datapath_accept(uint64_t tag, uint64_t cycle, uint64_t offered) {
  InFlight& f = in_flight_.at(tag);
  f.accept_cycle = cycle;
  f.stalls_at_accept = stalls_;
  const bool same_engine = engine_of(last_accept_instr_.family) == engine_of(f.instr.family);
  const uint64_t formula =
      !any_accept_ ? 0
                   : uint64_t(same_engine ? datapath_occupancy(datapath_, last_accept_instr_)
                                          : datapath_latency(datapath_, last_accept_instr_));
  if (any_accept_ && offered <= last_accept_cycle_ + formula) {
    const uint64_t interval = cycle - last_accept_cycle_;
    const uint64_t stalled = stalls_ - last_accept_stalls_;
    if (interval != formula + stalled)
      error(f, cycle,
            "accepted " + std::to_string(interval) + " cycles after the previous instruction (" +
                last_accept_instr_.ptx() + "); the formula says " + std::to_string(formula) +
                (same_engine ? " (its occupancy)" : " (its latency: the drain rule)") +
                (stalled ? " + " + std::to_string(stalled) + " stalled" : ""));
  }
  any_accept_ = true;
  last_accept_cycle_ = cycle;
  last_accept_stalls_ = stalls_;
  last_accept_instr_ = f.instr;
}

void Cosim::datapath_result(uint64_t tag, uint64_t cycle) {
  auto it = in_flight_.find(tag);
  if (it == in_flight_.end()) return;  // the front-end reports an unknown tag
  InFlight& f = it->second;
  f.result_cycle = cycle;
  const uint64_t latency = cycle - f.accept_cycle;
  const uint64_t stalled = stalls_ - f.stalls_at_accept;
  const uint64_t want = uint64_t(datapath_latency(datapath_, f.instr));
  if (latency != want + stalled)
    error(f, cycle,
          "datapath latency " + std::to_string(latency) + " cycles; the formula says " +
              std::to_string(want) + (stalled ? " + " + std::to_string(stalled) + " stalled" : ""));
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
    // Stalls: those of the datapath between accept and result, and the
    // write-back's beats held by back-pressure.
    const uint64_t stalled = f.result_cycle - f.accept_cycle -
                             uint64_t(datapath_latency(datapath_, f.instr)) + write_back_stalls;
    if (latency != want + stalled)
      error(f, cycle,
            "instruction latency " + std::to_string(latency) + " cycles; the formula says " +
                std::to_string(want) +
                (stalled ? " + " + std::to_string(stalled) + " stalled" : ""));
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
