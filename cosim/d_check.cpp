#include "d_check.h"

#include "tcu/vectors.h"

namespace tcu {

std::string d_mismatch(const Instr& instr, const Fragment& expected, const Fragment& got) {
  if (got.regs_per_lane != expected.regs_per_lane)
    return "D has " + std::to_string(got.regs_per_lane) + " registers a lane, expected " +
           std::to_string(expected.regs_per_lane);
  if (got.regs == expected.regs) return {};
  const int bits = fragment_layout(instr, Operand::kD).reg_bits();
  for (int lane = 0; lane < kLanes; ++lane)
    for (int reg = 0; reg < got.regs_per_lane; ++reg)
      if (got.at(lane, reg) != expected.at(lane, reg))
        return "lane " + std::to_string(lane) + " d[" + std::to_string(reg) + "]: expected " +
               format_register(expected.at(lane, reg), bits) + ", got " +
               format_register(got.at(lane, reg), bits);
  return {};
}

}  // namespace tcu
