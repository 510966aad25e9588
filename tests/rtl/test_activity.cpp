// The datapath's activity counters (rtl/tcu_activity.sv, read through
// DatapathModel::activity) at every configuration of this build, against
// figures the test derives itself: it feeds the Verilated core lane words
// from plain C++ (CoreFeeder), watches the datapath's handshakes (the sim
// top's obs_* ports), and counts each engine's busy and stalled cycles from
// what it sees; MACs come from the instructions' shapes (m*n*k, the 32
// stored products per row for sparse).
#include <algorithm>
#include <array>
#include <catch2/catch.hpp>
#include <deque>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "core_driver.h"
#include "datapath_model.h"
#include "datapath_ports.h"
#include "tcu/activity.h"
#include "tcu/generator.h"
#include "tcu/timing.h"

namespace {

using tcu::ActivityEngine;

// One representative instruction per family.
const char* const kVariants[] = {
    "mma.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32",
    "mma.sync.aligned.m8n8k32.row.col.satfinite.s32.u4.s4.s32",
    "mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32",
    "mma.sync.aligned.m16n8k64.row.col.kind::mxf4.block_scale.scale_vec::2X.f32.e2m1.e2m1.f32."
    "ue8m0",
    "mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32",
    "mma.sync.aligned.m8n8k4.row.col.rz.f64.f64.f64.f64",
};

// Products an instruction issues, from its shape alone: every m x n x k
// product (for each of m8n8k4 .f16's four quad pairs); a 2:4 sparse A keeps
// 32 of each row's 64 k.
uint64_t shape_macs(const tcu::Instr& instr) {
  const int k = instr.sparse() ? instr.shape.k / 2 : instr.shape.k;
  return uint64_t(instr.batches()) * instr.shape.m * instr.shape.n * k;
}

int engine_index(const tcu::Instr& instr) { return int(tcu::activity_engine(instr.family)); }

// The core driven one cycle at a time, with the test's own account of each
// engine's busy (an instruction of it in flight in the datapath, from its
// accept to its D leaving the pipelines: to the router, or into the output
// skid register when the router's d_ready (the datapath's out_ready) is
// low, which it is while it writes the previous D back) and stalled cycles
// (busy while the pipelines hold: the skid full and another D at the
// pipelines' output). Whether a D waits behind a full skid does not show
// on the ports: the test follows each instruction's D through
// datapath_latency plus the held cycles since its accept, and checks that
// against out_valid whenever the skid is empty.
class Driver {
 public:
  explicit Driver(const std::string& config)
      : model_(tcu::make_datapath_model(config)),
        config_(tcu::datapath_config(config)),
        feeder_(model_.get()) {
    model_->set_start(false);
    model_->set_words(nullptr, 0, false);
    model_->set_wb_ready(true);
    model_->set_reset(true);
    for (int i = 0; i < 4; ++i) {
      model_->rising_edge();
      model_->falling_edge();
    }
    model_->set_reset(false);
    model_->falling_edge();
  }

  // Runs `instrs` in order, their words fed at the router's full rate,
  // with wb_ready low at probability `backpressure`; then `extra` cycles
  // with nothing to do. Returns the datapath's accept cycles.
  std::vector<uint64_t> run(const std::vector<tcu::Instr>& instrs, double backpressure, int extra) {
    std::vector<uint64_t> accepts;
    prepared_.clear();
    prepared_.reserve(instrs.size());  // the feeder holds pointers
    for (size_t i = 0; i < instrs.size(); ++i) {
      const tcu::WarpOperands warp = tcu::generate_operands(instrs[i], 3, i);
      prepared_.push_back(tcu::core_instr(instrs[i], warp, uint32_t(i), model_->words_per_cycle()));
      feeder_.push(&prepared_.back());
      engines_.push_back(engine_index(instrs[i]));
      latencies_.push_back(uint64_t(tcu::datapath_latency(config_, instrs[i])));
    }
    size_t done = 0;
    std::bernoulli_distribution low(backpressure);
    while (done < instrs.size()) {
      REQUIRE(cycles_ < 1000000);
      if (step(!low(rng_))) accepts.push_back(cycles_);
      if (fired_) ++done;
    }
    for (int i = 0; i < extra; ++i) step(true);
    return accepts;
  }

  tcu::Activity activity() const { return model_->activity(); }
  const tcu::DatapathConfig& config() const { return config_; }
  uint64_t cycles() const { return cycles_; }
  uint64_t busy(int e) const { return busy_[size_t(e)]; }
  uint64_t stalled(int e) const { return stalled_[size_t(e)]; }
  uint64_t stall_cycles() const { return stall_cycles_; }

 private:
  // One cycle: inputs settle, the test reads the handshakes, the rising
  // edge. Returns whether the datapath accepted an instruction.
  bool step(bool wb_ready) {
    feeder_.drive();
    model_->set_wb_ready(wb_ready);
    model_->falling_edge();
    const bool accepted = model_->dp_valid() && model_->dp_ready();
    const int engine = accepted ? engines_[next_accept_] : -1;
    const uint64_t latency = accepted ? latencies_[next_accept_++] : 0;
    const bool out_valid = model_->d_valid();
    const bool ready = model_->d_ready();
    fired_ = out_valid && ready;
    const bool pipe_valid = !pipe_.empty() && pipe_.front() + held_ <= cycles_;
    if (!skid_full_) REQUIRE(out_valid == pipe_valid);
    if (skid_full_) REQUIRE(out_valid);
    const bool hold = skid_full_ && pipe_valid;
    const bool take = pipe_valid && !skid_full_;
    stall_cycles_ += hold;
    if (hold) REQUIRE(!model_->dp_ready());
    for (int e = 0; e < tcu::kActivityEngines; ++e) {
      const bool busy = (in_flight_ > 0 && last_engine_ == e) || (accepted && engine == e);
      busy_[size_t(e)] += busy;
      stalled_[size_t(e)] += busy && hold;
    }
    feeder_.sample();
    model_->rising_edge();
    held_ += hold;
    if (take) pipe_.pop_front();
    skid_full_ = out_valid && !ready;
    if (accepted) pipe_.push_back(cycles_ + latency - held_);
    ++cycles_;
    in_flight_ += int(accepted) - int(take);
    if (accepted) last_engine_ = engine;
    return accepted;
  }

  std::unique_ptr<tcu::DatapathModel> model_;
  tcu::DatapathConfig config_;
  tcu::CoreFeeder feeder_;
  std::vector<tcu::CoreInstr> prepared_;
  std::vector<int> engines_;
  std::vector<uint64_t> latencies_;
  size_t next_accept_ = 0;
  std::mt19937_64 rng_{2027};
  uint64_t cycles_ = 0, stall_cycles_ = 0;
  int in_flight_ = 0, last_engine_ = -1;
  bool fired_ = false;
  // The output model: per instruction whose D is still in the pipelines,
  // the cycle it reaches their output less the holds before its accept
  // (it is there once that plus held_ is reached); the held edges so far;
  // whether the skid register holds a D.
  std::deque<uint64_t> pipe_;
  uint64_t held_ = 0;
  bool skid_full_ = false;
  std::array<uint64_t, tcu::kActivityEngines> busy_{}, stalled_{};
};

// Cycles an engine's clock keeps running after its last instruction left:
// the longest unit latency of the configuration's engines, plus two.
uint64_t linger(const tcu::DatapathConfig& config) {
  int longest = 0;
  for (tcu::Family family :
       {tcu::Family::kInt4Dense, tcu::Family::kE2m1, tcu::Family::kF16, tcu::Family::kF64})
    if (!tcu::disabled_by(config, family))
      longest = std::max(longest, tcu::unit_latency(config, family));
  return uint64_t(longest) + 2;
}

void check_partition(const Driver& d) {
  const tcu::Activity a = d.activity();
  REQUIRE(a.cycles == d.cycles());
  for (int e = 0; e < tcu::kActivityEngines; ++e) {
    INFO("engine " << tcu::to_string(ActivityEngine(e)));
    const tcu::EngineActivity& x = a.engines[size_t(e)];
    CHECK(x.busy + x.idle + x.gated == a.cycles);
    CHECK(x.busy == d.busy(e));
    CHECK(x.stalled == d.stalled(e));
  }
}

}  // namespace

TEST_CASE("activity: N back-to-back instructions of one variant", "[rtl][activity]") {
  for (const auto& [name, config] : tcu::datapath_configs()) {
    if (tcu::datapath_is_own(name)) continue;  // no activity counters, its own timing
    for (const char* ptx : kVariants) {
      const tcu::Instr instr = tcu::parse_ptx(ptx);
      if (tcu::disabled_by(config, instr.family)) continue;
      INFO("configuration " << name << ", " << ptx);
      Driver d(name);
      constexpr int kCount = 6;
      const std::vector<tcu::Instr> instrs(kCount, instr);
      const std::vector<uint64_t> accepts = d.run(instrs, 0, 200);
      check_partition(d);

      const tcu::Activity a = d.activity();
      const int mine = engine_index(instr);
      const tcu::EngineActivity& x = a.engines[size_t(mine)];
      CHECK(x.macs == kCount * shape_macs(instr));
      // Back to back: accepted an occupancy apart, or the router's
      // collection apart when that takes longer (its next instruction
      // starts once the previous one's operands are handed over, or the
      // cycle after they were handed over in their last beat); busy from
      // the first accept through the last D.
      const uint64_t occupancy = uint64_t(tcu::datapath_occupancy(config, instr));
      const uint64_t beats = uint64_t((tcu::source_words(instr) + config.words_per_cycle - 1) /
                                      config.words_per_cycle);
      const uint64_t interval = std::max(occupancy, beats);
      const uint64_t latency = uint64_t(tcu::datapath_latency(config, instr));
      for (size_t i = 1; i < accepts.size(); ++i) CHECK(accepts[i] - accepts[i - 1] == interval);
      // Where the router's D beats take longer than that interval (a100's
      // f16 .f32: 256 D words at 32 a cycle against 6), the D path holds
      // the pipelines: check_partition holds the counters to the test's
      // cycle-by-cycle account; the closed forms below assume no hold.
      const uint64_t d_beats = uint64_t((tcu::dest_words(instr) + config.d_words_per_cycle - 1) /
                                        config.d_words_per_cycle);
      if (d_beats > interval) {
        CHECK(x.stalled > 0);
      } else {
        CHECK(x.stalled == 0);
        // Where the interval is longer than an instruction's latency, the
        // engine is idle (its clock running) between one D and the next
        // accept.
        const uint64_t gap = interval > latency + 1 ? interval - (latency + 1) : 0;
        CHECK(x.busy == (kCount - 1) * (interval - gap) + latency + 1);
        // Gated before the first accept (clocks start off after reset) and
        // once the linger after the last D ran out.
        CHECK(x.idle == linger(config) + (kCount - 1) * gap);
      }
      CHECK(x.gated == a.cycles - x.busy - x.idle);
      CHECK(tcu::mac_utilization(a, config, ActivityEngine(mine)) > 0);
      // The engines that never ran: every cycle gated.
      for (int e = 0; e < tcu::kActivityEngines; ++e) {
        if (e == mine) continue;
        INFO("idle engine " << tcu::to_string(ActivityEngine(e)));
        const tcu::EngineActivity& y = a.engines[size_t(e)];
        CHECK(y.gated == a.cycles);
        CHECK(y.busy == 0);
        CHECK(y.idle == 0);
        CHECK(y.macs == 0);
      }
    }
  }
}

TEST_CASE("activity: a back-pressured mix of every engine", "[rtl][activity]") {
  for (const auto& [name, config] : tcu::datapath_configs()) {
    if (tcu::datapath_is_own(name)) continue;
    INFO("configuration " << name);
    std::vector<tcu::Instr> variants;
    for (const char* ptx : kVariants) {
      const tcu::Instr instr = tcu::parse_ptx(ptx);
      if (!tcu::disabled_by(config, instr.family)) variants.push_back(instr);
    }
    std::mt19937_64 rng(41);
    std::vector<tcu::Instr> instrs;
    std::array<uint64_t, tcu::kActivityEngines> want_macs{};
    for (int i = 0; i < 60; ++i) {
      const tcu::Instr& instr = variants[rng() % variants.size()];
      instrs.push_back(instr);
      want_macs[size_t(engine_index(instr))] += shape_macs(instr);
    }
    Driver d(name);
    // A D leaves the router in beats of DWordsPerCycle; refused this often,
    // its write-back outlasts the next D's occupancy, the next D goes into
    // the skid register and the one after finds it full: the pipelines hold.
    d.run(instrs, 0.9, 50);
    check_partition(d);
    const tcu::Activity a = d.activity();
    uint64_t stalled = 0;
    for (int e = 0; e < tcu::kActivityEngines; ++e) {
      INFO("engine " << tcu::to_string(ActivityEngine(e)));
      CHECK(a.engines[size_t(e)].macs == want_macs[size_t(e)]);
      stalled += a.engines[size_t(e)].stalled;
    }
    // Every stalled cycle has an instruction in flight on one engine.
    CHECK(d.stall_cycles() > 0);
    CHECK(stalled == d.stall_cycles());
  }
}
