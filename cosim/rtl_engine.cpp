// Top level in the order of Verilator's examples/make_tracing_sc: the
// Verilated model and the front-end with its clock period,
// sc_start(SC_ZERO_TIME), then the trace, then the run. The model (the core:
// operand router and datapath) is Verilated as plain C++ (--cc) and clocked
// from the front-end's process (warp_frontend.h says why).
#include "rtl_engine.h"

#include <stdexcept>
#include <systemc>

#include "datapath_model.h"
#include "fault_injector.h"
#include "warp_frontend.h"

namespace tcu {
namespace {

class RtlEngine : public Engine {
 public:
  RtlEngine(const RtlOptions& options, const FrontEndConfig& front_end)
      : config_name_(options.config),
        datapath_(datapath_config(options.config)),
        model_(make_datapath_model(options.config)),
        cosim_(make_golden_cosim(datapath_config(options.config), front_end,
                                 options.stimulus.check)),
        faults_(options.stimulus.fault),
        front_end_("warp_frontend", model_.get(), datapath_config(options.config), front_end,
                   cosim_.get(), &faults_,
                   {options.stimulus.backpressure, options.stimulus.seed},
                   sc_core::sc_time(1, sc_core::SC_NS)) {
    const std::string& trace = options.trace;

    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    if (!trace.empty()) model_->open_trace(trace);
    // Reset for a few cycles, outside the front-end's clock, which starts
    // after reset: no edge before it reaches the core (its registers hold
    // their power-up values until then) and no check reads its outputs.
    model_->set_start(false);
    model_->set_words(nullptr, 0, false);
    model_->set_wb_ready(true);
    model_->reset();
    model_->settle();  // reset's release; its last falling edge is already dumped
    front_end_.pause_when_idle(true);
    front_end_.start_clock();
  }

  std::string name() const override { return "rtl(" + config_name_ + ")"; }

  Fragment execute(const Instr& instr, const WarpOperands& operands) override {
    return execute_batch(instr, {operands}).front();
  }

  std::vector<Fragment> execute_batch(const Instr& instr,
                                      const std::vector<WarpOperands>& batch) override {
    refuse_disabled(instr);
    // Every case is checked before any is issued (the front-end reads them
    // in place: none may stay queued behind a refused one).
    for (const WarpOperands& operands : batch) validate_operands(instr, operands);
    for (const WarpOperands& operands : batch) issue(instr, operands, nullptr);
    std::vector<Fragment> out;
    run_issued(&out);
    return out;
  }

  std::vector<Fragment> execute_stream(const std::vector<StreamItem>& items) override {
    std::vector<Fragment> out;
    execute_stream_into(items, &out);
    return out;
  }

  void execute_stream_into(const std::vector<StreamItem>& items,
                           std::vector<Fragment>* out) override {
    for (const StreamItem& item : items) refuse_disabled(item.instr);
    // What the golden model rejects is never issued, nor anything beside it
    // (an item's expected D is the golden model's: it accepted them).
    for (const StreamItem& item : items)
      if (!item.expected) validate_operands(item.instr, item.operands);
    for (const StreamItem& item : items) issue(item.instr, item.operands, &item);
    front_end_.reuse(out);  // the last stream's D fragments, for this one's
    run_issued(out);
  }

  // An instruction for an engine this configuration leaves out never
  // reaches the datapath (its assertion would flag it): nothing is issued.
  void refuse_disabled(const Instr& instr) const {
    if (!disabled_by(datapath_, instr.family)) return;
    throw UnsupportedInstruction(disabled_error(config_name_, datapath_, instr));
  }
  // Queues one instruction (validated); the front-end reads `operands` (and
  // the item's expected D) in place, until run_issued() returns.
  void issue(const Instr& instr, const WarpOperands& operands, const StreamItem* item) {
    front_end_.issue({instr, &operands, item ? item->case_id : std::to_string(issued_),
                      item ? item->expected : nullptr});
    ++issued_;
  }
  // Runs what was issued until the front-end is idle; its D in issue order
  // into `*out` (swapped with the front-end's results).
  void run_issued(std::vector<Fragment>* out) {
    // The front-end pauses the kernel once idle; a datapath that never
    // answers runs into the cycle limit instead, where the front-end pauses
    // too: the edges of `limit` clock periods from the run's start (the
    // first of them at the start itself before the clock's first cycle,
    // else a period on).
    const uint64_t start = front_end_.cycle();
    const uint64_t limit = 100000 + 1000 * issued_since_run();
    front_end_.set_last_cycle(start + (start == 0 ? limit : limit - 1));
    sc_core::sc_start();
    run_start_ = issued_;
    if (!front_end_.idle()) {
      std::string cases;
      for (const std::string& name : front_end_.unfinished())
        cases += (cases.empty() ? "" : ", ") + name;
      throw DesignFailure("RTL engine: the datapath hung: no result after " +
                          std::to_string(front_end_.cycle() - start) +
                          " cycles; cases not finished: " + cases);
    }
    out->swap(front_end_.results());
    front_end_.results().clear();
    last_write_back_stalls_.clear();
    last_write_back_stalls_.swap(front_end_.write_back_stalls());
  }
  uint64_t issued_since_run() const { return issued_ - run_start_; }

  uint64_t cycles() const override { return front_end_.cycle(); }
  std::optional<RegisterFileRun> register_file_run() const override {
    return RegisterFileRun{front_end_.front_end(),
                           write_back_front_end(front_end_.datapath(), front_end_.front_end()),
                           last_write_back_stalls_};
  }
  // A datapath of one's own has no activity counters (its wrapper counts
  // cycles only): none are reported.
  bool write_rtl_coverage(const std::string& path) override {
    return model_->write_coverage(path);
  }

  std::optional<Activity> activity() const override {
    if (datapath_is_own(config_name_)) return std::nullopt;
    return model_->activity();
  }
  std::optional<ReferenceActivity> expected_activity() const override {
    if (datapath_is_own(config_name_)) return std::nullopt;
    return cosim_->reference_activity();
  }
  void set_front_end(const FrontEndConfig& config) { front_end_.set_front_end(config); }
  const std::string& config() const { return config_name_; }
  bool fault_injected() const { return faults_.injected(); }
  std::vector<std::string> take_errors() override { return cosim_->take_errors(); }

 private:
  std::string config_name_;
  const DatapathConfig& datapath_;  // datapath_config(config_name_)
  std::unique_ptr<DatapathModel> model_;
  std::unique_ptr<Cosim> cosim_;
  FaultInjector faults_;
  WarpFrontEnd front_end_;
  uint64_t issued_ = 0;
  uint64_t run_start_ = 0;  // issued_ when the last run_issued began
  std::vector<uint64_t> last_write_back_stalls_;  // of the last execute_stream
};

}  // namespace

void set_front_end(Engine& engine, const FrontEndConfig& front_end) {
  auto* rtl = dynamic_cast<RtlEngine*>(&engine);
  if (!rtl) throw std::invalid_argument("set_front_end: not an RTL engine");
  if (const std::string why = front_end_config_error(front_end); !why.empty())
    throw std::invalid_argument("front-end configuration: " + why);
  rtl->set_front_end(front_end);  // checks rf_bandwidth_error
}

bool fault_injected(const Engine& engine) {
  const auto* rtl = dynamic_cast<const RtlEngine*>(&engine);
  return rtl && rtl->fault_injected();
}

std::unique_ptr<Engine> make_rtl_engine(const RtlOptions& options) {
  const DatapathConfig& config = datapath_config(options.config);  // throws for an unknown name
  if (const std::string why = front_end_config_error(options.front_end); !why.empty())
    throw std::invalid_argument("front-end configuration: " + why);
  if (const std::string why = rf_bandwidth_error(config, options.front_end); !why.empty())
    throw std::invalid_argument(why);
  return std::make_unique<RtlEngine>(options, options.front_end);
}

std::unique_ptr<Engine> make_rtl_engine(const std::string& config, const std::string& trace,
                                        const FrontEndConfig& front_end) {
  RtlOptions options;
  options.config = config;
  options.trace = trace;
  options.front_end = front_end;
  if (datapath_is_own(config)) options.stimulus.check = CheckMode::kResults;
  return make_rtl_engine(options);
}

}  // namespace tcu
