// The core's lane-order ports as C++ (rtl/tcu_core.sv, docs/architecture.md
// "Operand routing network"): an instruction's descriptor on the in_* ports,
// the register words the front-end reads from the lanes cycle by cycle, and
// the destination words the core writes back. Plain C++: shared by the
// SystemC front-end, `tcu bench` and the RTL tests.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <vector>

#include "tcu/golden.h"
#include "tcu/register_file.h"

namespace tcu {

// Whether two instructions are the same variant (every field equal): the
// front-end reuses what it works out per variant while they are.
bool same_variant(const Instr& a, const Instr& b);

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
// `widths` (an operand_sources of the instruction's) with the fragments of
// `warp`.
OperandSources with_fragments(const OperandSources& widths, const WarpOperands& warp);
// One cycle of a collection schedule with its data: `out` is overwritten.
void read_beat(const OperandSources& sources, const std::vector<RegWord>& beat,
               std::vector<LaneWord>* out);
// The same beat's data into `out`, whose tags pack_tags(beat) filled.
void read_beat_data(const OperandSources& sources, const std::vector<RegWord>& beat,
                    PackedBeat* out);
// 32-bit words read from an operand's registers in steps: `count` words
// into out[to], out[to + to_stride], ..., the first 32-bit word `half` of
// the registers (two words a 64-bit register, its low half first; a 32-bit
// register's value is its low word), each next one `stride` words on; or
// `count` zeros.
struct HalfRun {
  uint16_t to = 0, half = 0, count = 0;
  int16_t to_stride = 1, stride = 0;
  uint8_t op = 0;
  bool zero = false;
};
// Appends word `to`, read from `half` of operand `op` (or a zero), to
// `runs`, extending the last run where it continues it (to_stride 1).
void add_half(std::vector<HalfRun>* runs, int to, int op, int half, bool zero = false);
// Runs that read word half_of[w] into word w wherever half_of[w] >= 0, few
// and long (a greedy cover by steps).
std::vector<HalfRun> cover_halves(const std::vector<int>& half_of);
inline void copy_halves(const uint64_t* regs, const HalfRun& r, uint32_t* out) {
  static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
                "a 64-bit register's low 32-bit word comes first in memory");
  uint32_t* to = out + r.to;
  const ptrdiff_t ts = r.to_stride;
  if (r.zero) {
    for (int i = 0; i < r.count; ++i) to[i * ts] = 0;
  } else if (ts == 1 && (r.stride == 1 || r.count == 1)) {
    std::memcpy(to, reinterpret_cast<const char*>(regs) + 4 * size_t(r.half), 4 * size_t(r.count));
  } else if (r.stride % 2 == 0 && r.half % 2 == 0) {  // low words, registers apart
    const uint64_t* from = regs + r.half / 2;
    const ptrdiff_t step = r.stride / 2;
    for (int i = 0; i < r.count; ++i) to[i * ts] = uint32_t(from[i * step]);
  } else {
    for (int i = 0; i < r.count; ++i) {
      const ptrdiff_t h = r.half + ptrdiff_t(i) * r.stride;
      to[i * ts] = uint32_t(regs[h / 2] >> (32 * (h % 2)));
    }
  }
}

// Whether got[to], got[to + to_stride], ... hold what copy_halves writes there.
inline bool equal_halves(const uint64_t* regs, const HalfRun& r, const uint32_t* got) {
  const uint32_t* at = got + r.to;
  const ptrdiff_t ts = r.to_stride;
  uint32_t diff = 0;
  if (r.zero) {
    for (int i = 0; i < r.count; ++i) diff |= at[i * ts];
  } else if (ts == 1 && (r.stride == 1 || r.count == 1)) {
    return std::memcmp(at, reinterpret_cast<const char*>(regs) + 4 * size_t(r.half),
                       4 * size_t(r.count)) == 0;
  } else if (r.stride % 2 == 0 && r.half % 2 == 0) {
    const uint64_t* from = regs + r.half / 2;
    const ptrdiff_t step = r.stride / 2;
    for (int i = 0; i < r.count; ++i) diff |= at[i * ts] ^ uint32_t(from[i * step]);
  } else {
    for (int i = 0; i < r.count; ++i) {
      const ptrdiff_t h = r.half + ptrdiff_t(i) * r.stride;
      diff |= at[i * ts] ^ uint32_t(regs[h / 2] >> (32 * (h % 2)));
    }
  }
  return diff == 0;
}

// A schedule's words as runs of words read from the operands' register
// arrays, worked out once per schedule, for fragments of regs_per_lane[op]
// registers a lane (the layouts'; fits() says whether a warp's are); a
// word outside its fragment reads as zero.
struct PlacedSchedule {
  std::vector<std::vector<HalfRun>> beats;
  int regs_per_lane[8] = {};  // by tcu::Operand code; 0: not read
};
PlacedSchedule place_schedule(const Instr& instr, const RegSchedule& schedule);
// Whether each operand the schedule reads has the registers a lane it
// assumes, every lane's: then read_placed_beat reads what read_beat_data does.
bool fits(const PlacedSchedule& placed, const OperandSources& sources);
// The registers of each operand, by code.
struct PlacedSources {
  const uint64_t* regs[8] = {};
};
PlacedSources placed_sources(const OperandSources& sources);
// A beat's data into `out` (tags as pack_tags filled them), by its runs.
inline void read_placed_beat(const PlacedSources& sources, const std::vector<HalfRun>& runs,
                             PackedBeat* out) {
  for (const HalfRun& r : runs) copy_halves(sources.regs[r.op], r, out->data.data());
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
