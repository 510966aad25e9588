// A smoke test of rtl/tcu_datapath.sv at a small setting (one dot unit per
// engine, so the int4 halves meet through the carry register; IntStages = 0,
// E2m1Stages = 1, FmaStages = 1) and, built a second time with
// TCU_SMOKE_UNEVEN, at unit counts that are not powers of two (6 int4, 3
// e2m1, 5 f64 units: partial last groups) with the f16 engine left out
// (F16Enable = 0), in plain C++ without the SystemC front-end:
// every variant alone (D against golden_mma, bits above D zero, latency =
// datapath_latency), each variant back to back (accepts exactly
// datapath_occupancy apart), and random mixes across engines (the drain
// rule) with random out_ready back-pressure; directed back-pressure, with
// exact accept and delivery cycles: a refused D waiting in the output skid
// register while the pipelines go on, and the skid full with the pipelines
// holding; the activity counters of each
// run (MACs from the shapes, every cycle busy, idle or gated, an engine left
// out always gated). The full datapath is tested
// through the SystemC build (tests/, one Verilated build per configuration).
//
// The model is Verilated with --assert (the datapath's protocol assertions)
// and --x-assign unique --x-initial unique: every X and every register
// without a reset starts from a random value drawn from a seed, TCU_X_SEED
// when set, else a fresh one printed at the start, so a failure re-runs.
#include <array>
#include <cstdint>
#include <cstdlib>
#include <deque>
#include <functional>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#ifdef TCU_SMOKE_UNEVEN
#include "Vtcu_datapath_smoke_uneven.h"
using SmokeModel = Vtcu_datapath_smoke_uneven;
#else
#include "Vtcu_datapath_smoke.h"
using SmokeModel = Vtcu_datapath_smoke;
#endif
#include "datapath_ports.h"
#include "int_rtl_util.h"
#include "tcu/generator.h"
#include "tcu/golden.h"
#include "tcu/timing.h"

namespace {

using tcu_int_test::get_bits;
using tcu_int_test::set_bits;

// The parameters int_units.cmake Verilates the model with.
tcu::DatapathConfig smoke_config() {
  tcu::DatapathConfig c;
#ifdef TCU_SMOKE_UNEVEN
  c.int4_macs_per_cycle = 6 * 32;
  c.e2m1_macs_per_cycle = 3 * 64;
  c.f16_fmas_per_cycle = 4;
  c.f64_fmas_per_cycle = 5 * 4;
  c.int_stages = 1;
  c.e2m1_stages = 0;
  c.fma_stages = 1;
  c.f16_enable = false;
#else
  c.int4_macs_per_cycle = 32;
  c.e2m1_macs_per_cycle = 64;
  c.f16_fmas_per_cycle = 4;
  c.f64_fmas_per_cycle = 4;
  c.int_stages = 0;
  c.e2m1_stages = 1;
  c.fma_stages = 1;
#endif
  return c;
}

// The variants the model's engines run.
std::vector<tcu::Instr> smoke_variants() {
  std::vector<tcu::Instr> variants;
  for (const tcu::Instr& instr : tcu::all_variants())
    if (!tcu::disabled_by(smoke_config(), instr.family)) variants.push_back(instr);
  return variants;
}

// The datapath's engine of a family, in the counters' order (int4, e2m1,
// f16, f64), and the products an instruction issues, from its shape.
int counter_engine(tcu::Family family) {
  switch (family) {
    case tcu::Family::kInt4Dense:
    case tcu::Family::kInt4Sparse:
      return 0;
    case tcu::Family::kE2m1:
      return 1;
    case tcu::Family::kF16:
      return 2;
    case tcu::Family::kF64:
      return 3;
  }
  return 0;
}
uint64_t shape_macs(const tcu::Instr& instr) {
  const int k = instr.sparse() ? instr.shape.k / 2 : instr.shape.k;
  return uint64_t(instr.batches()) * instr.shape.m * instr.shape.n * k;
}

struct Job {
  tcu::Instr instr;
  tcu::Operands ops;
  tcu::Matrix expect;
  uint16_t tag = 0;
  long accept = -1, deliver = -1;
};

Job make_job(const tcu::Instr& instr, uint64_t index, uint16_t tag) {
  for (uint64_t k = 0;; ++k) {
    const tcu::WarpOperands warp = tcu::generate_operands(instr, 77, index * 131 + k);
    try {
      Job job{instr, tcu::gather_operands(instr, warp), {}, tag};
      job.expect = tcu::golden_mma(instr, job.ops);
      return job;
    } catch (const tcu::OperandError&) {
      // invalid sparse metadata: draw again
    }
  }
}

// A context whose X values are random, from one seed per process.
struct RandomXContext : VerilatedContext {
  RandomXContext() {
    static const int seed = [] {
      const char* text = std::getenv("TCU_X_SEED");
      const int value = text ? std::atoi(text) : int(std::random_device{}() & 0x7fffffff);
      std::cout << "X values randomised with TCU_X_SEED=" << value << "\n";
      return value;
    }();
    randReset(2);
    randSeed(seed);
  }
};

class Bench {
 public:
  Bench() {
    // Reset is a falling edge of rst_ni, as in silicon: every flop with an
    // asynchronous reset takes it at once, whatever its (random) start
    // value and whether or not its gated clock runs.
    m_.clk_i = 0;
    m_.rst_ni = 1;
    m_.in_valid_i = 0;
    m_.out_ready_i = 1;
    m_.eval();
    m_.rst_ni = 0;
    m_.eval();
    for (int i = 0; i < 3; ++i) {
      m_.clk_i = 1;
      m_.eval();
      m_.clk_i = 0;
      m_.eval();
    }
    m_.rst_ni = 1;
    m_.eval();
  }

  // Presents the jobs in order, each as soon as the previous is accepted,
  // out_ready_i high with probability ready_rate; checks every D and tag,
  // and the latency when there is no back-pressure. Returns the accept cycles.
  std::vector<long> run(std::vector<Job>& jobs, double ready_rate) {
    std::bernoulli_distribution ready(ready_rate);
    const auto draw = [&](long) { return ready(rng_); };
    return run(jobs, draw, ready_rate >= 1.0);
  }

  // The same with out_ready_i from ready(cycles since the first job was
  // presented); each job's accept and delivery cycle is kept (in those
  // cycles).
  std::vector<long> run(std::vector<Job>& jobs, const std::function<bool(long)>& ready,
                        bool check_latency) {
    std::deque<Job*> in_flight;
    std::vector<long> accepts;
    size_t next = 0, done = 0;
    const long start = cycle_;
    while (done < jobs.size()) {
      const bool present = next < jobs.size();
      if (present) drive(jobs[next]);
      m_.in_valid_i = present;
      m_.out_ready_i = ready(cycle_ - start);
      m_.clk_i = 0;
      m_.eval();
      if (present && m_.in_ready_o) {
        jobs[next].accept = cycle_ - start;
        accepts.push_back(cycle_ - start);
        in_flight.push_back(&jobs[next++]);
      }
      if (m_.out_valid_o && m_.out_ready_i) {
        REQUIRE(!in_flight.empty());
        Job& job = *in_flight.front();
        in_flight.pop_front();
        job.deliver = cycle_ - start;
        check(job, check_latency);
        ++done;
      }
      m_.clk_i = 1;
      m_.eval();
      ++cycle_;
      REQUIRE(cycle_ - start < 100000);
    }
    for (const Job& job : jobs)
      macs_[size_t(counter_engine(job.instr.family))] += shape_macs(job.instr);
    check_activity();
    return accepts;
  }

  // The counters since reset: every cycle one of busy, idle, gated per
  // engine; MACs as the jobs' shapes say; an engine left out always gated.
  void check_activity() {
    REQUIRE(uint64_t(m_.act_cycles_o) == uint64_t(cycle_));
    const uint64_t busy[4] = {m_.act_int4_busy_o, m_.act_e2m1_busy_o, m_.act_f16_busy_o,
                              m_.act_f64_busy_o};
    const uint64_t idle[4] = {m_.act_int4_idle_o, m_.act_e2m1_idle_o, m_.act_f16_idle_o,
                              m_.act_f64_idle_o};
    const uint64_t gated[4] = {m_.act_int4_gated_o, m_.act_e2m1_gated_o, m_.act_f16_gated_o,
                               m_.act_f64_gated_o};
    const uint64_t macs[4] = {m_.act_int4_macs_o, m_.act_e2m1_macs_o, m_.act_f16_macs_o,
                              m_.act_f64_macs_o};
    const tcu::Family family_of[4] = {tcu::Family::kInt4Dense, tcu::Family::kE2m1,
                                      tcu::Family::kF16, tcu::Family::kF64};
    for (int e = 0; e < 4; ++e) {
      INFO("engine " << e);
      CHECK(busy[e] + idle[e] + gated[e] == uint64_t(cycle_));
      CHECK(macs[e] == macs_[size_t(e)]);
      if (tcu::disabled_by(smoke_config(), family_of[e])) CHECK(gated[e] == uint64_t(cycle_));
    }
  }

 private:
  void drive(const Job& job) {
    const tcu::Instr& in = job.instr;
    m_.in_family_i = uint32_t(in.family);
    m_.in_a_signed_i = in.a_type == tcu::ElemType::kS4;
    m_.in_b_signed_i = in.b_type == tcu::ElemType::kS4;
    m_.in_satfinite_i = in.satfinite;
    m_.in_k32_i = in.shape.k == 32;
    m_.in_rnd_i = uint32_t(in.rounding);
    m_.in_c_f16_i = in.c_type == tcu::ElemType::kF16;
    m_.in_d_f16_i = in.d_type == tcu::ElemType::kF16;
    m_.in_scale_4x_i = in.scale_vec == tcu::ScaleVec::k4X;
    m_.in_tag_i = job.tag;
    // Junk first: bits no operand uses are don't-care.
    for (auto& w : m_.in_a_i.m_storage) w = uint32_t(rng_());
    for (auto& w : m_.in_b_i.m_storage) w = uint32_t(rng_());
    for (auto& w : m_.in_c_i.m_storage) w = uint32_t(rng_());
    for (auto& w : m_.in_meta_i.m_storage) w = uint32_t(rng_());
    for (auto& w : m_.in_scale_a_i.m_storage) w = uint32_t(rng_());
    for (auto& w : m_.in_scale_b_i.m_storage) w = uint32_t(rng_());
    // Each element at its place on the port (datapath_ports.h).
    auto pack = [&](auto& port, tcu::Operand operand, const tcu::Matrix& x, int width) {
      const std::vector<int> position = tcu::datapath_positions(in, operand, x);
      for (size_t e = 0; e < x.elems.size(); ++e)
        set_bits(port, position[e] * width, width, x.elems[e]);
    };
    pack(m_.in_a_i, tcu::Operand::kA, job.ops.a, tcu::elem_bits(in.a_type));
    pack(m_.in_b_i, tcu::Operand::kB, job.ops.b, tcu::elem_bits(in.b_type));
    pack(m_.in_c_i, tcu::Operand::kC, job.ops.c, tcu::elem_bits(in.c_type));
    if (in.sparse()) pack(m_.in_meta_i, tcu::Operand::kMeta, job.ops.meta, 4);
    if (in.block_scaled()) {
      pack(m_.in_scale_a_i, tcu::Operand::kScaleA, job.ops.scale_a, 8);
      pack(m_.in_scale_b_i, tcu::Operand::kScaleB, job.ops.scale_b, 8);
    }
  }

  void check(const Job& job, bool check_latency) {
    INFO(job.instr.ptx() << " tag " << job.tag);
    REQUIRE(m_.out_tag_o == job.tag);
    const int width = tcu::elem_bits(job.instr.d_type);
    for (size_t e = 0; e < job.expect.elems.size(); ++e) {
      INFO("D element " << e);
      REQUIRE(get_bits(m_.out_d_o, int(e) * width, width) == job.expect.elems[e]);
    }
    for (int bit = int(job.expect.elems.size()) * width; bit < 8192; bit += 32)
      REQUIRE(get_bits(m_.out_d_o, bit, 32) == 0);
    if (check_latency)
      REQUIRE(job.deliver - job.accept == tcu::datapath_latency(smoke_config(), job.instr));
  }

  RandomXContext context_;
  SmokeModel m_{&context_};
  long cycle_ = 0;
  std::array<uint64_t, 4> macs_{};
  std::mt19937_64 rng_{5};
};

}  // namespace

TEST_CASE("tcu_datapath smoke: every variant alone", "[rtl][datapath]") {
  Bench bench;
  const std::vector<tcu::Instr> variants = smoke_variants();
  for (size_t v = 0; v < variants.size(); ++v) {
    std::vector<Job> jobs{make_job(variants[v], v, uint16_t(v + 1))};
    bench.run(jobs, 1.0);
  }
}

TEST_CASE("tcu_datapath smoke: each variant back to back", "[rtl][datapath]") {
  Bench bench;
  const std::vector<tcu::Instr> variants = smoke_variants();
  for (size_t v = 0; v < variants.size(); ++v) {
    std::vector<Job> jobs;
    for (int i = 0; i < 3; ++i)
      jobs.push_back(make_job(variants[v], 1000 + 10 * v + i, uint16_t(100 + 10 * v + i)));
    const std::vector<long> accepts = bench.run(jobs, 1.0);
    INFO(variants[v].ptx());
    for (size_t i = 1; i < accepts.size(); ++i)
      REQUIRE(accepts[i] - accepts[i - 1] == tcu::datapath_occupancy(smoke_config(), variants[v]));
  }
}

TEST_CASE("tcu_datapath smoke: mixed engines with back-pressure", "[rtl][datapath]") {
  Bench bench;
  const std::vector<tcu::Instr> variants = smoke_variants();
  std::mt19937_64 rng(9);
  uint16_t tag = 1;
  for (double ready_rate : {1.0, 0.5}) {
    std::vector<Job> jobs;
    for (int i = 0; i < 40; ++i) {
      const size_t v = rng() % variants.size();
      jobs.push_back(make_job(variants[v], 5000 + i, tag++));
      if (rng() % 2) jobs.push_back(make_job(variants[v], 9000 + i, tag++));
    }
    INFO("out_ready rate " << ready_rate);
    bench.run(jobs, ready_rate);
  }
}

// Directed back-pressure on four instructions of one family back to back
// (occupancy occ, latency lat; the first accepted at cycle 0, its D at the
// output at lat): out_ready_i low from cycle lat for `low` cycles.
struct Refused {
  std::vector<Job> jobs;
  std::vector<long> accepts;
  long occ, lat;
};

Refused refuse_first_d(Bench& bench, const tcu::Instr& instr, long low_from_occ) {
  Refused r;
  r.occ = tcu::datapath_occupancy(smoke_config(), instr);
  r.lat = tcu::datapath_latency(smoke_config(), instr);
  const long low = r.occ + low_from_occ;
  for (int i = 0; i < 4; ++i) r.jobs.push_back(make_job(instr, 7000 + i, uint16_t(700 + i)));
  r.accepts = bench.run(
      r.jobs, [&](long cycle) { return cycle < r.lat || cycle >= r.lat + low; }, false);
  return r;
}

tcu::Instr f64_variant() {
  for (const tcu::Instr& instr : smoke_variants())
    if (instr.family == tcu::Family::kF64) return instr;
  FAIL("no f64 variant");
  return {};
}

TEST_CASE("tcu_datapath smoke: a refused D waits in the skid while the pipelines go on",
          "[rtl][datapath]") {
  Bench bench;
  // Refused for occ - 1 cycles: the first D sits in the skid register, the
  // skid is empty again before the second D arrives, so nothing holds.
  const Refused r = refuse_first_d(bench, f64_variant(), -1);
  REQUIRE(r.occ >= 2);
  for (int i = 0; i < 4; ++i) {
    INFO("instruction " << i);
    CHECK(r.accepts[size_t(i)] == i * r.occ);
    CHECK(r.jobs[size_t(i)].deliver ==
          (i == 0 ? r.lat + r.occ - 1 : r.jobs[size_t(i)].accept + r.lat));
  }
}

TEST_CASE("tcu_datapath smoke: with the skid full the pipelines hold", "[rtl][datapath]") {
  Bench bench;
  // Refused for occ + 2 cycles: the first D waits in the skid from lat to
  // lat + occ + 2; the second reaches the output at lat + occ and holds
  // there, with every pipeline and in_ready_o, through the cycle the skid
  // empties: 3 held cycles. The third, accepted before them, comes out 3
  // late; the fourth is accepted 3 late.
  const Refused r = refuse_first_d(bench, f64_variant(), 2);
  REQUIRE(r.lat > r.occ);
  REQUIRE(r.lat + 2 < 2 * r.occ);  // the holds end before the fourth accept
  const long held = 3;
  CHECK(r.accepts == std::vector<long>{0, r.occ, 2 * r.occ, 3 * r.occ + held});
  CHECK(r.jobs[0].deliver == r.lat + r.occ + 2);
  CHECK(r.jobs[1].deliver == r.lat + r.occ + 3);
  CHECK(r.jobs[2].deliver == r.jobs[2].accept + r.lat + held);
  CHECK(r.jobs[3].deliver == r.jobs[3].accept + r.lat);
}
