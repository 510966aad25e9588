#include "datapath_model.h"

#include <stdexcept>

namespace tcu {

const DatapathConfig& datapath_config(const std::string& config) {
  for (const auto& [name, datapath] : datapath_configs())
    if (name == config) return datapath;
  throw std::invalid_argument("unknown datapath configuration '" + config + "'");
}

CoreInstr core_instr(const Instr& instr, const WarpOperands& warp, uint32_t tag, int per_cycle) {
  FrontEndConfig front_end;
  front_end.rf_regs_per_cycle = per_cycle;
  CoreInstr prepared{core_descriptor(instr, warp.selectors, tag), {}};
  for (const std::vector<LaneWord>& beat : collect_beats(instr, warp, front_end))
    prepared.beats.push_back(pack_beat(beat.data(), int(beat.size())));
  return prepared;
}

int CoreFeeder::sample() {
  if (!offered_) return 0;
  // A start waits for in_start_ready; the beats after it are always taken.
  if (beat_ == 0 && !model_.in_start_ready()) return 0;
  const bool last = ++beat_ == queue_.front()->beats.size();
  if (last) {
    queue_.pop_front();
    beat_ = 0;
  }
  return last ? 2 : 1;
}

void CoreFeeder::drive() {
  offered_ = !queue_.empty();
  model_.set_start(offered_ && beat_ == 0);
  if (!offered_) {
    model_.set_beat(nullptr, false);
    return;
  }
  const CoreInstr& instr = *queue_.front();
  if (beat_ == 0) model_.set_descriptor(instr.descriptor);
  model_.set_beat(&instr.beats[beat_], beat_ + 1 == instr.beats.size());
}

}  // namespace tcu
