// Top level in the order of Verilator's examples/make_tracing_sc: clock and
// signals, the Verilated model and its bindings, sc_start(SC_ZERO_TIME),
// then the trace, then the run.
#include "rtl_engine.h"

#include <verilated.h>
#include <verilated_fst_sc.h>

#include <stdexcept>
#include <systemc>

#include "Vtcu_sim_top_default.h"
#include "Vtcu_sim_top_small.h"
#include "datapath_configs.h"
#include "warp_frontend.h"

namespace tcu {
namespace {

template <class Top>
class RtlEngine : public Engine {
 public:
  RtlEngine(const std::string& config_name, const DatapathConfig& datapath,
            const FrontEndConfig& front_end, const std::string& trace)
      : config_name_(config_name),
        clock_("clk", 1, sc_core::SC_NS, 0.5, 0, sc_core::SC_NS, true),
        top_(new Top("tcu_sim_top")),
        front_end_("warp_frontend", &s_, datapath, front_end, !trace.empty()) {
    Verilated::traceEverOn(!trace.empty());
    top_->clk_i(clock_);
    top_->rst_ni(s_.rst_n);
    top_->in_valid_i(s_.in_valid);
    top_->in_ready_o(s_.in_ready);
    top_->in_family_i(s_.in_family);
    top_->in_a_signed_i(s_.in_a_signed);
    top_->in_b_signed_i(s_.in_b_signed);
    top_->in_satfinite_i(s_.in_satfinite);
    top_->in_k32_i(s_.in_k32);
    top_->in_rnd_i(s_.in_rnd);
    top_->in_c_f16_i(s_.in_c_f16);
    top_->in_d_f16_i(s_.in_d_f16);
    top_->in_scale_4x_i(s_.in_scale_4x);
    top_->in_tag_i(s_.in_tag);
    top_->in_a_i(s_.in_a);
    top_->in_b_i(s_.in_b);
    top_->in_c_i(s_.in_c);
    top_->in_meta_i(s_.in_meta);
    top_->in_scale_a_i(s_.in_scale_a);
    top_->in_scale_b_i(s_.in_scale_b);
    top_->out_valid_o(s_.out_valid);
    top_->out_ready_i(s_.out_ready);
    top_->out_tag_o(s_.out_tag);
    top_->out_d_o(s_.out_d);
    top_->lane_src_i(s_.lane_src);
    top_->lane_dst_i(s_.lane_dst);
    front_end_.clk(clock_);

    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    if (!trace.empty()) {
      trace_ = std::make_unique<VerilatedFstSc>();
      top_->trace(trace_.get(), 99);
      trace_->open(trace.c_str());
    }
    // Reset for a few cycles; D is always accepted (write-back queues it).
    s_.rst_n.write(false);
    s_.out_ready.write(true);
    sc_core::sc_start(4, sc_core::SC_NS);
    s_.rst_n.write(true);
    sc_core::sc_start(1, sc_core::SC_NS);
  }

  ~RtlEngine() override {
    top_->final();
    if (trace_) trace_->close();
  }

  std::string name() const override { return "rtl(" + config_name_ + ")"; }

  Fragment execute(const Instr& instr, const WarpOperands& operands) override {
    return execute_batch(instr, {operands}).front();
  }

  std::vector<Fragment> execute_batch(const Instr& instr,
                                      const std::vector<WarpOperands>& batch) override {
    for (const WarpOperands& operands : batch) {
      validate_operands(instr, operands);  // what the golden model rejects is never issued
      front_end_.issue({instr, operands, std::to_string(issued_++)});
    }
    uint64_t idle_cycles = 0;
    const uint64_t start = front_end_.cycle();
    while (!front_end_.idle()) {
      sc_core::sc_start(1, sc_core::SC_NS);
      if (++idle_cycles > 100000 + 1000 * batch.size())
        throw std::runtime_error("RTL engine: no result after " +
                                 std::to_string(front_end_.cycle() - start) + " cycles");
    }
    std::vector<Fragment> out;
    out.swap(front_end_.results());
    return out;
  }

  uint64_t cycles() const override { return front_end_.cycle(); }
  std::vector<std::string> take_errors() override { return front_end_.cosim().take_errors(); }

 private:
  std::string config_name_;
  sc_core::sc_clock clock_;
  DatapathSignals s_;
  std::unique_ptr<Top> top_;
  WarpFrontEnd front_end_;
  std::unique_ptr<VerilatedFstSc> trace_;
  uint64_t issued_ = 0;
};

}  // namespace

std::unique_ptr<Engine> make_rtl_engine(const std::string& config, const std::string& trace,
                                        int rf_regs_per_cycle) {
  FrontEndConfig front_end;
  front_end.rf_regs_per_cycle = rf_regs_per_cycle;
  for (const auto& [name, datapath] : datapath_configs()) {
    if (name != config) continue;
    if (name == "default")
      return std::make_unique<RtlEngine<Vtcu_sim_top_default>>(name, datapath, front_end, trace);
    if (name == "small")
      return std::make_unique<RtlEngine<Vtcu_sim_top_small>>(name, datapath, front_end, trace);
  }
  throw std::invalid_argument("unknown datapath configuration '" + config + "'");
}

}  // namespace tcu
