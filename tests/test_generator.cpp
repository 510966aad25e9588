// tcu::Mt64 (the case generator's random numbers) against std::mt19937_64:
// the same numbers from the same seed, across rounds of the twist.
#include <catch2/catch.hpp>
#include <random>

#include "tcu/mt64.h"

TEST_CASE("Mt64 draws std::mt19937_64's numbers") {
  std::mt19937_64 seeds(2024);
  for (int s = 0; s < 200; ++s) {
    const uint64_t seed = s < 3 ? uint64_t(s) * 0x9e3779b97f4a7c15ull : seeds();
    std::mt19937_64 reference(seed);
    tcu::Mt64 lazy(seed);
    INFO("seed " << seed);
    for (int i = 0; i < 1000; ++i) {  // three rounds of 312 and part of a fourth
      INFO("number " << i);
      REQUIRE(lazy() == reference());
    }
  }
}

TEST_CASE("Mt64 from the default seed gives the standard's 10000th number") {
  // [rand.predef]: the 10000th consecutive invocation of a default-constructed
  // mt19937_64 (seed 5489) produces 9981545732273789042.
  tcu::Mt64 rng(5489u);
  uint64_t value = 0;
  for (int i = 0; i < 10000; ++i) value = rng();
  REQUIRE(value == 9981545732273789042ull);
}
