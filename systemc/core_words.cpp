#include "core_words.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace tcu {
namespace {

const Fragment* fragment_of(const WarpOperands& warp, Operand op) {
  switch (op) {
    case Operand::kA:
      return &warp.a;
    case Operand::kB:
      return &warp.b;
    case Operand::kC:
      return &warp.c;
    case Operand::kMeta:
      return &warp.e;
    case Operand::kScaleA:
      return &warp.scale_a;
    case Operand::kScaleB:
      return &warp.scale_b;
    default:
      return nullptr;
  }
}

bool wide_registers(const Instr& instr, Operand op) {
  return (op == Operand::kA || op == Operand::kB || op == Operand::kC) &&
         fragment_layout(instr, op).reg_bits() == 64;
}

uint32_t read_word(const Fragment* f, bool wide, const RegWord& word) {
  if (!f || f->regs.empty()) return 0;
  const int reg = wide ? word.reg / 2 : word.reg;
  if (reg >= f->regs_per_lane) return 0;
  const uint64_t v = f->at(word.lane, reg);
  return uint32_t(wide && word.reg % 2 ? v >> 32 : v);
}

}  // namespace

CoreDescriptor core_descriptor(const Instr& in, const Selectors& sel, uint32_t tag) {
  CoreDescriptor d;
  d.family = uint32_t(in.family);
  d.a_signed = in.a_type == ElemType::kS4;
  d.b_signed = in.b_type == ElemType::kS4;
  d.satfinite = in.satfinite;
  d.k32 = in.shape.k == 32;
  d.rounding = uint32_t(in.rounding);
  d.a_row = in.a_layout == MatrixLayout::kRow;
  d.b_row = in.b_layout == MatrixLayout::kRow;
  d.c_f16 = in.c_type == ElemType::kF16;
  d.d_f16 = in.d_type == ElemType::kF16;
  d.scale_4x = in.scale_vec == ScaleVec::k4X;
  d.sparsity = uint32_t(sel.sparsity);
  d.byte_id_a = uint32_t(sel.byte_id_a);
  d.thread_id_a = uint32_t(sel.thread_id_a);
  d.byte_id_b = uint32_t(sel.byte_id_b);
  d.thread_id_b = uint32_t(sel.thread_id_b);
  d.tag = tag & 0xffff;
  return d;
}

uint32_t read_word(const Instr& instr, const WarpOperands& warp, const RegWord& word) {
  return read_word(fragment_of(warp, word.operand), wide_registers(instr, word.operand), word);
}

OperandSources operand_sources(const Instr& instr, const WarpOperands& warp) {
  OperandSources sources;
  for (Operand op : {Operand::kA, Operand::kB, Operand::kC, Operand::kMeta, Operand::kScaleA,
                     Operand::kScaleB}) {
    sources.fragments[int(op)] = fragment_of(warp, op);
    sources.wide[int(op)] = wide_registers(instr, op);
  }
  return sources;
}

void read_beat(const OperandSources& sources, const std::vector<RegWord>& beat,
               std::vector<LaneWord>* out) {
  out->resize(beat.size());
  for (size_t i = 0; i < beat.size(); ++i) {
    const RegWord& w = beat[i];
    const int op = int(w.operand);
    (*out)[i] = {uint8_t(op), uint8_t(w.lane), uint8_t(w.reg),
                 read_word(sources.fragments[op], sources.wide[op], w)};
  }
}

namespace {

// Sets `width` bits at `lsb` of a packed port held as 32-bit words.
template <size_t N>
void put_field(std::array<uint32_t, N>* words, int lsb, int width, uint32_t value) {
  const uint64_t field = uint64_t(value & ((1u << width) - 1)) << (lsb % 32);
  (*words)[size_t(lsb / 32)] |= uint32_t(field);
  if (lsb % 32 + width > 32) (*words)[size_t(lsb / 32) + 1] |= uint32_t(field >> 32);
}

template <class Word>
PackedBeat pack(const Word* words, int count) {
  if (count < 0 || count > kMaxBeatWords)
    throw std::logic_error("a beat of " + std::to_string(count) + " words (at most " +
                           std::to_string(kMaxBeatWords) + ")");
  PackedBeat beat;
  beat.count = count;
  for (int s = 0; s < count; ++s) {
    put_field(&beat.valid, s, 1, 1);
    put_field(&beat.op, 3 * s, 3, uint32_t(words[s].operand));
    put_field(&beat.lane, 5 * s, 5, uint32_t(words[s].lane));
    put_field(&beat.reg, 3 * s, 3, uint32_t(words[s].reg));
  }
  return beat;
}

}  // namespace

PackedBeat pack_tags(const RegWord* words, int count) { return pack(words, count); }

PackedBeat pack_beat(const LaneWord* words, int count) {
  PackedBeat beat = pack(words, count);
  for (int s = 0; s < count; ++s) beat.data[size_t(s)] = words[s].data;
  return beat;
}

void read_beat_data(const OperandSources& sources, const std::vector<RegWord>& beat,
                    PackedBeat* out) {
  for (size_t i = 0; i < beat.size(); ++i) {
    const RegWord& w = beat[i];
    const int op = int(w.operand);
    out->data[i] = read_word(sources.fragments[op], sources.wide[op], w);
  }
}

PlacedSchedule place_schedule(const Instr& instr, const RegSchedule& schedule) {
  PlacedSchedule placed;
  for (const std::vector<RegWord>& beat : schedule) {
    std::vector<WordPlace>& words = placed.beats.emplace_back();
    for (const RegWord& w : beat) {
      const int op = int(w.operand);
      // Metadata and scales: one register a lane (WarpOperands).
      const bool matrix =
          w.operand == Operand::kA || w.operand == Operand::kB || w.operand == Operand::kC;
      const int rpl = matrix ? fragment_layout(instr, w.operand).regs_per_lane() : 1;
      const bool wide = wide_registers(instr, w.operand);
      const int reg = wide ? w.reg / 2 : w.reg;
      placed.regs_per_lane[op] = rpl;
      if (reg >= rpl || w.lane < 0 || w.lane >= kLanes) {
        words.push_back({uint8_t(kZeroSource), 0, 0});
        continue;
      }
      words.push_back(
          {uint8_t(op), uint8_t(wide && w.reg % 2 ? 32 : 0), uint16_t(w.lane * rpl + reg)});
    }
  }
  return placed;
}

bool fits(const PlacedSchedule& placed, const OperandSources& sources) {
  for (int op = 0; op < 8; ++op) {
    const int rpl = placed.regs_per_lane[op];
    if (rpl == 0) continue;
    const Fragment* f = sources.fragments[op];
    if (!f || f->regs_per_lane != rpl || f->regs.size() != size_t(kLanes * rpl)) return false;
  }
  return true;
}

PlacedSources placed_sources(const OperandSources& sources) {
  static const uint64_t kZero = 0;
  PlacedSources placed;
  for (int op = 0; op < 8; ++op)
    placed.regs[op] = sources.fragments[op] ? sources.fragments[op]->regs.data() : &kZero;
  placed.regs[kZeroSource] = &kZero;
  return placed;
}

std::vector<std::vector<LaneWord>> collect_beats(const Instr& instr, const WarpOperands& warp,
                                                 const FrontEndConfig& front_end) {
  const OperandSources sources = operand_sources(instr, warp);
  const RegSchedule schedule = collect_schedule(instr, front_end);
  std::vector<std::vector<LaneWord>> beats(schedule.size());
  for (size_t c = 0; c < schedule.size(); ++c) read_beat(sources, schedule[c], &beats[c]);
  return beats;
}

bool write_word(Fragment* d, int reg_bits, int lane, int reg, uint32_t data) {
  const int r = reg_bits == 64 ? reg / 2 : reg;
  if (lane < 0 || lane >= kLanes || r < 0 || r >= d->regs_per_lane) return false;
  uint64_t& v = d->at(lane, r);
  if (reg_bits == 64)
    v = reg % 2 ? (v & 0xffffffffull) | (uint64_t(data) << 32) : (v & ~0xffffffffull) | data;
  else
    v = data;
  return true;
}

}  // namespace tcu
