// Random register contents for `tcu run`: every case follows from
// (seed, variant, case index) alone, so any failure re-runs on its own.
#pragma once

#include <cstdint>

#include "tcu/golden.h"

namespace tcu {

// Fills all source registers and immediates of one legal case of `instr`.
// Mixes four recipes per case (moderate values, arbitrary bit patterns,
// sprinkled specials, small integers); int accumulators near the int32
// limits; legal sparse metadata with junk in the lanes the selector skips;
// legal scale selectors with junk in the bytes and lanes they skip.
WarpOperands generate_operands(const Instr& instr, uint64_t seed, uint64_t index);

}  // namespace tcu
