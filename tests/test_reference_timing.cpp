// The a100 configuration against the A100 figures it claims
// (tcu/reference_timing.h), and the same checks catching a preset one
// parameter off.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <string>
#include <vector>

#include "tcu/reference_timing.h"

namespace {

tcu::DatapathConfig spec_config(const std::string& name) {
  for (const auto& [config_name, config] : tcu::spec_configurations())
    if (config_name == name) return config;
  FAIL("no configuration '" << name << "' in spec/config.toml");
  return {};
}

// The test's own reading of a claim, apart from a100_calibration_misses:
// the families whose claimed latency is more than a cycle from either NAK
// figure, or whose claimed interval differs.
std::vector<std::string> families_off(const tcu::DatapathConfig& dp) {
  std::vector<std::string> off;
  for (const tcu::ModelTiming& row : tcu::a100_model_timing(dp)) {
    const tcu::TimingReference& ref = *row.reference;
    const bool latency_off =
        std::abs(row.latency - ref.alu_latency) > 1 || std::abs(row.latency - ref.mma_latency) > 1;
    if ((ref.latency_claimed && latency_off) ||
        (ref.interval_claimed && row.interval != ref.interval))
      off.push_back(ref.family);
  }
  return off;
}

}  // namespace

TEST_CASE("the a100 preset keeps every latency and interval it claims") {
  const tcu::DatapathConfig a100 = spec_config("a100");
  int latencies = 0, intervals = 0;
  for (const tcu::ModelTiming& row : tcu::a100_model_timing(a100)) {
    const tcu::TimingReference& ref = *row.reference;
    INFO(ref.family << ": latency " << row.latency << ", interval " << row.interval);
    if (ref.latency_claimed) {
      ++latencies;
      CHECK(std::abs(row.latency - ref.alu_latency) <= 1);
      CHECK(std::abs(row.latency - ref.mma_latency) <= 1);
    }
    if (ref.interval_claimed) {
      ++intervals;
      CHECK(row.interval == ref.interval);
    }
  }
  // What tcu timing states as claimed: three latencies (int4
  // m16n8k64, sparse, f64) and three intervals (int4 m16n8k64, m8n8k32, f64).
  CHECK(latencies == 3);
  CHECK(intervals == 3);
  CHECK(tcu::a100_calibration_misses(a100).empty());
}

TEST_CASE("the a100 check catches a preset one parameter off (planted faults)") {
  const tcu::DatapathConfig a100 = spec_config("a100");
  struct Planted {
    const char* what;
    tcu::DatapathConfig config;
    const char* family;
    const char* miss;
  };
  std::vector<Planted> planted;
  tcu::DatapathConfig config = a100;
  config.int_stages = 2;  // int4 m16n8k64 latency 20
  planted.push_back({"IntStages=2", config, "int4 m16n8k64", "int4 m16n8k64: latency 20"});
  config = a100;
  config.fma_stages = 1;  // f64 latency 29
  planted.push_back({"FmaStages=1", config, "f64 m8n8k4", "f64 m8n8k4: latency 29"});
  config = a100;
  config.f64_fmas_per_cycle = 32;  // f64 issues every 8
  planted.push_back({"F64FmasPerCycle=32", config, "f64 m8n8k4", "f64 m8n8k4: issue interval 8"});
  config = a100;
  config.words_per_cycle = 32;  // m8n8k32 collected in 4 cycles
  planted.push_back({"WordsPerCycle=32", config, "int4 m8n8k32", "int4 m8n8k32: issue interval 4"});
  for (const Planted& fault : planted) {
    INFO(fault.what);
    const std::vector<std::string> off = families_off(fault.config);
    CHECK(std::find(off.begin(), off.end(), std::string(fault.family)) != off.end());
    const std::vector<std::string> misses = tcu::a100_calibration_misses(fault.config);
    bool named = false;
    for (const std::string& miss : misses) named |= miss.rfind(fault.miss, 0) == 0;
    CHECK(named);
  }
  // The default configuration is not calibrated: f64 latency 31.
  CHECK_FALSE(tcu::a100_calibration_misses(spec_config("default")).empty());
}

TEST_CASE("the a100 preset's rates are the A100's published peaks per sub-partition") {
  const tcu::DatapathConfig a100 = spec_config("a100");
  const tcu::GpuReference& gpu = tcu::a100_gpu();
  CHECK(gpu.units() == 432);
  for (const tcu::PeakRate& rate : gpu.peaks) {
    INFO(rate.what);
    // Dense-equivalent MACs a cycle: the issued ones, twice for sparse.
    const double model = double(tcu::peak_issued_macs_per_cycle(a100, rate.family)) *
                         (rate.family == tcu::Family::kInt4Sparse ? 2 : 1);
    CHECK(gpu.macs_per_cycle_per_unit(rate) == Approx(model).epsilon(0.001));
    CHECK(gpu.tera_ops(model) == Approx(rate.tera_ops).epsilon(0.001));
  }
  // Planted: twice the int4 units is caught.
  tcu::DatapathConfig doubled = a100;
  doubled.int4_macs_per_cycle = 2048;
  const tcu::PeakRate* int4 = gpu.peak(tcu::Family::kInt4Dense);
  REQUIRE(int4);
  CHECK(gpu.macs_per_cycle_per_unit(*int4) !=
        Approx(double(tcu::peak_issued_macs_per_cycle(doubled, tcu::Family::kInt4Dense)))
            .epsilon(0.001));
}
