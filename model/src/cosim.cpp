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

void Cosim::datapath_accept(uint64_t tag, uint64_t cycle, bool waited) {
  InFlight& f = in_flight_.at(tag);
  f.accept_cycle = cycle;
  if (waited && any_accept_ && last_accept_family_ == f.instr.family) {
    const uint64_t interval = cycle - last_accept_cycle_;
    const uint64_t want = uint64_t(last_accept_occupancy_);
    if (interval != want)
      error(f, cycle,
            "accepted " + std::to_string(interval) +
                " cycles after the previous instruction of its family; the occupancy formula "
                "says " +
                std::to_string(want));
  }
  any_accept_ = true;
  last_accept_cycle_ = cycle;
  last_accept_family_ = f.instr.family;
  last_accept_occupancy_ = datapath_occupancy(datapath_, f.instr);
}

void Cosim::datapath_result(uint64_t tag, uint64_t cycle) {
  const InFlight& f = in_flight_.at(tag);
  const uint64_t latency = cycle - f.accept_cycle;
  const uint64_t want = uint64_t(datapath_latency(datapath_, f.instr));
  if (latency != want)
    error(f, cycle,
          "datapath latency " + std::to_string(latency) + " cycles; the formula says " +
              std::to_string(want));
}

void Cosim::retire(uint64_t tag, const Fragment& d, uint64_t cycle, bool isolated) {
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
    if (latency != want)
      error(f, cycle,
            "instruction latency " + std::to_string(latency) + " cycles; the formula says " +
                std::to_string(want));
  }
  in_flight_.erase(it);
}

std::vector<std::string> Cosim::take_errors() {
  std::vector<std::string> out;
  out.swap(errors_);
  return out;
}

}  // namespace tcu
