// tcu::Xoshiro256ss and tcu::splitmix64 (the case generator's random
// numbers) against the algorithms' published reference outputs: splitmix64
// from state 0, xoshiro256** from the state {1, 2, 3, 4} (the outputs of the
// authors' C implementation, prng.di.unimi.it), and xoshiro256** seeded
// through splitmix64 from 42 (the outputs of the Rust crate rand_xoshiro's
// seed_from_u64, which seeds the same way); the sparse metadata
// generate_operands draws.
#include <catch2/catch.hpp>
#include <cmath>
#include <map>
#include <vector>

#include "tcu/generator.h"
#include "tcu/layout.h"
#include "tcu/xoshiro.h"

TEST_CASE("splitmix64 from state 0 gives the published numbers") {
  uint64_t state = 0;
  const uint64_t expected[] = {0xe220a8397b1dcdafull, 0x6e789e6aa1b965f4ull,
                               0x06c45d188009454full, 0xf88bb8a8724c81ecull};
  for (uint64_t e : expected) REQUIRE(tcu::splitmix64(state) == e);
}

TEST_CASE("xoshiro256** from the state {1, 2, 3, 4} gives the reference outputs") {
  tcu::Xoshiro256ss rng(1, 2, 3, 4);
  const uint64_t expected[] = {11520ull,
                               0ull,
                               1509978240ull,
                               1215971899390074240ull,
                               1216172134540287360ull,
                               607988272756665600ull,
                               16172922978634559625ull,
                               8476171486693032832ull,
                               10595114339597558777ull,
                               2904607092377533576ull};
  for (uint64_t e : expected) REQUIRE(rng() == e);
}

TEST_CASE("xoshiro256** seeded through splitmix64 from 42") {
  tcu::Xoshiro256ss rng(42);
  REQUIRE(rng() == 1546998764402558742ull);
  REQUIRE(rng() == 6990951692964543102ull);
  REQUIRE(rng() == 12544586762248559009ull);
}

TEST_CASE("generate_operands draws sparse metadata pairs uniformly, ordered where asked") {
  for (const tcu::Instr& instr : tcu::all_variants()) {
    if (!instr.sparse()) continue;
    INFO(instr.ptx());
    std::map<uint64_t, int> count;  // a pair's code (first | second << 2): its elements
    int elements = 0;
    for (uint64_t index = 0; index < 400; ++index) {
      const tcu::WarpOperands warp = tcu::generate_operands(instr, 5, index);
      const tcu::FragmentLayout& layout =
          tcu::fragment_layout(instr, tcu::Operand::kMeta, warp.selectors);
      std::vector<uint64_t> pairs(size_t(layout.elem_count()));
      layout.gather_into(warp.e, pairs.data());
      for (uint64_t pair : pairs) ++count[pair];
      elements += layout.elem_count();
    }
    const size_t kinds = instr.ordered_metadata ? 6 : 12;
    REQUIRE(count.size() == kinds);
    for (const auto& [pair, n] : count) {
      INFO("pair " << pair << ": " << n << " of " << elements);
      CHECK((pair & 3) != (pair >> 2));
      if (instr.ordered_metadata) CHECK((pair & 3) < (pair >> 2));
      CHECK(std::abs(double(n) * double(kinds) / elements - 1.0) < 0.05);
    }
  }
}
