// The Verilated tcu_sim_top of one configuration behind DatapathModel.
// Included by the generated datapath_factory.cpp (rtl/CMakeLists.txt), once
// per compiled configuration.
#pragma once

#include <verilated.h>
#include <verilated_fst_c.h>

#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>

#include "datapath_model.h"

namespace tcu {

template <class Top>
class VerilatedDatapath : public DatapathModel {
 public:
  explicit VerilatedDatapath(std::string config)
      : config_(std::move(config)), context_(new VerilatedContext), top_(new Top(context_.get())) {
    top_->clk_i = 0;
    top_->rst_ni = 1;
    top_->eval();
  }
  ~VerilatedDatapath() override {
    // Verilator tears a model's scopes down through the thread's current
    // context, which is another model's (perhaps destroyed) when a process
    // holds several: make it this model's own first.
    Verilated::threadContextp(context_.get());
    top_->final();
    if (trace_) trace_->close();
    trace_.reset();
    top_.reset();
  }

  std::string config() const override { return config_; }

  void set_reset(bool active) override { top_->rst_ni = !active; }
  void set_instruction(const DatapathInputs& in) override {
    top_->in_family_i = in.family;
    top_->in_a_signed_i = in.a_signed;
    top_->in_b_signed_i = in.b_signed;
    top_->in_satfinite_i = in.satfinite;
    top_->in_k32_i = in.k32;
    top_->in_rnd_i = in.rounding;
    top_->in_c_f16_i = in.c_f16;
    top_->in_d_f16_i = in.d_f16;
    top_->in_scale_4x_i = in.scale_4x;
    top_->in_tag_i = in.tag;
    copy(in.a, top_->in_a_i);
    copy(in.b, top_->in_b_i);
    copy(in.c, top_->in_c_i);
    copy(in.meta, top_->in_meta_i);
    copy(in.scale_a, top_->in_scale_a_i);
    copy(in.scale_b, top_->in_scale_b_i);
  }
  void set_in_valid(bool valid) override { top_->in_valid_i = valid; }
  void set_out_ready(bool ready) override { top_->out_ready_i = ready; }
  void show_lane_src(const std::array<uint32_t, kLaneSrcWords>& words) override {
    if (!trace_) return;
    copy(words, top_->lane_src_i);
    top_->lane_src_we_i = 1;
  }
  void show_lane_dst(const std::array<uint32_t, kLaneDstWords>& words) override {
    if (!trace_) return;
    copy(words, top_->lane_dst_i);
    top_->lane_dst_we_i = 1;
  }

  bool in_ready() const override { return top_->in_ready_o; }
  bool out_valid() const override { return top_->out_valid_o; }
  uint32_t out_tag() const override { return top_->out_tag_o; }
  const uint32_t* out_d() const override { return top_->out_d_o.data(); }
  Activity activity() const override {
    Activity a;
    a.cycles = top_->act_cycles_o;
    a[ActivityEngine::kInt4] = {top_->act_int4_busy_o, top_->act_int4_idle_o,
                                top_->act_int4_stalled_o, top_->act_int4_gated_o,
                                top_->act_int4_macs_o};
    a[ActivityEngine::kE2m1] = {top_->act_e2m1_busy_o, top_->act_e2m1_idle_o,
                                top_->act_e2m1_stalled_o, top_->act_e2m1_gated_o,
                                top_->act_e2m1_macs_o};
    a[ActivityEngine::kF16] = {top_->act_f16_busy_o, top_->act_f16_idle_o, top_->act_f16_stalled_o,
                               top_->act_f16_gated_o, top_->act_f16_macs_o};
    a[ActivityEngine::kF64] = {top_->act_f64_busy_o, top_->act_f64_idle_o, top_->act_f64_stalled_o,
                               top_->act_f64_gated_o, top_->act_f64_macs_o};
    return a;
  }

  void rising_edge() override {
    ++cycle_;
    top_->clk_i = 1;
    top_->eval();
    if (trace_) trace_->dump(cycle_ * 1000);
    // The lane view strobes last one edge.
    top_->lane_src_we_i = 0;
    top_->lane_dst_we_i = 0;
  }
  void falling_edge() override {
    top_->clk_i = 0;
    top_->eval();
    if (trace_) trace_->dump(cycle_ * 1000 + 500);
  }

  void open_trace(const std::string& path) override {
    context_->traceEverOn(true);
    trace_ = std::make_unique<VerilatedFstC>();
    top_->trace(trace_.get(), 99);
    trace_->open(path.c_str());
    if (!trace_->isOpen()) throw std::runtime_error("cannot open waveform file '" + path + "'");
  }

 private:
  template <size_t N, class Wide>
  static void copy(const std::array<uint32_t, N>& from, Wide& to) {
    static_assert(sizeof(to) == N * sizeof(uint32_t), "port width");
    std::memcpy(to.data(), from.data(), sizeof(to));
  }

  std::string config_;
  std::unique_ptr<VerilatedContext> context_;
  std::unique_ptr<Top> top_;
  std::unique_ptr<VerilatedFstC> trace_;
};

}  // namespace tcu
