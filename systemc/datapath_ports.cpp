#include "datapath_ports.h"

#include <map>
#include <unordered_map>
#include <utility>

namespace tcu {
namespace {

// Element i of `elems` at bit position[i] * width (position: identity when
// null). Widths divide 32 or are 64, so no element straddles two words.
template <size_t Words>
void pack(const std::vector<uint64_t>& elems, int width, std::array<uint32_t, Words>* out,
          const std::vector<int>* position = nullptr) {
  out->fill(0);
  if (!position && width == 4) {  // int4 and e2m1 A: eight codes a word
    for (size_t i = 0; i < elems.size(); ++i)
      (*out)[i / 8] |= uint32_t(elems[i] & 0xf) << (4 * (i % 8));
    return;
  }
  if (!position && width == 32) {  // C: one element a word
    for (size_t i = 0; i < elems.size(); ++i) (*out)[i] = uint32_t(elems[i]);
    return;
  }
  for (size_t i = 0; i < elems.size(); ++i) {
    const size_t bit = size_t(position ? (*position)[i] : int(i)) * size_t(width);
    if (width == 64) {
      (*out)[bit / 32] = uint32_t(elems[i]);
      (*out)[bit / 32 + 1] = uint32_t(elems[i] >> 32);
    } else {
      (*out)[bit / 32] |= uint32_t((elems[i] & ((1ull << width) - 1)) << (bit % 32));
    }
  }
}

// (b, r, c) -> (b * cols + c) * col_stride + r: columns of col_stride.
std::vector<int> column_major(const Matrix& m, int col_stride) {
  std::vector<int> position(m.elems.size());
  for (int b = 0; b < m.batches; ++b)
    for (int r = 0; r < m.rows; ++r)
      for (int c = 0; c < m.cols; ++c)
        position[(size_t(b) * m.rows + r) * m.cols + c] = (b * m.cols + c) * col_stride + r;
  return position;
}

// datapath_positions, computed once per operand shape (they depend on the
// operand, its element width and the matrix's dimensions only).
const std::vector<int>& cached_positions(const Instr& instr, Operand operand, const Matrix& m) {
  thread_local std::unordered_map<uint64_t, std::vector<int>> cache;
  const uint64_t key = uint64_t(operand) << 56 | uint64_t(elem_bits(instr.b_type) == 4) << 48 |
                       uint64_t(m.batches) << 32 | uint64_t(m.rows) << 16 | uint64_t(m.cols);
  auto it = cache.find(key);
  if (it == cache.end()) it = cache.emplace(key, datapath_positions(instr, operand, m)).first;
  return it->second;
}

// Where one operand's register bits land on its port: whole words where a
// port word holds one register's 32 bits in order, element moves elsewhere.
struct PortMap {
  struct Word {
    int port_word, reg, shift;
  };
  struct Elem {
    int reg, shift, bit;
  };
  std::vector<Word> words;
  std::vector<Elem> elems;
  uint64_t mask = 0;
};

PortMap build_port_map(const Instr& instr, Operand operand, const FragmentLayout& layout,
                       int width) {
  const Matrix shape(layout.batches(), layout.rows(), layout.cols());
  const std::vector<int> position = datapath_positions(instr, operand, shape);
  PortMap map;
  map.mask = width == 64 ? ~uint64_t(0) : (uint64_t(1) << width) - 1;
  // Per port word, the elements in it (or halves of a 64-bit element).
  std::map<int, std::vector<PortMap::Elem>> by_word;
  for (int i = 0; i < layout.elem_count(); ++i) {
    const int bit = position[size_t(i)] * width;
    if (width == 64) {
      by_word[bit / 32].push_back({layout.reg_of_elem(i), layout.shift_of_elem(i), 0});
      by_word[bit / 32 + 1].push_back({layout.reg_of_elem(i), layout.shift_of_elem(i) + 32, 0});
    } else {
      by_word[bit / 32].push_back({layout.reg_of_elem(i), layout.shift_of_elem(i), bit % 32});
    }
  }
  for (const auto& [port_word, elems] : by_word) {
    // One register, each element at its bit offset plus one shift: a word.
    const int part = width == 64 ? 32 : width;
    const int shift = elems[0].shift - elems[0].bit;
    bool whole = int(elems.size()) * part == 32 && shift >= 0 && shift % 32 == 0;
    for (const PortMap::Elem& e : elems)
      whole = whole && e.reg == elems[0].reg && e.shift - e.bit == shift;
    if (whole) {
      map.words.push_back({port_word, elems[0].reg, shift});
    } else {
      for (const PortMap::Elem& e : elems)
        map.elems.push_back({e.reg, e.shift, port_word * 32 + e.bit});
    }
  }
  return map;
}

const PortMap& port_map(const Instr& instr, Operand operand, const FragmentLayout& layout,
                        int width) {
  // fragment_layout gives each (variant, operand, selectors) layout one
  // address; the positions depend on the operand and width besides.
  // The last map of each operand is looked up first: a stream of one
  // variant (a run's batch) asks for the same ones instruction after
  // instruction. std::map's entries stay where they are.
  thread_local std::map<std::tuple<const FragmentLayout*, Operand, int>, PortMap> cache;
  struct Last {
    const FragmentLayout* layout = nullptr;
    int width = 0;
    const PortMap* map = nullptr;
  };
  thread_local std::array<Last, 8> last;
  Last& hit = last[size_t(operand) % last.size()];
  if (hit.layout == &layout && hit.width == width) return *hit.map;
  const auto key = std::make_tuple(&layout, operand, width);
  auto it = cache.find(key);
  if (it == cache.end()) it = cache.emplace(key, build_port_map(instr, operand, layout, width)).first;
  hit = {&layout, width, &it->second};
  return it->second;
}

template <size_t Words>
void pack_fragment(const Instr& instr, Operand operand, const FragmentLayout& layout, int width,
                   const Fragment& fragment, std::array<uint32_t, Words>* out) {
  out->fill(0);
  if (fragment.regs.empty()) return;
  const PortMap& map = port_map(instr, operand, layout, width);
  const uint64_t* regs = fragment.regs.data();
  for (const PortMap::Word& w : map.words)
    (*out)[size_t(w.port_word)] = uint32_t(regs[w.reg] >> w.shift);
  for (const PortMap::Elem& e : map.elems) {
    const uint64_t v = (regs[e.reg] >> e.shift) & map.mask;
    (*out)[size_t(e.bit / 32)] |= uint32_t(v << (e.bit % 32));
    if (e.bit % 32 + width > 32) (*out)[size_t(e.bit / 32 + 1)] |= uint32_t(v >> (32 - e.bit % 32));
  }
}

void pack_descriptor(const Instr& in, uint32_t tag, DatapathInputs* out) {
  out->family = uint32_t(in.family);
  out->a_signed = in.a_type == ElemType::kS4;
  out->b_signed = in.b_type == ElemType::kS4;
  out->satfinite = in.satfinite;
  out->k32 = in.shape.k == 32;
  out->rounding = uint32_t(in.rounding);
  out->c_f16 = in.c_type == ElemType::kF16;
  out->d_f16 = in.d_type == ElemType::kF16;
  out->scale_4x = in.scale_vec == ScaleVec::k4X;
  out->tag = tag & 0xffff;
}

}  // namespace

void pack_datapath_inputs(const Instr& in, const WarpOperands& warp, uint32_t tag,
                          DatapathInputs* out) {
  validate_selectors(in, warp.selectors);
  pack_descriptor(in, tag, out);
  pack_fragment(in, Operand::kA, fragment_layout(in, Operand::kA), elem_bits(in.a_type), warp.a,
                &out->a);
  pack_fragment(in, Operand::kB, fragment_layout(in, Operand::kB), elem_bits(in.b_type), warp.b,
                &out->b);
  pack_fragment(in, Operand::kC, fragment_layout(in, Operand::kC), elem_bits(in.c_type), warp.c,
                &out->c);
  out->meta.fill(0);
  if (in.sparse())
    pack_fragment(in, Operand::kMeta, fragment_layout(in, Operand::kMeta, warp.selectors), 4,
                  warp.e, &out->meta);
  out->scale_a.fill(0);
  out->scale_b.fill(0);
  if (in.block_scaled()) {
    pack_fragment(in, Operand::kScaleA, fragment_layout(in, Operand::kScaleA, warp.selectors), 8,
                  warp.scale_a, &out->scale_a);
    pack_fragment(in, Operand::kScaleB, fragment_layout(in, Operand::kScaleB, warp.selectors), 8,
                  warp.scale_b, &out->scale_b);
  }
}

bool same_datapath_descriptor(const DatapathInputs& e, const DatapathInputs& g) {
  return e.family == g.family && e.a_signed == g.a_signed && e.b_signed == g.b_signed &&
         e.satfinite == g.satfinite && e.k32 == g.k32 && e.rounding == g.rounding &&
         e.c_f16 == g.c_f16 && e.d_f16 == g.d_f16 && e.scale_4x == g.scale_4x;
}

bool same_datapath_inputs(const DatapathInputs& e, const DatapathInputs& g) {
  return same_datapath_descriptor(e, g) && e.a == g.a && e.b == g.b && e.c == g.c &&
         e.meta == g.meta && e.scale_a == g.scale_a && e.scale_b == g.scale_b;
}

std::vector<int> datapath_positions(const Instr& instr, Operand operand, const Matrix& m) {
  switch (operand) {
    case Operand::kB:
      // Columns of int4 and e2m1 B hold 64 codes (k=32 uses the first half).
      return column_major(m, elem_bits(instr.b_type) == 4 ? 64 : m.rows);
    case Operand::kScaleB:
      return column_major(m, 4);  // four blocks (2X uses two)
    case Operand::kScaleA: {
      std::vector<int> position(m.elems.size());
      for (int row = 0; row < m.rows; ++row)
        for (int block = 0; block < m.cols; ++block)
          position[size_t(row * m.cols + block)] = row * 4 + block;
      return position;
    }
    default: {
      std::vector<int> position(m.elems.size());
      for (size_t i = 0; i < position.size(); ++i) position[i] = int(i);
      return position;
    }
  }
}

void pack_datapath_inputs(const Instr& in, const Operands& ops, uint32_t tag, DatapathInputs* out) {
  pack_descriptor(in, tag, out);
  pack(ops.a.elems, elem_bits(in.a_type), &out->a);
  pack(ops.b.elems, elem_bits(in.b_type), &out->b, &cached_positions(in, Operand::kB, ops.b));
  pack(ops.c.elems, elem_bits(in.c_type), &out->c);
  out->meta.fill(0);
  if (in.sparse()) pack(ops.meta.elems, 4, &out->meta);
  out->scale_a.fill(0);
  out->scale_b.fill(0);
  if (in.block_scaled()) {
    pack(ops.scale_a.elems, 8, &out->scale_a, &cached_positions(in, Operand::kScaleA, ops.scale_a));
    pack(ops.scale_b.elems, 8, &out->scale_b, &cached_positions(in, Operand::kScaleB, ops.scale_b));
  }
}

Matrix unpack_datapath_d(const Instr& instr, const uint32_t* out_d) {
  const FragmentLayout& layout = fragment_layout(instr, Operand::kD);
  Matrix d(layout.batches(), layout.rows(), layout.cols());
  const int width = elem_bits(instr.d_type);
  for (size_t i = 0; i < d.elems.size(); ++i) {
    const size_t bit = i * size_t(width);
    uint64_t v = out_d[bit / 32] >> (bit % 32);
    if (width == 64) v |= uint64_t(out_d[bit / 32 + 1]) << 32;
    d.elems[i] = width == 64 ? v : v & ((1ull << width) - 1);
  }
  return d;
}

}  // namespace tcu
