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

// Instr's fields as same_variant compares them: a new field changes the
// size (most likely) and is to be compared there too.
static_assert(sizeof(Instr) == 64, "same_variant compares every field of Instr");

bool same_variant(const Instr& a, const Instr& b) {
  return a.family == b.family && a.shape == b.shape && a.a_layout == b.a_layout &&
         a.b_layout == b.b_layout && a.a_type == b.a_type && a.b_type == b.b_type &&
         a.c_type == b.c_type && a.d_type == b.d_type && a.satfinite == b.satfinite &&
         a.rounding == b.rounding && a.explicit_rounding == b.explicit_rounding &&
         a.ordered_metadata == b.ordered_metadata && a.scale_vec == b.scale_vec &&
         a.explicit_scale_vec == b.explicit_scale_vec && a.mxf4nvf4 == b.mxf4nvf4 &&
         a.scale_type == b.scale_type;
}

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

OperandSources with_fragments(const OperandSources& widths, const WarpOperands& warp) {
  OperandSources sources = widths;
  for (Operand op : {Operand::kA, Operand::kB, Operand::kC, Operand::kMeta, Operand::kScaleA,
                     Operand::kScaleB})
    sources.fragments[int(op)] = fragment_of(warp, op);
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

void add_half(std::vector<HalfRun>* runs, int to, int op, int half, bool zero) {
  if (!runs->empty()) {
    HalfRun& last = runs->back();
    if (last.to + last.count == to && last.op == op && last.zero == zero) {
      // A run of one word takes the step to its second.
      const int step = last.count == 1 ? half - last.half : last.stride;
      if (zero || (step != 0 && step >= INT16_MIN && step <= INT16_MAX &&
                   half == last.half + last.count * step)) {
        last.stride = int16_t(zero ? 0 : step);
        ++last.count;
        return;
      }
    }
  }
  runs->push_back({uint16_t(to), uint16_t(zero ? 0 : half), 1, 1, 0, uint8_t(op), zero});
}

std::vector<HalfRun> cover_halves(const std::vector<int>& half_of) {
  // From each word not yet covered, in order, the longest progression of
  // uncovered words (to + k * dt, half + k * dh) among the steps to the next
  // few uncovered words.
  std::vector<int> left = half_of;
  std::vector<HalfRun> runs;
  const int n = int(left.size());
  auto length = [&](int to, int dt, int dh) {
    int k = 1;
    while (to + k * dt < n && left[size_t(to + k * dt)] >= 0 &&
           left[size_t(to + k * dt)] == left[size_t(to)] + k * dh && k < 0xffff)
      ++k;
    return k;
  };
  for (int to = 0; to < n; ++to) {
    if (left[size_t(to)] < 0) continue;
    HalfRun best{uint16_t(to), uint16_t(left[size_t(to)]), 1, 1, 0, 0, false};
    for (int next = to + 1, tried = 0; next < n && tried < 64; ++next) {
      if (left[size_t(next)] < 0) continue;
      ++tried;
      const int dt = next - to, dh = left[size_t(next)] - left[size_t(to)];
      if (dh == 0 || dh < INT16_MIN || dh > INT16_MAX || dt > INT16_MAX) continue;
      const int k = length(to, dt, dh);
      if (k > best.count) {
        best.count = uint16_t(k);
        best.to_stride = int16_t(dt);
        best.stride = int16_t(dh);
      }
    }
    for (int k = 0; k < best.count; ++k) left[size_t(to + k * best.to_stride)] = -1;
    runs.push_back(best);
  }
  return runs;
}

PlacedSchedule place_schedule(const Instr& instr, const RegSchedule& schedule) {
  PlacedSchedule placed;
  for (const std::vector<RegWord>& beat : schedule) {
    std::vector<HalfRun>& runs = placed.beats.emplace_back();
    for (size_t i = 0; i < beat.size(); ++i) {
      const RegWord& w = beat[i];
      const int op = int(w.operand);
      // Metadata and scales: one register a lane (WarpOperands).
      const bool matrix =
          w.operand == Operand::kA || w.operand == Operand::kB || w.operand == Operand::kC;
      const int rpl = matrix ? fragment_layout(instr, w.operand).regs_per_lane() : 1;
      const bool wide = wide_registers(instr, w.operand);
      const int reg = wide ? w.reg / 2 : w.reg;
      placed.regs_per_lane[op] = rpl;
      if (reg >= rpl || w.lane < 0 || w.lane >= kLanes) {
        add_half(&runs, int(i), op, 0, true);
        continue;
      }
      // A 32-bit register's value is its low word; a 64-bit one's words in order.
      add_half(&runs, int(i), op, 2 * (w.lane * rpl + reg) + (wide && w.reg % 2 ? 1 : 0));
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
  PlacedSources placed;
  for (int op = 0; op < 8; ++op)
    placed.regs[op] = sources.fragments[op] ? sources.fragments[op]->regs.data() : nullptr;
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
