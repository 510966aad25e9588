#include "tcu/layout.h"

#include <atomic>
#include <mutex>
#include <stdexcept>
#include <string>

namespace tcu {

FragmentLayout::FragmentLayout(int regs_per_lane, int elems_per_reg, int elem_bits, int reg_bits,
                               int batches, int rows, int cols, const Selectors& selectors,
                               Formula formula)
    : regs_per_lane_(regs_per_lane),
      elems_per_reg_(elems_per_reg),
      elem_bits_(elem_bits),
      reg_bits_(reg_bits),
      batches_(batches),
      rows_(rows),
      cols_(cols),
      elem_of_slot_(slot_count(), -1),
      slot_of_elem_(elem_count(), -1) {
  for (int lane = 0; lane < kLanes; ++lane)
    for (int reg = 0; reg < regs_per_lane; ++reg)
      for (int elem = 0; elem < elems_per_reg; ++elem) {
        Slot slot{lane, reg, elem};
        Coord c;
        if (!formula(selectors, slot, &c)) continue;
        if (c.batch < 0 || c.batch >= batches || c.row < 0 || c.row >= rows || c.col < 0 ||
            c.col >= cols)
          throw std::logic_error("layout formula leaves the matrix");
        int index = (c.batch * rows + c.row) * cols + c.col;
        if (slot_of_elem_[index] >= 0)
          throw std::logic_error("layout formula maps two slots to one element");
        slot_of_elem_[index] = slot_index(slot);
        elem_of_slot_[slot_index(slot)] = index;
      }
  reg_and_shift_of_elem_.reserve(slot_of_elem_.size());
  for (int slot : slot_of_elem_) {
    if (slot < 0) throw std::logic_error("layout formula leaves a matrix element unmapped");
    reg_and_shift_of_elem_.push_back(uint32_t(slot / elems_per_reg_) << 8 |
                                     uint32_t((slot % elems_per_reg_) * elem_bits_));
  }
  in_register_order_ = elems_per_reg_ == 1 && elem_count() == kLanes * regs_per_lane_;
  for (size_t i = 0; i < slot_of_elem_.size() && in_register_order_; ++i)
    in_register_order_ = slot_of_elem_[i] == int(i);
  if (batches_ != 1 || elems_per_reg_ < 2) return;
  // The register of the run starting at element `first`, `step` apart, or -1.
  auto run_reg = [&](int first, int step) {
    const int slot0 = slot_of_elem_[first];
    if (slot0 % elems_per_reg_ != 0) return -1;
    for (int e = 1; e < elems_per_reg_; ++e)
      if (slot_of_elem_[first + e * step] != slot0 + e) return -1;
    return slot0 / elems_per_reg_;
  };
  auto build_runs = [&](int lines, int line_length, int line_step, int elem_step,
                        std::vector<int16_t>* runs) {
    if (line_length % elems_per_reg_ != 0) return;
    const int chunks = line_length / elems_per_reg_;
    for (int line = 0; line < lines; ++line)
      for (int chunk = 0; chunk < chunks; ++chunk) {
        const int reg = run_reg(line * line_step + chunk * elems_per_reg_ * elem_step, elem_step);
        if (reg < 0) {
          runs->clear();
          return;
        }
        runs->push_back(int16_t(reg));
      }
  };
  build_runs(rows_, cols_, cols_, 1, &row_run_regs_);
  build_runs(cols_, rows_, 1, cols_, &col_run_regs_);
}

bool FragmentLayout::coord_of(Slot slot, Coord* coord) const {
  int index = elem_of_slot_[slot_index(slot)];
  if (index < 0) return false;
  coord->col = index % cols_;
  coord->row = (index / cols_) % rows_;
  coord->batch = index / (cols_ * rows_);
  return true;
}

Slot FragmentLayout::slot_of(Coord c) const {
  int index = slot_of_elem_[(c.batch * rows_ + c.row) * cols_ + c.col];
  return Slot{index / (regs_per_lane_ * elems_per_reg_), (index / elems_per_reg_) % regs_per_lane_,
              index % elems_per_reg_};
}

Fragment FragmentLayout::empty_fragment() const {
  Fragment f;
  f.regs_per_lane = regs_per_lane_;
  f.regs.assign(size_t(kLanes) * regs_per_lane_, 0);
  return f;
}

Matrix FragmentLayout::gather(const Fragment& fragment) const {
  Matrix m(batches_, rows_, cols_);
  gather_into(fragment, m.elems.data());
  return m;
}

Fragment FragmentLayout::scatter(const Matrix& matrix) const {
  Fragment f;
  scatter_into(matrix.elems.data(), &f);
  return f;
}

void FragmentLayout::gather_into(const Fragment& fragment, uint64_t* elems) const {
  const uint64_t mask = elem_bits_ == 64 ? ~uint64_t(0) : (uint64_t(1) << elem_bits_) - 1;
  const uint64_t* regs = fragment.regs.data();
  const size_t count = reg_and_shift_of_elem_.size();
  if (elem_bits_ == 64) {  // a whole register each (shift 0)
    for (size_t index = 0; index < count; ++index)
      elems[index] = regs[reg_and_shift_of_elem_[index] >> 8];
    return;
  }
  for (size_t index = 0; index < count; ++index) {
    const uint32_t where = reg_and_shift_of_elem_[index];
    elems[index] = (regs[where >> 8] >> (where & 0xff)) & mask;
  }
}

void FragmentLayout::scatter_into(const uint64_t* elems, Fragment* fragment) const {
  fragment->regs_per_lane = regs_per_lane_;
  fragment->regs.assign(size_t(kLanes) * regs_per_lane_, 0);
  const uint64_t mask = elem_bits_ == 64 ? ~uint64_t(0) : (uint64_t(1) << elem_bits_) - 1;
  uint64_t* regs = fragment->regs.data();
  const size_t count = reg_and_shift_of_elem_.size();
  if (elem_bits_ == 64) {  // a whole register each (shift 0)
    for (size_t index = 0; index < count; ++index)
      regs[reg_and_shift_of_elem_[index] >> 8] = elems[index];
    return;
  }
  for (size_t index = 0; index < count; ++index) {
    const uint32_t where = reg_and_shift_of_elem_[index];
    regs[where >> 8] |= (elems[index] & mask) << (where & 0xff);
  }
}

namespace {

// The formulas below are the PTX ISA's, section by section. i is the
// element's index within the lane's fragment (register-major).
int group_id(Slot s) { return s.lane >> 2; }
int thread_in_group(Slot s) { return s.lane % 4; }

// --- mma.m16n8k64 .s4/.u4/.e2m1 (9.7.14.5.11) -------------------------------
bool m16n8k64_a(const Selectors&, Slot s, Coord* c) {
  int i = s.reg * 8 + s.elem;
  bool low_row = i < 8 || (i >= 16 && i < 24);
  *c = {0, group_id(s) + (low_row ? 0 : 8), thread_in_group(s) * 8 + (i & 7) + (i >= 16 ? 32 : 0)};
  return true;
}
bool m16n8k64_b(const Selectors&, Slot s, Coord* c) {
  int i = s.reg * 8 + s.elem;
  *c = {0, thread_in_group(s) * 8 + (i & 7) + (i >= 8 ? 32 : 0), group_id(s)};
  return true;
}
bool m16n8_c(const Selectors&, Slot s, Coord* c) {
  int i = s.reg;
  *c = {0, group_id(s) + (i >= 2 ? 8 : 0), thread_in_group(s) * 2 + (i & 1)};
  return true;
}

// --- mma.m8n8k32 .s4/.u4 (9.7.14.5.4) ---------------------------------------
bool m8n8k32_a(const Selectors&, Slot s, Coord* c) {
  *c = {0, group_id(s), thread_in_group(s) * 8 + s.elem};
  return true;
}
bool m8n8k32_b(const Selectors&, Slot s, Coord* c) {
  *c = {0, thread_in_group(s) * 8 + s.elem, group_id(s)};
  return true;
}
bool m8n8_c(const Selectors&, Slot s, Coord* c) {  // also m8n8k4 .f64 C/D
  *c = {0, group_id(s), thread_in_group(s) * 2 + s.reg};
  return true;
}

// --- sparse mma.m16n8k64 .s4/.u4 (9.7.14.6.2.7) -----------------------------
// A holds the compressed matrix: 16 rows x 32 stored columns; stored column
// 4c..4c+3 are the two selected pairs of logical chunk c (columns 8c..8c+7).
bool sparse_m16n8k64_a(const Selectors&, Slot s, Coord* c) {
  int i = s.reg * 8 + s.elem;
  *c = {0, group_id(s) + (i >= 8 ? 8 : 0), thread_in_group(s) * 8 + (i & 7)};
  return true;
}
// Metadata: 16 rows x 8 chunks of 4 bits. Lane 4g + 2*sel + h holds row
// g + 8h; its nibble c describes chunk c.
bool sparse_m16n8k64_meta(const Selectors& sel, Slot s, Coord* c) {
  int t = thread_in_group(s);
  if (t / 2 != sel.sparsity) return false;
  *c = {0, group_id(s) + 8 * (t % 2), s.elem};
  return true;
}

// --- block scales for m16n8k64 e2m1 -----------------------------------------
// A scales: 16 rows x blocks; row m in lane 4*(m%8) + 2*thread_id_a + m/8,
// block j in byte byte_id_a + j.
template <int kBlocks>
bool scale_a(const Selectors& sel, Slot s, Coord* c) {
  int t = thread_in_group(s);
  int j = s.elem - sel.byte_id_a;
  if (t / 2 != sel.thread_id_a || j < 0 || j >= kBlocks) return false;
  *c = {0, group_id(s) + 8 * (t % 2), j};
  return true;
}
// B scales: blocks x 8 columns; column n in lane 4n + thread_id_b.
template <int kBlocks>
bool scale_b(const Selectors& sel, Slot s, Coord* c) {
  int j = s.elem - sel.byte_id_b;
  if (thread_in_group(s) != sel.thread_id_b || j < 0 || j >= kBlocks) return false;
  *c = {0, j, group_id(s)};
  return true;
}

// --- mma.m8n8k4 .f16 (9.7.14.5.1) -------------------------------------------
// Batch q is the quad pair: lanes 4q..4q+3 (low group) and 4q+16..4q+19.
int quad_pair(Slot s) { return (s.lane % 16) / 4; }
int high_group(Slot s) { return s.lane >= 16 ? 1 : 0; }
int f16_index(Slot s) { return s.reg * 2 + s.elem; }

bool m8n8k4_a_row(const Selectors&, Slot s, Coord* c) {
  *c = {quad_pair(s), s.lane % 4 + 4 * high_group(s), f16_index(s)};
  return true;
}
bool m8n8k4_a_col(const Selectors&, Slot s, Coord* c) {
  *c = {quad_pair(s), f16_index(s) % 4 + 4 * high_group(s), s.lane % 4};
  return true;
}
bool m8n8k4_b_row(const Selectors&, Slot s, Coord* c) {
  *c = {quad_pair(s), s.lane % 4, f16_index(s) + 4 * high_group(s)};
  return true;
}
bool m8n8k4_b_col(const Selectors&, Slot s, Coord* c) {
  *c = {quad_pair(s), f16_index(s), s.lane % 4 + 4 * high_group(s)};
  return true;
}
bool m8n8k4_c_f16(const Selectors&, Slot s, Coord* c) {
  *c = {quad_pair(s), s.lane % 4 + 4 * high_group(s), f16_index(s)};
  return true;
}
bool m8n8k4_c_f32(const Selectors&, Slot s, Coord* c) {
  int i = s.reg;
  int x = (s.lane & 1) + (i & 2);
  *c = {quad_pair(s), x + 4 * high_group(s), (i & 4) + (s.lane & 2) + (i & 1)};
  return true;
}

// --- mma.m8n8k4 .f64 (9.7.14.5.2) -------------------------------------------
bool m8n8k4_a_f64(const Selectors&, Slot s, Coord* c) {
  *c = {0, s.lane >> 2, s.lane % 4};
  return true;
}
bool m8n8k4_b_f64(const Selectors&, Slot s, Coord* c) {
  *c = {0, s.lane % 4, s.lane >> 2};
  return true;
}

FragmentLayout build(const Instr& in, Operand op, const Selectors& sel) {
  const int b = in.batches();
  const int m = in.shape.m, n = in.shape.n, k = in.shape.k;
  const bool is_d = op == Operand::kD;
  if (is_d) op = Operand::kC;
  const ElemType acc_type = is_d ? in.d_type : in.c_type;
  auto wrong = [&]() -> FragmentLayout {
    throw std::invalid_argument(std::string("operand ") + to_string(op) + " does not exist for " +
                                in.ptx());
  };
  switch (in.family) {
    case Family::kInt4Dense:
    case Family::kE2m1:
      if (k == 64) {
        switch (op) {
          case Operand::kA:
            return {4, 8, 4, 32, 1, m, k, sel, m16n8k64_a};
          case Operand::kB:
            return {2, 8, 4, 32, 1, k, n, sel, m16n8k64_b};
          case Operand::kC:
            return {4, 1, 32, 32, 1, m, n, sel, m16n8_c};
          case Operand::kScaleA:
          case Operand::kScaleB:
            if (in.family != Family::kE2m1) return wrong();
            if (in.scale_vec == ScaleVec::k4X)
              return op == Operand::kScaleA ? FragmentLayout{1, 4, 8, 32, 1, m, 4, sel, scale_a<4>}
                                            : FragmentLayout{1, 4, 8, 32, 1, 4, n, sel, scale_b<4>};
            return op == Operand::kScaleA ? FragmentLayout{1, 4, 8, 32, 1, m, 2, sel, scale_a<2>}
                                          : FragmentLayout{1, 4, 8, 32, 1, 2, n, sel, scale_b<2>};
          default:
            return wrong();
        }
      }
      switch (op) {
        case Operand::kA:
          return {1, 8, 4, 32, 1, m, k, sel, m8n8k32_a};
        case Operand::kB:
          return {1, 8, 4, 32, 1, k, n, sel, m8n8k32_b};
        case Operand::kC:
          return {2, 1, 32, 32, 1, m, n, sel, m8n8_c};
        default:
          return wrong();
      }
    case Family::kInt4Sparse:
      switch (op) {
        case Operand::kA:
          return {2, 8, 4, 32, 1, m, k / 2, sel, sparse_m16n8k64_a};
        case Operand::kB:
          return {2, 8, 4, 32, 1, k, n, sel, m16n8k64_b};
        case Operand::kC:
          return {4, 1, 32, 32, 1, m, n, sel, m16n8_c};
        case Operand::kMeta:
          return {1, 8, 4, 32, 1, m, k / 8, sel, sparse_m16n8k64_meta};
        default:
          return wrong();
      }
    case Family::kF16:
      switch (op) {
        case Operand::kA:
          return {2,  2,   16,
                  32, b,   m,
                  k,  sel, in.a_layout == MatrixLayout::kRow ? m8n8k4_a_row : m8n8k4_a_col};
        case Operand::kB:
          return {2,  2,   16,
                  32, b,   k,
                  n,  sel, in.b_layout == MatrixLayout::kRow ? m8n8k4_b_row : m8n8k4_b_col};
        case Operand::kC:
          if (acc_type == ElemType::kF16) return {4, 2, 16, 32, b, m, n, sel, m8n8k4_c_f16};
          return {8, 1, 32, 32, b, m, n, sel, m8n8k4_c_f32};
        default:
          return wrong();
      }
    case Family::kF64:
      switch (op) {
        case Operand::kA:
          return {1, 1, 64, 64, 1, m, k, sel, m8n8k4_a_f64};
        case Operand::kB:
          return {1, 1, 64, 64, 1, k, n, sel, m8n8k4_b_f64};
        case Operand::kC:
          return {2, 1, 64, 64, 1, m, n, sel, m8n8_c};
        default:
          return wrong();
      }
  }
  return wrong();
}

// Packs the parts of the instruction and selectors that change a layout into
// one key, 4 bits a field. Returns false for a selector outside 0..15 (no
// layout exists for one: build() throws).
bool layout_key(const Instr& in, Operand op, const Selectors& sel, uint64_t* key) {
  const bool acc = op == Operand::kC || op == Operand::kD;
  const bool uses_sparsity = op == Operand::kMeta;
  const bool uses_scale_a = op == Operand::kScaleA;
  const bool uses_scale_b = op == Operand::kScaleB;
  const int fields[] = {
      static_cast<int>(in.family),
      in.shape.k == 64   ? 2
      : in.shape.k == 32 ? 1
                         : 0,
      static_cast<int>(op == Operand::kD ? Operand::kC : op),
      static_cast<int>(in.a_layout),
      static_cast<int>(in.b_layout),
      acc ? static_cast<int>(op == Operand::kD ? in.d_type : in.c_type) : 0,
      uses_sparsity ? sel.sparsity : 0,
      uses_scale_a || uses_scale_b ? static_cast<int>(in.scale_vec) : 0,
      uses_scale_a ? sel.byte_id_a : 0,
      uses_scale_a ? sel.thread_id_a : 0,
      uses_scale_b ? sel.byte_id_b : 0,
      uses_scale_b ? sel.thread_id_b : 0,
  };
  uint64_t packed = 1;  // a leading 1 keeps 0 free for "empty"
  for (int field : fields) {
    if (field < 0 || field > 15) return false;
    packed = packed << 4 | uint64_t(field);
  }
  *key = packed;
  return true;
}

// Open addressing over a fixed table: readers take no lock, a miss builds
// the layout under the mutex and publishes it. Entries are never removed.
class LayoutCache {
 public:
  const FragmentLayout& get(const Instr& in, Operand op, const Selectors& sel) {
    uint64_t key;
    if (!layout_key(in, op, sel, &key)) {
      build(in, op, sel);
      throw std::logic_error("fragment_layout: a layout with an out-of-range selector");
    }
    for (size_t probe = 0, i = hash(key); probe < kSlots; ++probe, i = (i + 1) % kSlots) {
      const uint64_t found = keys_[i].load(std::memory_order_acquire);
      if (found == key) return *layouts_[i].load(std::memory_order_acquire);
      if (found == 0) return insert(key, in, op, sel);
    }
    return insert(key, in, op, sel);
  }

 private:
  static constexpr size_t kSlots = 4096;
  static size_t hash(uint64_t key) { return (key * 0x9e3779b97f4a7c15ull >> 40) % kSlots; }

  const FragmentLayout& insert(uint64_t key, const Instr& in, Operand op, const Selectors& sel) {
    std::lock_guard<std::mutex> lock(mutex_);
    for (size_t probe = 0, i = hash(key); probe < kSlots; ++probe, i = (i + 1) % kSlots) {
      const uint64_t found = keys_[i].load(std::memory_order_relaxed);
      if (found == key) return *layouts_[i].load(std::memory_order_acquire);
      if (found != 0) continue;
      const FragmentLayout* layout = new FragmentLayout(build(in, op, sel));
      // The layout pointer is published before the key that readers match.
      layouts_[i].store(layout, std::memory_order_release);
      keys_[i].store(key, std::memory_order_release);
      return *layout;
    }
    throw std::logic_error("fragment_layout: cache full");
  }

  std::mutex mutex_;
  std::atomic<uint64_t> keys_[kSlots] = {};
  std::atomic<const FragmentLayout*> layouts_[kSlots] = {};
};

}  // namespace

const FragmentLayout& fragment_layout(const Instr& in, Operand op, const Selectors& sel) {
  static LayoutCache cache;
  return cache.get(in, op, sel);
}

}  // namespace tcu
