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

namespace port_detail {

// The words of the port an operand's map writes.
size_t port_words(Operand operand) {
  switch (operand) {
    case Operand::kA:
      return kDatapathPortWords[0];
    case Operand::kB:
      return kDatapathPortWords[1];
    case Operand::kMeta:
      return kDatapathPortWords[3];
    case Operand::kScaleA:
      return kDatapathPortWords[4];
    case Operand::kScaleB:
      return kDatapathPortWords[5];
    default:  // C
      return kDatapathPortWords[2];
  }
}

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
  // Per port word read whole, the register word it is.
  std::vector<int> half_of(by_word.empty() ? 0 : size_t(by_word.rbegin()->first + 1), -1);
  for (const auto& [port_word, elems] : by_word) {
    map.extent = std::max(map.extent, port_word + 1);
    // One register, each element at its bit offset plus one shift: a word.
    const int part = width == 64 ? 32 : width;
    const int shift = elems[0].shift - elems[0].bit;
    bool whole = int(elems.size()) * part == 32 && shift >= 0 && shift % 32 == 0;
    for (const PortMap::Elem& e : elems)
      whole = whole && e.reg == elems[0].reg && e.shift - e.bit == shift;
    if (whole) {
      half_of[size_t(port_word)] = 2 * elems[0].reg + shift / 32;
    } else {
      for (const PortMap::Elem& e : elems) {
        map.elems.push_back({e.reg, e.shift, port_word * 32 + e.bit});
        map.straddles = map.straddles || e.bit % 32 + width > 32;
      }
    }
  }
  map.runs = cover_halves(half_of);
  // The words the map writes, and the ranges between them.
  std::vector<bool> covered(port_words(operand), false);
  for (const HalfRun& r : map.runs)
    for (int i = 0; i < r.count; ++i) covered[size_t(r.to + i * r.to_stride)] = true;
  for (const PortMap::Elem& e : map.elems) covered[size_t(e.bit / 32)] = true;
  for (size_t w = 0; w < covered.size();) {
    if (covered[w]) {
      ++w;
      continue;
    }
    const size_t first = w;
    while (w < covered.size() && !covered[w]) ++w;
    map.zeros.push_back({int(first), int(w)});
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

}  // namespace port_detail

namespace {

// The fragment's bits onto `port` by `map`, whose words below `*extent`
// (and no others) may be nonzero; leaves `*extent` so for the next call.
void pack_fragment(const port_detail::PortMap* map, const Fragment& fragment, int width,
                   uint32_t* port, int* extent) {
  const bool written = map && !fragment.regs.empty();
  std::fill(port, port + std::max(*extent, written ? map->extent : 0), 0u);
  *extent = written ? map->extent : 0;
  if (!written) return;
  const uint64_t* regs = fragment.regs.data();
  for (const HalfRun& r : map->runs) copy_halves(regs, r, port);
  for (const port_detail::PortMap::Elem& e : map->elems) {
    const uint64_t v = (regs[e.reg] >> e.shift) & map->mask;
    port[e.bit / 32] |= uint32_t(v << (e.bit % 32));
    if (e.bit % 32 + width > 32) port[e.bit / 32 + 1] |= uint32_t(v >> (32 - e.bit % 32));
  }
}

bool same_selectors(const Selectors& a, const Selectors& b) {
  return a.sparsity == b.sparsity && a.byte_id_a == b.byte_id_a &&
         a.thread_id_a == b.thread_id_a && a.byte_id_b == b.byte_id_b &&
         a.thread_id_b == b.thread_id_b;
}

}  // namespace

DatapathInputsPacker::DatapathInputsPacker() {
  // The buffer starts zero: no word of any port is written yet.
  for (int& e : extent_) e = 0;
}

void DatapathInputsPacker::plan(const Instr& in, const Selectors& sel) {
  validate_selectors(in, sel);
  using port_detail::port_map;
  plan_.maps = {};
  plan_.widths = {elem_bits(in.a_type), elem_bits(in.b_type), elem_bits(in.c_type), 4, 8, 8};
  plan_.maps[0] = &port_map(in, Operand::kA, fragment_layout(in, Operand::kA), plan_.widths[0]);
  plan_.maps[1] = &port_map(in, Operand::kB, fragment_layout(in, Operand::kB), plan_.widths[1]);
  plan_.maps[2] = &port_map(in, Operand::kC, fragment_layout(in, Operand::kC), plan_.widths[2]);
  if (in.sparse())
    plan_.maps[3] = &port_map(in, Operand::kMeta, fragment_layout(in, Operand::kMeta, sel), 4);
  if (in.block_scaled()) {
    plan_.maps[4] =
        &port_map(in, Operand::kScaleA, fragment_layout(in, Operand::kScaleA, sel), 8);
    plan_.maps[5] =
        &port_map(in, Operand::kScaleB, fragment_layout(in, Operand::kScaleB, sel), 8);
  }
  planned_ = true;
  instr_ = in;
  selectors_ = sel;
}

const DatapathInputs& DatapathInputsPacker::pack(const Instr& in, const WarpOperands& warp,
                                                 uint32_t tag) {
  if (!planned_ || !same_variant(in, instr_) || !same_selectors(warp.selectors, selectors_))
    plan(in, warp.selectors);
  pack_descriptor(in, tag, &inputs_);
  const Fragment* fragments[6] = {&warp.a, &warp.b, &warp.c, &warp.e, &warp.scale_a, &warp.scale_b};
  uint32_t* ports[6] = {inputs_.a.data(),    inputs_.b.data(),       inputs_.c.data(),
                        inputs_.meta.data(), inputs_.scale_a.data(), inputs_.scale_b.data()};
  for (size_t p = 0; p < 6; ++p)
    pack_fragment(plan_.maps[p], *fragments[p], plan_.widths[p], ports[p], &extent_[p]);
  return inputs_;
}

bool DatapathInputsPacker::matches(const Instr& in, const WarpOperands& warp,
                                   const DatapathInputs& descriptor, const DatapathPortWords& got) {
  if (!planned_ || !same_variant(in, instr_) || !same_selectors(warp.selectors, selectors_))
    plan(in, warp.selectors);
  pack_descriptor(in, 0, &inputs_);  // its descriptor fields only; the ports stay
  if (!same_datapath_descriptor(inputs_, descriptor)) return false;
  const Fragment* fragments[6] = {&warp.a, &warp.b, &warp.c, &warp.e, &warp.scale_a, &warp.scale_b};
  for (size_t p = 0; p < 6; ++p) {
    const port_detail::PortMap* map = plan_.maps[p];
    const uint32_t* port = got[p];
    if (!map || fragments[p]->regs.empty()) {
      // Nothing lands on this port: every word zero.
      uint32_t any = 0;
      for (size_t w = 0; w < kDatapathPortWords[p]; ++w) any |= port[w];
      if (any) return false;
      continue;
    }
    if (map->straddles) return false;  // left to the full comparison
    const uint64_t* regs = fragments[p]->regs.data();
    for (const HalfRun& r : map->runs)
      if (!equal_halves(regs, r, port)) return false;
    // The elements, a port word at a time (in word order).
    for (size_t i = 0; i < map->elems.size();) {
      const int word = map->elems[i].bit / 32;
      uint32_t want = 0;
      for (; i < map->elems.size() && map->elems[i].bit / 32 == word; ++i) {
        const port_detail::PortMap::Elem& e = map->elems[i];
        want |= uint32_t(((regs[e.reg] >> e.shift) & map->mask) << (e.bit % 32));
      }
      if (port[word] != want) return false;
    }
    uint32_t any = 0;
    for (const auto& [first, last] : map->zeros)
      for (int w = first; w < last; ++w) any |= port[w];
    if (any) return false;
  }
  return true;
}

void pack_datapath_inputs(const Instr& in, const WarpOperands& warp, uint32_t tag,
                          DatapathInputs* out) {
  thread_local DatapathInputsPacker packer;
  *out = packer.pack(in, warp, tag);
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
