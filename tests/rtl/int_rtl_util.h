// Shared pieces of the integer and e2m1 RTL unit tests: bit access to
// Verilator's port types, and a cycle model of a unit's pipeline (valid and
// enable) to check that a result leaves a unit exactly Stages cycles after it
// entered, counting only cycles with en_i high.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <random>

#include "verilated.h"

namespace tcu_int_test {

// ---- bits of a port ------------------------------------------------------------
template <std::size_t N>
void set_bits(VlWide<N>& port, int lsb, int width, uint64_t value) {
  for (int i = 0; i < width; ++i) {
    const int bit = lsb + i;
    const uint32_t mask = uint32_t{1} << (bit % 32);
    if ((value >> i) & 1)
      port[bit / 32] |= mask;
    else
      port[bit / 32] &= ~mask;
  }
}
template <std::size_t N>
uint64_t get_bits(const VlWide<N>& port, int lsb, int width) {
  uint64_t value = 0;
  for (int i = 0; i < width; ++i) {
    const int bit = lsb + i;
    value |= uint64_t((port[bit / 32] >> (bit % 32)) & 1) << i;
  }
  return value;
}
inline int64_t sign_extend(uint64_t value, int width) {
  const uint64_t sign = uint64_t{1} << (width - 1);
  value &= (sign << 1) - 1;
  return static_cast<int64_t>(value ^ sign) - static_cast<int64_t>(sign);
}

// ---- clocking ----------------------------------------------------------------------
// Holds reset for two cycles with en_i and valid_i low.
template <class Model>
void reset(Model& m) {
  m.clk_i = 0;
  m.rst_ni = 0;
  m.en_i = 0;
  m.valid_i = 0;
  m.eval();
  for (int i = 0; i < 2; ++i) {
    m.clk_i = 1;
    m.eval();
    m.clk_i = 0;
    m.eval();
  }
  m.rst_ni = 1;
  m.eval();
}

// A pipeline of `stages` registers with an enable: what a unit's valid_o and
// result should be. Stages = 0 is combinational.
template <class T>
class PipeModel {
 public:
  explicit PipeModel(int stages) : regs_(stages) {}
  // The expected output in the current cycle, given this cycle's input.
  const std::optional<T>& output(const std::optional<T>& input) const {
    return regs_.empty() ? input : regs_.back();
  }
  // The clock edge.
  void clock(bool en, const std::optional<T>& input) {
    if (!en || regs_.empty()) return;
    regs_.pop_back();
    regs_.push_front(input);
  }

 private:
  std::deque<std::optional<T>> regs_;
};

// Cycle-by-cycle driver: each cycle sets the inputs (set(valid, en) returns
// the expected result of the input it set, if valid), checks the outputs
// against the pipeline model (check(expected)), then clocks. en_i is high
// with probability en_rate and valid_i with valid_rate.
template <class Model, class T, class Set, class Check>
void run_pipeline(Model& m, int stages, int cycles, std::mt19937_64& rng, double valid_rate,
                  double en_rate, Set set, Check check) {
  PipeModel<T> pipe(stages);
  std::bernoulli_distribution valid_dist(valid_rate), en_dist(en_rate);
  for (int cycle = 0; cycle < cycles; ++cycle) {
    const bool valid = valid_dist(rng);
    const bool en = en_dist(rng);
    m.valid_i = valid;
    m.en_i = en;
    const std::optional<T> input = set(valid);
    m.clk_i = 0;
    m.eval();
    check(pipe.output(input), cycle);
    m.clk_i = 1;
    m.eval();
    pipe.clock(en, input);
  }
}

}  // namespace tcu_int_test
