#include "tcu/golden_bench.h"

#include <chrono>
#include <vector>

#include "tcu/generator.h"
#include "tcu/golden.h"

namespace tcu {
namespace {
// Keeps the calls from being optimised away.
volatile uint64_t checksum_sink;
}  // namespace

double golden_rate(const Instr& instr, double seconds, uint64_t seed) {
  constexpr int kPoolSize = 256;
  std::vector<WarpOperands> pool;
  pool.reserve(kPoolSize);
  for (int i = 0; i < kPoolSize; ++i) pool.push_back(generate_operands(instr, seed, i));

  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  uint64_t calls = 0;
  uint64_t checksum = 0;
  double elapsed = 0;
  do {
    for (const WarpOperands& operands : pool) checksum += golden_execute(instr, operands).regs[0];
    calls += pool.size();
    elapsed = std::chrono::duration<double>(Clock::now() - start).count();
  } while (elapsed < seconds);
  checksum_sink = checksum;
  return double(calls) / elapsed;
}

}  // namespace tcu
