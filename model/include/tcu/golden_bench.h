// Throughput of the golden model: golden_execute calls per second on one core
// for one instruction variant, operand generation excluded.
#pragma once

#include <cstdint>

#include "tcu/instr.h"

namespace tcu {

// Generates a pool of random operands for `instr` (generate_operands with
// `seed`), then calls golden_execute over the pool, round after round, for
// about `seconds` of wall-clock time. Returns instructions per second.
double golden_rate(const Instr& instr, double seconds, uint64_t seed = 1);

}  // namespace tcu
