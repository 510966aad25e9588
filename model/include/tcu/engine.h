// An engine computes an instruction's destination registers from the lanes'
// source registers. `tcu replay --engine NAME` picks one.
#pragma once

#include <memory>
#include <string>

#include "tcu/golden.h"

namespace tcu {

class Engine {
 public:
  virtual ~Engine() = default;
  virtual std::string name() const = 0;
  // Throws OperandError for operands that break the instruction's rules.
  virtual Fragment execute(const Instr& instr, const WarpOperands& operands) = 0;
};

class GoldenEngine : public Engine {
 public:
  std::string name() const override { return "golden"; }
  Fragment execute(const Instr& instr, const WarpOperands& operands) override {
    return golden_execute(instr, operands);
  }
};

}  // namespace tcu
