// The protocol rules of the two handshakes inside the core, each checked
// here and nowhere else, for any datapath behind the router (ours or one's
// own: docs/guide/co-verify.md, "Bring your own datapath"):
//   router -> datapath: the tag handed over is the next in issue order, and
//     the descriptor and operands taken equal pack_datapath_inputs (the
//     golden layout tables) of that instruction;
//   datapath -> router: the tag returned is the oldest in flight (issue
//     order); out_valid, out_tag and out_d hold while out_ready is low; D's
//     bits above the instruction's D are zero.
// The front-end calls the *_before methods with the outputs before a rising
// edge and the *_after methods once the edge has registered what crossed
// (the sim top's obs_hand_* and obs_out_d_o). Violations go to the checker.
#pragma once

#include <array>
#include <cstdint>

#include "datapath_model.h"
#include "frontend_hooks.h"

namespace tcu {

class HandshakeChecks {
 public:
  HandshakeChecks(DatapathModel* model, FrontEndChecker* cosim) : model_(*model), cosim_(*cosim) {}

  // The datapath accepts at this edge the instruction `tag`, the oldest
  // collected: checks the tag now and the operands after the edge.
  void handover_before(uint64_t tag, uint64_t cycle);
  // Whether the operands of handover_tag() are to be checked now.
  bool handover_pending() const { return handover_pending_; }
  uint64_t handover_tag() const { return handover_tag_; }
  // The instruction accepted (nullptr: no longer in the datapath, nothing
  // to check).
  void handover_after(const Instr* instr, const WarpOperands* operands, uint64_t cycle);

  // The datapath's output at this edge: `taken` (out_valid and out_ready
  // high) by the router, for the oldest instruction in the datapath
  // (`oldest`, nullptr if none).
  struct InDatapath {
    uint64_t tag;
    int d_words;  // its D's 32-bit words
  };
  void output_before(bool taken, const InDatapath* oldest, uint64_t cycle);
  void output_after(uint64_t cycle);
  bool output_pending() const { return output_.held || output_.taken_words || held_; }

 private:
  DatapathModel& model_;
  FrontEndChecker& cosim_;
  bool handover_pending_ = false;
  uint64_t handover_tag_ = 0;
  DatapathInputsPacker packer_;  // the expected ports
  DatapathInputs got_;
  // The datapath's output held at the last edge with out_ready low, to
  // check it holds.
  bool held_ = false;
  uint32_t held_tag_ = 0;
  uint64_t held_full_tag_ = 0;
  std::array<uint32_t, kDatapathDWords> held_d_{};
  // What the coming edge registers of out_d_o is to be checked for: held
  // (against held_d_) or taken.
  struct OutputCheck {
    bool held = false;
    uint64_t held_tag = 0;
    int taken_words = 0;  // nonzero: D taken, of this many words
    uint64_t taken_tag = 0;
  } output_;
};

}  // namespace tcu
