#include "tcu/golden.h"

#include <string>

#include "lanes.h"

namespace tcu {

void validate_selectors(const Instr& instr, const Selectors& sel) {
  auto out_of_range = [](const char* name, int value, const char* legal) {
    throw OperandError(std::string(name) + " " + std::to_string(value) +
                       " is out of range (legal: " + legal + ")");
  };
  if (instr.sparse() && (sel.sparsity < 0 || sel.sparsity > 1))
    out_of_range("sparsity selector", sel.sparsity, "0 or 1 for m16n8k64 int4");
  if (!instr.block_scaled()) return;
  if (sel.thread_id_a < 0 || sel.thread_id_a > 1)
    out_of_range("thread_id_a", sel.thread_id_a, "0 or 1");
  if (sel.thread_id_b < 0 || sel.thread_id_b > 3)
    out_of_range("thread_id_b", sel.thread_id_b, "0..3");
  const bool four_x = instr.scale_vec == ScaleVec::k4X;
  const char* legal_byte = four_x ? "0 for .scale_vec::4X" : "0 or 2 for .scale_vec::2X";
  for (auto [name, value] :
       {std::pair{"byte_id_a", sel.byte_id_a}, std::pair{"byte_id_b", sel.byte_id_b}}) {
    const bool ok = four_x ? value == 0 : (value == 0 || value == 2);
    if (!ok) out_of_range(name, value, legal_byte);
  }
}

Operands gather_operands(const Instr& instr, const WarpOperands& warp) {
  validate_selectors(instr, warp.selectors);
  Operands ops;
  ops.a = fragment_layout(instr, Operand::kA).gather(warp.a);
  ops.b = fragment_layout(instr, Operand::kB).gather(warp.b);
  ops.c = fragment_layout(instr, Operand::kC).gather(warp.c);
  if (instr.sparse())
    ops.meta = fragment_layout(instr, Operand::kMeta, warp.selectors).gather(warp.e);
  if (instr.block_scaled()) {
    ops.scale_a = fragment_layout(instr, Operand::kScaleA, warp.selectors).gather(warp.scale_a);
    ops.scale_b = fragment_layout(instr, Operand::kScaleB, warp.selectors).gather(warp.scale_b);
  }
  return ops;
}

void validate_operands(const Instr& instr, const WarpOperands& warp) {
  validate_selectors(instr, warp.selectors);
  // Only sparse metadata can be invalid: A, B, C and the scales are not read.
  if (instr.sparse())
    validate_sparse_meta(instr,
                         fragment_layout(instr, Operand::kMeta, warp.selectors).gather(warp.e));
}

Matrix golden_mma(const Instr& instr, const Operands& ops) {
  switch (instr.family) {
    case Family::kInt4Dense:
      return mma_int4(instr, ops.a, ops.b, ops.c);
    case Family::kInt4Sparse:
      return mma_int4(instr, sparse_expand(instr, ops.a, ops.meta), ops.b, ops.c);
    case Family::kF16:
      return mma_f16(instr, ops.a, ops.b, ops.c);
    case Family::kF64:
      return mma_f64(instr, ops.a, ops.b, ops.c);
    case Family::kE2m1:
      return mma_e2m1(instr, ops.a, ops.b, ops.c, ops.scale_a, ops.scale_b);
  }
  return {};
}

Fragment golden_execute_matrix(const Instr& instr, const WarpOperands& warp) {
  const Matrix d = golden_mma(instr, gather_operands(instr, warp));
  return fragment_layout(instr, Operand::kD).scatter(d);
}

void golden_execute(const Instr& instr, const WarpOperands& warp, Fragment* d) {
  switch (instr.family) {
    case Family::kInt4Dense:
    case Family::kInt4Sparse:
      return execute_int4(instr, warp, d);
    case Family::kF16:
      return execute_f16(instr, warp, d);
    case Family::kF64:
      return execute_f64(instr, warp, d);
    case Family::kE2m1:
      return execute_e2m1(instr, warp, d);
  }
}

Fragment golden_execute(const Instr& instr, const WarpOperands& warp) {
  Fragment d;
  golden_execute(instr, warp, &d);
  return d;
}

}  // namespace tcu
