// Injects the requested fault (fault.h) into the first instruction that can
// show it, once: the front-end calls the hook of each place a fault can go
// (FrontEndFaults, systemc/frontend_hooks.h).
#pragma once

#include <vector>

#include "datapath_model.h"
#include "fault.h"
#include "frontend_hooks.h"
#include "tcu/register_file.h"

namespace tcu {

class FaultInjector : public FrontEndFaults {
 public:
  explicit FaultInjector(Fault fault) : fault_(fault) {}
  Fault fault() const { return fault_; }
  // Whether the fault found an instruction to go into.
  bool injected() const { return done_; }

  // An instruction starts collection: whether its metadata words are to be
  // corrupted (Fault::kMeta, the first sparse instruction).
  bool take_meta(const Instr& instr) override {
    if (!due(Fault::kMeta) || !instr.sparse()) return false;
    done_ = true;  // after validation: the router takes what the registers hold
    return true;
  }
  // Corrupts the metadata words of a beat read for such an instruction.
  void corrupt_meta(const std::vector<RegWord>& beat, PackedBeat* words) override {
    for (size_t i = 0; i < beat.size(); ++i)
      if (beat[i].operand == Operand::kMeta) words->data[i] ^= 0xf;
  }
  // A write-back beat's `n` words as the lanes receive them
  // (Fault::kDBit, Fault::kLaneSwap).
  void on_write_back(WbWord* words, int n) override;
  bool alters_write_back() const override { return due(Fault::kDBit) || due(Fault::kLaneSwap); }
  // A write-back beat is due: whether it is held a cycle that no
  // back-pressure explains (Fault::kLate).
  bool hold_beat() override {
    if (!due(Fault::kLate)) return false;
    done_ = true;
    return true;
  }

 private:
  bool due(Fault kind) const { return fault_ == kind && !done_; }
  Fault fault_;
  bool done_ = false;
};

}  // namespace tcu
