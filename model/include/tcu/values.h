// Element codes as numbers: the element types' codecs, for tools that
// reason about matrices rather than register bits (`tcu gemm`'s reference
// and its messages). The model's own conversions underneath: f16 through
// f16_to_f32 / f32_to_f16_rn, e2m1 through the table the e2m1 dot uses,
// int4 through int4_value.
#pragma once

#include <cstdint>

#include "tcu/instr.h"

namespace tcu {

// The value of an f16, f32, f64 or e2m1 code (the low bits of `bits`);
// throws std::invalid_argument for another type.
double element_value(ElemType type, uint64_t bits);
// The f16, f32 or f64 code of `value`, which the type must hold exactly;
// throws std::domain_error if it does not, std::invalid_argument for
// another type.
uint64_t element_bits(ElemType type, double value);
// An e2m1 code's value in halves (-12 .. 12).
int e2m1_halves(uint64_t code);

}  // namespace tcu
