// The core's lane-order ports as C++ (rtl/tcu_core.sv, docs/architecture.md
// "Operand routing network"): an instruction's descriptor on the in_* ports,
// the register words the front-end reads from the lanes cycle by cycle, and
// the destination words the core writes back. Plain C++: shared by the
// SystemC front-end, `tcu bench` and the RTL tests.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "tcu/golden.h"
#include "tcu/register_file.h"

namespace tcu {

// The start of an instruction on tcu_core's in_* ports.
struct CoreDescriptor {
  uint32_t family = 0;
  bool a_signed = false, b_signed = false, satfinite = false, k32 = false;
  uint32_t rounding = 0;
  bool a_row = false, b_row = false;  // f16: A / B .row
  bool c_f16 = false, d_f16 = false, scale_4x = false;
  uint32_t sparsity = 0, byte_id_a = 0, thread_id_a = 0, byte_id_b = 0, thread_id_b = 0;
  uint32_t tag = 0;
};
CoreDescriptor core_descriptor(const Instr& instr, const Selectors& selectors, uint32_t tag);

// One 32-bit register word of a lane with its value, as the router's word
// slots take it: operand (tcu::Operand's code: in_word_op_i), lane, and word
// index within the lane's fragment (a 64-bit register r is words 2r, its
// low half, and 2r + 1).
struct LaneWord {
  uint8_t operand = 0, lane = 0, reg = 0;
  uint32_t data = 0;
};

// A beat as the router's word ports take it: slot s's valid bit at bit s of
// in_word_valid_i, its operand, lane and register at 3s, 5s and 3s of
// in_word_op_i, in_word_lane_i and in_word_reg_i (as 32-bit words), its
// data in data[s]. The tags follow from the schedule alone, so a front-end
// packs each schedule beat's once (pack_tags) and fills in only the data.
constexpr int kMaxBeatWords = 64;  // the router's WordsPerCycle at most
struct PackedBeat {
  int count = 0;
  std::array<uint32_t, kMaxBeatWords / 32> valid{};
  std::array<uint32_t, 3 * kMaxBeatWords / 32> op{}, reg{};
  std::array<uint32_t, 5 * kMaxBeatWords / 32> lane{};
  std::array<uint32_t, kMaxBeatWords> data{};
};
// The tags of `count` words (throws std::logic_error above kMaxBeatWords);
// data stays zero.
PackedBeat pack_tags(const RegWord* words, int count);
PackedBeat pack_beat(const LaneWord* words, int count);  // tags and data

// The word's value in the lanes' registers.
uint32_t read_word(const Instr& instr, const WarpOperands& warp, const RegWord& word);

// Each source operand's fragment and register width, resolved once per
// instruction rather than per word (`warp` must outlive it).
struct OperandSources {
  const Fragment* fragments[8] = {};  // by tcu::Operand code
  bool wide[8] = {};                  // 64-bit registers
};
OperandSources operand_sources(const Instr& instr, const WarpOperands& warp);
// One cycle of a collection schedule with its data: `out` is overwritten.
void read_beat(const OperandSources& sources, const std::vector<RegWord>& beat,
               std::vector<LaneWord>* out);
// The same beat's data into `out`, whose tags pack_tags(beat) filled.
void read_beat_data(const OperandSources& sources, const std::vector<RegWord>& beat,
                    PackedBeat* out);
// A schedule's words as places in the operands' register arrays, worked
// out once per schedule: word i of a beat is bits `shift` up of
// regs[index] of the fragment of operand `op` (kZeroSource: a word outside
// the fragment, read as zero), for fragments of regs_per_lane[op]
// registers a lane (the layouts'; fits() says whether a warp's are).
struct WordPlace {
  uint8_t op = 0, shift = 0;
  uint16_t index = 0;
};
constexpr int kZeroSource = 8;
struct PlacedSchedule {
  std::vector<std::vector<WordPlace>> beats;
  int regs_per_lane[8] = {};  // by tcu::Operand code; 0: not read
};
PlacedSchedule place_schedule(const Instr& instr, const RegSchedule& schedule);
// Whether each operand the schedule reads has the registers a lane it
// assumes, every lane's: then read_placed_beat reads what read_beat_data does.
bool fits(const PlacedSchedule& placed, const OperandSources& sources);
// The registers each operand's places index, by code (kZeroSource: a zero).
struct PlacedSources {
  const uint64_t* regs[kZeroSource + 1] = {};
};
PlacedSources placed_sources(const OperandSources& sources);
// A beat's data into `out` (tags as pack_tags filled them), by its places.
inline void read_placed_beat(const PlacedSources& sources, const std::vector<WordPlace>& words,
                             PackedBeat* out) {
  for (size_t i = 0; i < words.size(); ++i) {
    const WordPlace w = words[i];
    out->data[i] = uint32_t(sources.regs[w.op][w.index] >> w.shift);
  }
}

// The register file's collection schedule (register_file.h,
// collect_schedule: the one place that decides which words move in which
// cycle) with the data read from `warp`: a beat a cycle.
std::vector<std::vector<LaneWord>> collect_beats(const Instr& instr, const WarpOperands& warp,
                                                 const FrontEndConfig& front_end);

// A destination word written back: lane, word index (as LaneWord's) and value,
// into `d` (the instruction's D fragment). Returns false for a word outside
// the fragment.
bool write_word(Fragment* d, int reg_bits, int lane, int reg, uint32_t data);

}  // namespace tcu
