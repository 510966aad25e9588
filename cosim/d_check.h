// The D check: an instruction's destination registers as the lanes hold
// them against the reference's, apart from any timing.
#pragma once

#include <string>

#include "tcu/golden.h"

namespace tcu {

// The first differing register ("lane L d[R]: expected X, got Y", in the
// D type's register format), or empty if every register matches.
std::string d_mismatch(const Instr& instr, const Fragment& expected, const Fragment& got);

}  // namespace tcu
