// The golden model behind the co-simulation interface: D from
// golden_execute at issue, the cycles from the timing model (only in
// CheckMode::kCycles), the D compared at retirement by d_check.
#pragma once

#include <optional>

#include "cosim.h"
#include "d_check.h"
#include "tag_table.h"
#include "timing_model.h"

namespace tcu {

class GoldenCosim : public Cosim {
 public:
  GoldenCosim(const DatapathConfig& datapath, const FrontEndConfig& front_end,
              CheckMode mode = CheckMode::kCycles);

  // D from golden_execute, unless the caller gives it (`expected`).
  void issue(uint64_t tag, const Instr& instr, const WarpOperands& operands,
             const std::string& case_name, uint64_t cycle,
             const Fragment* expected = nullptr) override;
  const Fragment& expected_d(uint64_t tag) const override;
  void datapath_accept(uint64_t tag, uint64_t cycle, uint64_t offered) override;
  void datapath_backpressure(uint64_t cycle) override;
  void datapath_result(uint64_t tag, uint64_t cycle) override;
  void retire(uint64_t tag, const Fragment& d, uint64_t cycle, bool isolated,
              uint64_t write_back_stalls = 0) override;
  void violation(uint64_t tag, uint64_t cycle, const std::string& what) override;
  std::string case_name(uint64_t tag) const override;
  void set_front_end(const FrontEndConfig& front_end) override;

  uint64_t checked() const override { return checked_; }
  std::optional<ReferenceActivity> reference_activity() const override {
    if (!timing_) return std::nullopt;
    return timing_->activity();
  }
  uint64_t errors() const override { return error_count_; }
  std::vector<std::string> take_errors() override;

 private:
  struct InFlight {
    Instr instr;
    std::string case_name;
    const Fragment* given = nullptr;  // the caller's expected D, or null
    Fragment computed;                // golden_execute's, without one
    const Fragment& expected() const { return given ? *given : computed; }
  };
  // Records `what` (nothing if empty) against the instruction with `tag`.
  void error(uint64_t tag, uint64_t cycle, const std::string& what);

  std::optional<TimingModel> timing_;  // none in CheckMode::kResults
  TagTable<InFlight> in_flight_;
  std::vector<std::string> errors_;
  uint64_t checked_ = 0, error_count_ = 0;
};

}  // namespace tcu
