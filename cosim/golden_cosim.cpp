#include "golden_cosim.h"

#include <stdexcept>

namespace tcu {

bool parse_check_mode(const std::string& name, CheckMode* mode) {
  for (CheckMode m : {CheckMode::kCycles, CheckMode::kResults})
    if (name == to_string(m)) {
      *mode = m;
      return true;
    }
  return false;
}

const char* to_string(CheckMode mode) { return mode == CheckMode::kResults ? "results" : "cycles"; }

std::unique_ptr<Cosim> make_golden_cosim(const DatapathConfig& datapath,
                                         const FrontEndConfig& front_end, CheckMode mode) {
  return std::make_unique<GoldenCosim>(datapath, front_end, mode);
}

GoldenCosim::GoldenCosim(const DatapathConfig& datapath, const FrontEndConfig& front_end,
                         CheckMode mode) {
  if (mode == CheckMode::kCycles) timing_.emplace(datapath, front_end);
}

void GoldenCosim::set_front_end(const FrontEndConfig& front_end) {
  if (timing_) timing_->set_front_end(front_end);
}

void GoldenCosim::error(uint64_t tag, uint64_t cycle, const std::string& what) {
  if (what.empty()) return;
  ++error_count_;
  if (errors_.size() >= 100) return;
  const InFlight* f = in_flight_.find(tag);
  if (!f)
    errors_.push_back("cosim: cycle " + std::to_string(cycle) + ": " + what);
  else
    errors_.push_back("cosim: " + f->instr.ptx() + " case " + f->case_name + " cycle " +
                      std::to_string(cycle) + ": " + what);
}

void GoldenCosim::issue(uint64_t tag, const Instr& instr, const WarpOperands& operands,
                        const std::string& case_name, uint64_t cycle,
                        const Fragment* expected) {
  InFlight& f = in_flight_.insert(tag);
  f.instr = instr;
  f.case_name = case_name;
  f.given = expected;
  if (!expected) f.computed = golden_execute(instr, operands);
  if (timing_) timing_->issue(tag, instr, cycle);
}

const Fragment& GoldenCosim::expected_d(uint64_t tag) const {
  const InFlight* f = in_flight_.find(tag);
  if (!f) throw std::out_of_range("Cosim::expected_d: tag " + std::to_string(tag) + " is not in flight");
  return f->expected();
}

void GoldenCosim::datapath_accept(uint64_t tag, uint64_t cycle, uint64_t offered) {
  if (timing_) error(tag, cycle, timing_->accept(tag, cycle, offered));
}

void GoldenCosim::datapath_backpressure(uint64_t cycle) {
  if (timing_) timing_->backpressure(cycle);
}

void GoldenCosim::datapath_result(uint64_t tag, uint64_t cycle) {
  if (timing_) error(tag, cycle, timing_->result(tag, cycle));
}

void GoldenCosim::retire(uint64_t tag, const Fragment& d, uint64_t cycle, bool isolated,
                         uint64_t write_back_stalls) {
  const InFlight* f = in_flight_.find(tag);
  if (!f) throw std::logic_error("Cosim::retire: tag " + std::to_string(tag) + " was not issued");
  ++checked_;
  error(tag, cycle, d_mismatch(f->instr, f->expected(), d));
  if (timing_) error(tag, cycle, timing_->retire(tag, cycle, isolated, write_back_stalls));
  in_flight_.erase(tag);
}

void GoldenCosim::violation(uint64_t tag, uint64_t cycle, const std::string& what) {
  error(tag, cycle, what);
}

std::string GoldenCosim::case_name(uint64_t tag) const {
  const InFlight* f = in_flight_.find(tag);
  return f ? f->case_name : std::string();
}

std::vector<std::string> GoldenCosim::take_errors() {
  std::vector<std::string> out;
  out.swap(errors_);
  return out;
}

}  // namespace tcu
