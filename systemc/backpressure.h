// Back-pressure on the core's write-back: wb_ready held low at random, with
// probability `probability` in each cycle a write-back beat is due, in a
// pattern seeded by `seed` (`tcu run --backpressure P --seed S`).
#pragma once

#include <cstdint>
#include <random>

namespace tcu {

class BackPressure {
 public:
  BackPressure(double probability, uint64_t seed) : probability_(probability), rng_(seed) {}
  bool active() const { return probability_ > 0; }
  // Whether a due beat is held in this cycle (one draw of the pattern).
  bool hold() { return std::uniform_real_distribution<double>(0, 1)(rng_) < probability_; }

 private:
  double probability_;
  std::mt19937_64 rng_;
};

}  // namespace tcu
