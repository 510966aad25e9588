// The 64-bit Mersenne Twister of std::mt19937_64, the same numbers from the
// same seed, with its seeding and twist done as the numbers are drawn: the
// i-th number of a round needs the state words i, i + 1 and i + 156 only,
// so a short draw (the generator's case of a few dozen numbers) seeds and
// twists a few hundred words fewer than std::mt19937_64, which seeds all 312
// words and twists all of them at the first draw.
#pragma once

#include <cstdint>

namespace tcu {

class Mt64 {
 public:
  using result_type = uint64_t;
  explicit Mt64(uint64_t seed) {
    x_[0] = seed;
    seeded_ = 1;
  }
  uint64_t operator()() {
    if (next_ == kN) {  // a new round: every word is seeded by now
      next_ = 0;
    }
    const int i = next_;
    // The in-place twist of word i: words i + 1 (this round's old value,
    // or word 0's new one for i = 311) and i + 156 (old below 156, new from
    // there: word i - 156 of this round). Indices wrap by comparison, not
    // by a division.
    const int next = i + 1 < kN ? i + 1 : 0;
    const int far = i < kN - kM ? i + kM : i - (kN - kM);
    if (seeded_ < kN) seed_to(i < kN - kM ? i + kM : (i + 1 < kN ? i + 1 : i));
    const uint64_t y = (x_[i] & kUpper) | (x_[next] & kLower);
    x_[i] = x_[far] ^ (y >> 1) ^ ((y & 1) ? kMatrix : 0);
    next_ = i + 1;
    uint64_t z = x_[i];
    z ^= (z >> 29) & 0x5555555555555555ull;
    z ^= (z << 17) & 0x71d67fffeda60000ull;
    z ^= (z << 37) & 0xfff7eee000000000ull;
    z ^= z >> 43;
    return z;
  }

 private:
  static constexpr int kN = 312, kM = 156;
  static constexpr uint64_t kMatrix = 0xb5026f5aa96619e9ull;
  static constexpr uint64_t kUpper = ~uint64_t(0) << 31, kLower = ~kUpper;

  // Seeds the words up to `last` (std::mt19937_64's seeding recurrence).
  void seed_to(int last) {
    for (; seeded_ <= last; ++seeded_)
      x_[seeded_] = 6364136223846793005ull * (x_[seeded_ - 1] ^ (x_[seeded_ - 1] >> 62)) +
                    uint64_t(seeded_);
  }

  uint64_t x_[kN];
  int seeded_ = 0;   // words 0 .. seeded_ - 1 hold their seeded (or later) values
  int next_ = kN;    // the word the next number comes from; kN: before the first round
};

}  // namespace tcu
