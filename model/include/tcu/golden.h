// The bit-exact golden model. Each family function works in matrix order and
// is named after the RTL unit that implements it (rtl/tcu_<name>.sv), so a
// reader can go from one to the other in one step.
#pragma once

#include <cstdint>
#include <stdexcept>

#include "tcu/instr.h"
#include "tcu/layout.h"

namespace tcu {

// Operands that are well-formed registers but break the instruction's rules:
// invalid sparse metadata, selectors out of range. what() says which.
class OperandError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Matrix-order operands. meta (sparse) and scale_a/scale_b (e2m1) are empty
// for the families that do not use them.
struct Operands {
  Matrix a, b, c;
  Matrix meta;
  Matrix scale_a, scale_b;
};

// The 32 lanes' source registers of one instruction, plus its immediates.
struct WarpOperands {
  Fragment a, b, c;
  Fragment e;                 // sparse metadata (one register per lane)
  Fragment scale_a, scale_b;  // block scales (one register per lane)
  Selectors selectors;
};

// Throws OperandError when a selector is outside its legal values.
void validate_selectors(const Instr& instr, const Selectors& selectors);

// Throws OperandError if the operands break the instruction's rules
// (selectors out of range, invalid sparse metadata).
void validate_operands(const Instr& instr, const WarpOperands& warp);

// Gathers the lanes' registers into matrix order (validating selectors).
Operands gather_operands(const Instr& instr, const WarpOperands& warp);

// D in matrix order. Throws OperandError for invalid sparse metadata.
Matrix golden_mma(const Instr& instr, const Operands& operands);

// D in the lanes' registers. Goes from the lanes' registers to D's through
// precomputed layout tables and fixed-size arrays (no Matrix); bit-identical
// to golden_execute_matrix. The f16 and f64 families run on the host's
// floating-point unit: they set the rounding mode they need for the call and
// throw FpEnvironmentError if flush-to-zero or denormals-are-zero is on.
Fragment golden_execute(const Instr& instr, const WarpOperands& warp);
// The same into *d, reusing its storage.
void golden_execute(const Instr& instr, const WarpOperands& warp, Fragment* d);
// The straightforward path: gather into matrices, golden_mma, scatter.
Fragment golden_execute_matrix(const Instr& instr, const WarpOperands& warp);

// The host's floating-point environment would change f16/f64 results
// (flush-to-zero or denormals-are-zero is on). what() says which and why.
class FpEnvironmentError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// ---- int4 (rtl/tcu_int4_dot.sv) ---------------------------------------------
int int4_value(uint64_t code, bool is_signed);
// Exact dot product of n 4-bit codes.
int64_t int4_dot(const uint64_t* a, const uint64_t* b, int n, bool a_signed, bool b_signed,
                 int b_stride = 1);
// C + dot, wrapping modulo 2^32 or clamped once to the int32 range.
uint32_t int4_accumulate(uint32_t c, int64_t dot, bool satfinite);
Matrix mma_int4(const Instr& instr, const Matrix& a, const Matrix& b, const Matrix& c);

// ---- sparse operand mux (rtl/tcu_sparse_mux.sv) -----------------------------
// Checks one 4-bit metadata nibble; returns nullptr when legal, else why not.
const char* sparse_meta_error(unsigned nibble, bool ordered);
// Expands the compressed A (rows x k/2) to the logical A (rows x k) with
// zeros where the metadata selects nothing. Throws OperandError naming the
// row and chunk of the first invalid nibble.
Matrix sparse_expand(const Instr& instr, const Matrix& a_compressed, const Matrix& meta);
// Throws the OperandError sparse_expand would for the first invalid
// metadata nibble (row-major); expands nothing.
void validate_sparse_meta(const Instr& instr, const Matrix& meta);

// ---- f16 path (rtl/tcu_f16_dot.sv) ------------------------------------------
uint32_t f16_to_f32(uint16_t h);     // exact widening
uint16_t f32_to_f16_rn(uint32_t f);  // round to nearest even, subnormals kept
inline constexpr uint32_t kF32CanonicalNan = 0x7fffffff;
inline constexpr uint16_t kF16CanonicalNan = 0x7fff;
// One row x column of one quad-pair computation, in the silicon's order.
// a, b: the four f16 codes a_k = A[row][k], b_k = B[k][col]; c: the C element
// as f32 bits (already widened if C is f16).
uint32_t f16_dot_f32(const uint16_t a[4], const uint16_t b[4], uint32_t c);
uint16_t f16_dot_f16(const uint16_t a[4], const uint16_t b[4], uint16_t c);
Matrix mma_f16(const Instr& instr, const Matrix& a, const Matrix& b, const Matrix& c);

// ---- f64 path (rtl/tcu_f64_fma.sv, rtl/tcu_f64_dot.sv) ----------------------
inline constexpr uint64_t kF64DefaultNan = 0xfff8000000000000ull;
// One IEEE binary64 fused multiply-add a*b + c in the given mode, with the
// DMMA's NaN rules (B's NaN, then C's, then A's; quieted, payload kept).
uint64_t f64_fma(uint64_t a, uint64_t b, uint64_t c, Rounding mode);
uint64_t f64_dot(const uint64_t a[4], const uint64_t b[4], uint64_t c, Rounding mode);
Matrix mma_f64(const Instr& instr, const Matrix& a, const Matrix& b, const Matrix& c);

// ---- block-scaled e2m1 (rtl/tcu_e2m1_dot.sv) --------------------------------
// One D element: a row of A (64 e2m1 codes), a column of B (64 codes, stride
// b_stride), that row's and column's scale bytes (scale_blocks() each), C.
uint32_t e2m1_dot(const Instr& instr, const uint64_t* a, const uint64_t* b, int b_stride,
                  const uint64_t* scale_a, const uint64_t* scale_b, int scale_b_stride, uint32_t c);
Matrix mma_e2m1(const Instr& instr, const Matrix& a, const Matrix& b, const Matrix& c,
                const Matrix& scale_a, const Matrix& scale_b);

}  // namespace tcu
