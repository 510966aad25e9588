// The mma instructions in scope, parsed from their PTX spelling.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

// tcu::Family, ElemType, Rounding, Operand and their names (to_string): the
// spec's enumerations (spec/config.toml [[enum]]; the RTL's tcu_pkg uses the
// same codes).
#include "tcu/spec_enums.h"

namespace tcu {

enum class MatrixLayout { kRow, kCol };
enum class ScaleVec { kNone, k2X, k4X };

struct Shape {
  int m = 0, n = 0, k = 0;
  bool operator==(const Shape& o) const { return m == o.m && n == o.n && k == o.k; }
};

struct Instr {
  Family family = Family::kInt4Dense;
  Shape shape;
  MatrixLayout a_layout = MatrixLayout::kRow;
  MatrixLayout b_layout = MatrixLayout::kCol;
  ElemType a_type = ElemType::kS4, b_type = ElemType::kS4;
  ElemType c_type = ElemType::kS32, d_type = ElemType::kS32;
  bool satfinite = false;
  Rounding rounding = Rounding::kRn;
  bool explicit_rounding = false;  // .rn spelled out (same numerics as none)
  bool ordered_metadata = false;   // mma.sp::ordered_metadata
  ScaleVec scale_vec = ScaleVec::kNone;
  bool explicit_scale_vec = false;
  bool mxf4nvf4 = false;  // .kind::mxf4nvf4 (else .kind::mxf4)
  ElemType scale_type = ElemType::kUe8m0;

  // Number of independent m x n x k computations in one instruction:
  // 4 for m8n8k4 .f16 (one per quad pair), 1 otherwise.
  int batches() const { return family == Family::kF16 ? 4 : 1; }
  bool sparse() const { return family == Family::kInt4Sparse; }
  bool block_scaled() const { return family == Family::kE2m1; }
  // K elements covered by one scale factor (e2m1 only).
  int scale_block() const { return scale_vec == ScaleVec::k4X ? 16 : 32; }
  int scale_blocks() const { return shape.k / scale_block(); }
  // Multiply-accumulates of the logical (dense) computation.
  long macs() const { return static_cast<long>(batches()) * shape.m * shape.n * shape.k; }
  // The canonical PTX spelling (what parse_ptx accepts, normalised).
  std::string ptx() const;
};

// Thrown for a PTX spelling that is not one of the legal instructions in
// scope; what() says why.
class InstrError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Accepts exactly the legal spellings of the instructions in scope, with or
// without a trailing ';'. Throws InstrError naming the offending part.
Instr parse_ptx(std::string_view text);

// Every legal variant in scope, each once, in a fixed order (used by
// `tcu run` without --ptx and by the tests).
const std::vector<Instr>& all_variants();

int elem_bits(ElemType t);

}  // namespace tcu
