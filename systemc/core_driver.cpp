#include "core_driver.h"

namespace tcu {

CoreInstr core_instr(const Instr& instr, const WarpOperands& warp, uint32_t tag, int per_cycle) {
  FrontEndConfig front_end;
  front_end.rf_regs_per_cycle = per_cycle;
  CoreInstr prepared{core_descriptor(instr, warp.selectors, tag), {}};
  for (const std::vector<LaneWord>& beat : collect_beats(instr, warp, front_end))
    prepared.beats.push_back(pack_beat(beat.data(), int(beat.size())));
  return prepared;
}

}  // namespace tcu
