// Random register contents for `tcu run`: every case follows from
// (seed, variant, case index) alone, so any failure re-runs on its own.
#pragma once

#include <cstdint>

#include "tcu/golden.h"

namespace tcu {

// The default chance that an operand of a random case takes encodings of
// its format's classes (`tcu run --special-rate`).
constexpr double kDefaultSpecialRate = 0.25;

// Fills all source registers and immediates of one legal case of `instr`.
// Mixes four recipes per case (moderate values, arbitrary bit patterns,
// sprinkled specials, small integers); int accumulators near the int32
// limits; legal sparse metadata with junk in the lanes the selector skips;
// legal scale selectors with junk in the bytes and lanes they skip. Then,
// with probability `special_rate` for each operand (A, B, C, scale A,
// scale B) on its own, one to four of its elements, at random places, take
// encodings of classes drawn uniformly from its format's
// (tcu/encodings.h: every class of every format, the bits a format ignores
// included). One case in 32 is a directed case instead (generator.cpp).
WarpOperands generate_operands(const Instr& instr, uint64_t seed, uint64_t index,
                               double special_rate = kDefaultSpecialRate);
// The same case into `out`, whose registers' storage is reused (a run
// generates case after case into the same operands without allocating).
void generate_operands(const Instr& instr, uint64_t seed, uint64_t index, double special_rate,
                       WarpOperands* out);

}  // namespace tcu
