// The Verilated tcu_sim_top of one configuration behind DatapathModel.
// Included by the generated datapath_factory.cpp (rtl/CMakeLists.txt), once
// per compiled configuration.
#pragma once

#include <verilated.h>
#include <verilated_fst_c.h>
#if VM_COVERAGE
#include <verilated_cov.h>
#endif

#include <array>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "datapath_model.h"

namespace tcu {

// Traced: Top was Verilated with waveform tracing (--trace-fst).
template <class Top, bool Traced = true>
class VerilatedDatapath : public DatapathModel {
 public:
  VerilatedDatapath(std::string config, const DatapathConfig& params)
      : config_(std::move(config)),
        words_(params.words_per_cycle),
        d_words_(params.d_words_per_cycle),
        context_(make_context()),
        top_(new Top(context_.get())) {
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

  // A context with the plusargs of the environment's TCU_PLUSARGS
  // ("+name +name=value ...", separated by spaces), which the RTL reads
  // with $test$plusargs / $value$plusargs (a datapath of one's own may take
  // its knobs this way).
  static VerilatedContext* make_context() {
    auto* context = new VerilatedContext;
    std::vector<std::string> args = {"tcu"};
    if (const char* text = std::getenv("TCU_PLUSARGS")) {
      std::istringstream words(text);
      for (std::string word; words >> word;) args.push_back(word);
    }
    std::vector<const char*> argv;
    for (const std::string& arg : args) argv.push_back(arg.c_str());
    context->commandArgs(int(argv.size()), argv.data());
    return context;
  }

  std::string config() const override { return config_; }
  int words_per_cycle() const override { return words_; }
  int d_words_per_cycle() const override { return d_words_; }

  void set_reset(bool active) override { top_->rst_ni = !active; }
  void set_start(bool start) override { top_->in_start_i = start; }
  void set_descriptor(const CoreDescriptor& in) override {
    top_->in_family_i = in.family;
    top_->in_a_signed_i = in.a_signed;
    top_->in_b_signed_i = in.b_signed;
    top_->in_satfinite_i = in.satfinite;
    top_->in_k32_i = in.k32;
    top_->in_rnd_i = in.rounding;
    top_->in_a_row_i = in.a_row;
    top_->in_b_row_i = in.b_row;
    top_->in_c_f16_i = in.c_f16;
    top_->in_d_f16_i = in.d_f16;
    top_->in_scale_4x_i = in.scale_4x;
    top_->in_sparsity_i = in.sparsity;
    top_->in_byte_id_a_i = in.byte_id_a;
    top_->in_thread_id_a_i = in.thread_id_a;
    top_->in_byte_id_b_i = in.byte_id_b;
    top_->in_thread_id_b_i = in.thread_id_b;
    top_->in_tag_i = in.tag;
  }
  void set_beat(const PackedBeat* beat, bool last) override {
    static const PackedBeat kNoWords;
    const PackedBeat& b = beat ? *beat : kNoWords;
    if (b.count > words_)
      throw std::logic_error("set_beat: " + std::to_string(b.count) + " words, more than the " +
                             std::to_string(words_) + " slots");
    store(top_->in_word_valid_i, b.valid.data());
    store(top_->in_word_op_i, b.op.data());
    store(top_->in_word_lane_i, b.lane.data());
    store(top_->in_word_reg_i, b.reg.data());
    if (b.count) store(top_->in_word_data_i, b.data.data());
    top_->in_last_i = last;
  }
  void set_wb_ready(bool ready) override { top_->wb_ready_i = ready; }

  bool in_start_ready() const override { return top_->in_start_ready_o; }
  bool wb_valid() const override { return top_->wb_valid_o; }
  bool wb_last() const override { return top_->wb_last_o; }
  uint32_t wb_tag() const override { return top_->wb_tag_o; }
  void wb_ports(WbPorts* out) const override {
    load(top_->wb_word_valid_o, out->valid.data());
    load(top_->wb_word_lane_o, out->lane.data());
    load(top_->wb_word_reg_o, out->reg.data());
    load(top_->wb_word_data_o, out->data.data());
  }
  bool dp_valid() const override { return top_->obs_dp_valid_o; }
  bool dp_ready() const override { return top_->obs_dp_ready_o; }
  uint32_t dp_tag() const override { return top_->obs_dp_tag_o; }
  void dp_inputs(DatapathInputs* in) const override {
    dp_descriptor(in);
    copy(top_->obs_hand_a_o, &in->a);
    copy(top_->obs_hand_b_o, &in->b);
    copy(top_->obs_hand_c_o, &in->c);
    copy(top_->obs_hand_meta_o, &in->meta);
    copy(top_->obs_hand_scale_a_o, &in->scale_a);
    copy(top_->obs_hand_scale_b_o, &in->scale_b);
  }
  DatapathPortWords dp_port_words() const override {
    return {words<kDatapathPortWords[0]>(top_->obs_hand_a_o),
            words<kDatapathPortWords[1]>(top_->obs_hand_b_o),
            words<kDatapathPortWords[2]>(top_->obs_hand_c_o),
            words<kDatapathPortWords[3]>(top_->obs_hand_meta_o),
            words<kDatapathPortWords[4]>(top_->obs_hand_scale_a_o),
            words<kDatapathPortWords[5]>(top_->obs_hand_scale_b_o)};
  }
  void dp_descriptor(DatapathInputs* in) const override {
    const uint32_t flags = top_->obs_hand_flags_o;
    in->family = top_->obs_hand_family_o;
    in->a_signed = flags >> 8 & 1;
    in->b_signed = flags >> 7 & 1;
    in->satfinite = flags >> 6 & 1;
    in->k32 = flags >> 5 & 1;
    in->rounding = flags >> 3 & 3;
    in->c_f16 = flags >> 2 & 1;
    in->d_f16 = flags >> 1 & 1;
    in->scale_4x = flags & 1;
    in->tag = top_->obs_hand_tag_o;
  }
  bool dp_inputs_equal(const DatapathInputs& e) const override {
    const uint32_t flags = top_->obs_hand_flags_o;
    return e.family == top_->obs_hand_family_o && e.a_signed == bool(flags >> 8 & 1) &&
           e.b_signed == bool(flags >> 7 & 1) && e.satfinite == bool(flags >> 6 & 1) &&
           e.k32 == bool(flags >> 5 & 1) && e.rounding == (flags >> 3 & 3) &&
           e.c_f16 == bool(flags >> 2 & 1) && e.d_f16 == bool(flags >> 1 & 1) &&
           e.scale_4x == bool(flags & 1) && same(top_->obs_hand_a_o, e.a) &&
           same(top_->obs_hand_b_o, e.b) && same(top_->obs_hand_c_o, e.c) &&
           same(top_->obs_hand_meta_o, e.meta) && same(top_->obs_hand_scale_a_o, e.scale_a) &&
           same(top_->obs_hand_scale_b_o, e.scale_b);
  }
  bool d_valid() const override { return top_->obs_d_valid_o; }
  bool d_ready() const override { return top_->obs_d_ready_o; }
  uint32_t d_tag() const override { return top_->obs_d_tag_o; }
  const uint32_t* d() const override { return top_->obs_out_d_o.data(); }
  bool write_coverage(const std::string& path) override {
#if VM_COVERAGE
    context_->coveragep()->write(path.c_str());
    return true;
#else
    (void)path;
    return false;
#endif
  }

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
    if constexpr (Traced)
      if (trace_) trace_->dump(cycle_ * 1000);
  }
  void falling_edge() override {
    top_->clk_i = 0;
    top_->eval();
    if constexpr (Traced)
      if (trace_) trace_->dump(cycle_ * 1000 + 500);
  }
  void settle() override { top_->eval(); }

  void open_trace(const std::string& path) override {
    if constexpr (!Traced) {
      throw std::invalid_argument("configuration '" + config_ +
                                  "' is built without waveform tracing; trace another one");
    } else {
      open_fst(path);
    }
  }

 private:
  void open_fst(const std::string& path) {
    context_->traceEverOn(true);
    trace_ = std::make_unique<VerilatedFstC>();
    top_->trace(trace_.get(), 99);
    trace_->open(path.c_str());
    if (!trace_->isOpen()) throw std::runtime_error("cannot open waveform file '" + path + "'");
  }

  // A port's bits as 32-bit words, whatever C++ type Verilator gave it (its
  // width depends on WordsPerCycle).
  template <class Port>
  static void store(Port& port, const uint32_t* words) {
    if constexpr (std::is_integral_v<Port>) {
      port = Port(sizeof(Port) > 4 ? words[0] | uint64_t(words[1]) << 32 : words[0]);
    } else {
      std::memcpy(port.data(), words, sizeof(port));
    }
  }
  template <class Port>
  static void load(const Port& port, uint32_t* words) {
    if constexpr (std::is_integral_v<Port>) {
      words[0] = uint32_t(uint64_t(port));
      if (sizeof(Port) > 4) words[1] = uint32_t(uint64_t(port) >> 32);
    } else {
      std::memcpy(words, port.data(), sizeof(port));
    }
  }
  template <size_t N, class Wide>
  static bool same(const Wide& port, const std::array<uint32_t, N>& words) {
    static_assert(sizeof(port) == N * sizeof(uint32_t), "port width");
    return std::memcmp(port.data(), words.data(), sizeof(port)) == 0;
  }
  template <size_t N, class Wide>
  static const uint32_t* words(const Wide& port) {
    static_assert(sizeof(port) == N * sizeof(uint32_t), "port width");
    return port.data();
  }
  template <size_t N, class Wide>
  static void copy(const Wide& from, std::array<uint32_t, N>* to) {
    static_assert(sizeof(from) == N * sizeof(uint32_t), "port width");
    std::memcpy(to->data(), from.data(), sizeof(from));
  }

  std::string config_;
  int words_, d_words_;
  std::unique_ptr<VerilatedContext> context_;
  std::unique_ptr<Top> top_;
  std::unique_ptr<VerilatedFstC> trace_;
};

}  // namespace tcu
