// The case generator's random numbers: xoshiro256** (Blackman and Vigna,
// "Scrambled linear pseudorandom number generators", 2021), its four state
// words seeded by splitmix64 (Steele, Lea and Flood, 2014) from one 64-bit
// seed, as the authors recommend. Seeding costs four splitmix64 steps, a
// number one xoshiro256** step: a case seeds a generator of its own.
#pragma once

#include <cstdint>

namespace tcu {

// splitmix64: adds the golden-ratio increment to the state and returns the
// state's finalized mix.
inline uint64_t splitmix64(uint64_t& state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

class Xoshiro256ss {
 public:
  using result_type = uint64_t;
  // The state from four splitmix64 numbers of `seed` (never all zero:
  // splitmix64's numbers are a bijection of distinct states).
  explicit Xoshiro256ss(uint64_t seed) {
    for (auto& word : s_) word = splitmix64(seed);
  }
  // The state as given (the reference outputs' statement); not all zero.
  Xoshiro256ss(uint64_t s0, uint64_t s1, uint64_t s2, uint64_t s3) : s_{s0, s1, s2, s3} {}

  uint64_t operator()() {
    const uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }

 private:
  static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t s_[4];
};

}  // namespace tcu
