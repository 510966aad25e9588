// Fragment layouts: which lane, register and packed element holds which
// matrix element, for every operand of every variant in scope. Each layout is
// written once, as the PTX ISA formula from lane/register/element to
// (batch, row, column); the inverse table is derived from it.
#pragma once

#include <cstdint>
#include <vector>

#include "tcu/instr.h"

namespace tcu {

inline constexpr int kLanes = 32;

// The immediates that pick which lanes/bytes hold metadata and scales.
struct Selectors {
  int sparsity = 0;  // mma.sp sparsity selector
  int byte_id_a = 0, thread_id_a = 0;
  int byte_id_b = 0, thread_id_b = 0;
};

struct Slot {
  int lane = 0, reg = 0, elem = 0;
};
struct Coord {
  int batch = 0, row = 0, col = 0;
};

// One operand's registers for all 32 lanes: regs[lane * regs_per_lane + reg].
// 32-bit registers are held zero-extended.
struct Fragment {
  int regs_per_lane = 0;
  std::vector<uint64_t> regs;
  uint64_t& at(int lane, int reg) { return regs[lane * regs_per_lane + reg]; }
  uint64_t at(int lane, int reg) const { return regs[lane * regs_per_lane + reg]; }
};

// An operand in matrix order: elems[(batch * rows + row) * cols + col], each
// element's raw bit pattern in the low elem_bits bits.
struct Matrix {
  int batches = 0, rows = 0, cols = 0;
  std::vector<uint64_t> elems;
  Matrix() = default;
  Matrix(int b, int r, int c) : batches(b), rows(r), cols(c), elems(size_t(b) * r * c, 0) {}
  uint64_t& at(int b, int r, int c) { return elems[(size_t(b) * rows + r) * cols + c]; }
  uint64_t at(int b, int r, int c) const { return elems[(size_t(b) * rows + r) * cols + c]; }
};

class FragmentLayout {
 public:
  FragmentLayout() = default;
  // Maps a slot to its matrix element, or returns false for a slot that
  // holds no element of this operand (e.g. metadata lanes the selector skips).
  using Formula = bool (*)(const Selectors&, Slot, Coord*);
  FragmentLayout(int regs_per_lane, int elems_per_reg, int elem_bits, int reg_bits, int batches,
                 int rows, int cols, const Selectors& selectors, Formula formula);

  int regs_per_lane() const { return regs_per_lane_; }
  int elems_per_reg() const { return elems_per_reg_; }
  int elem_bits() const { return elem_bits_; }
  int reg_bits() const { return reg_bits_; }
  int batches() const { return batches_; }
  int rows() const { return rows_; }
  int cols() const { return cols_; }
  int slot_count() const { return kLanes * regs_per_lane_ * elems_per_reg_; }
  int elem_count() const { return batches_ * rows_ * cols_; }

  bool coord_of(Slot slot, Coord* coord) const;
  Slot slot_of(Coord coord) const;

  Matrix gather(const Fragment& fragment) const;
  Fragment scatter(const Matrix& matrix) const;
  Fragment empty_fragment() const;
  // The same without allocating: gather_into writes elem_count() elements in
  // matrix order; scatter_into sizes `fragment` (reusing its storage) and
  // fills it from elem_count() elements.
  void gather_into(const Fragment& fragment, uint64_t* elems) const;
  void scatter_into(const uint64_t* elems, Fragment* fragment) const;
  // Index into Fragment::regs of the register holding matrix element `index`
  // ((batch * rows + row) * cols + col), and the element's bit offset in it.
  int reg_of_elem(int index) const { return int(reg_and_shift_of_elem_[index] >> 8); }
  int shift_of_elem(int index) const { return int(reg_and_shift_of_elem_[index] & 0xff); }
  // Packed operands whose registers each hold elems_per_reg() consecutive
  // elements in element order: row_run_regs()[row * chunks + chunk] is the
  // register (index into Fragment::regs) holding row `row`, columns
  // chunk * elems_per_reg() onwards; col_run_regs()[col * chunks + chunk]
  // likewise down column `col`. Empty where the layout is not like that
  // (or batches() > 1).
  const std::vector<int16_t>& row_run_regs() const { return row_run_regs_; }
  const std::vector<int16_t>& col_run_regs() const { return col_run_regs_; }
  // Whether matrix element i is register i whole (one element a register,
  // every register used): Fragment::regs is then the matrix in order.
  bool in_register_order() const { return in_register_order_; }

 private:
  int slot_index(Slot s) const {
    return (s.lane * regs_per_lane_ + s.reg) * elems_per_reg_ + s.elem;
  }
  int regs_per_lane_ = 0, elems_per_reg_ = 0, elem_bits_ = 0, reg_bits_ = 32;
  int batches_ = 0, rows_ = 0, cols_ = 0;
  std::vector<int32_t> elem_of_slot_;  // -1: slot unused
  std::vector<int32_t> slot_of_elem_;
  std::vector<uint32_t> reg_and_shift_of_elem_;  // register index << 8 | bit offset
  std::vector<int16_t> row_run_regs_, col_run_regs_;
  bool in_register_order_ = false;
};

// The layout of one operand of `instr`. Layouts are built once and cached;
// lookups after the first take no lock.
// kMeta exists only for sparse, kScaleA/kScaleB only for block-scaled
// instructions; kD is laid out as kC with d_type.
const FragmentLayout& fragment_layout(const Instr& instr, Operand op,
                                      const Selectors& selectors = {});

}  // namespace tcu
