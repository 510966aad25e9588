// What rounding did to each element of a floating-point D: exact, inexact,
// a tie (the functional coverage's d.exact, d.inexact and d.tie bins,
// coverage.cpp). Every step of an element's arithmetic (as
// ../shared/vectors/README.md states it per family) is evaluated exactly
// with GNU MPFR and rounded to its format, independently of the golden
// model's arithmetic (f16.cpp, f64.cpp, e2m1.cpp), which the tests compare
// it with. Part of the tcu_coverage library, not of tcu_model: the C API
// library (libtcu_golden) does not link MPFR.
#pragma once

#include <mpfr.h>

#include <cstdint>
#include <vector>

#include "tcu/golden.h"

namespace tcu {

struct RoundingEvents {
  // Every input of the element (its A row, B column, C; e2m1: and its
  // scales) finite and not NaN, and D not NaN: the events below are
  // defined. Otherwise the element has no rounding events.
  bool classified = false;
  // Some step's exact value was not representable in the step's format
  // (overflow included: IEEE 754 signals inexact with it). e2m1: D is not
  // the exact A.B+C.
  bool inexact = false;
  // Some step's exact value lay exactly halfway between two adjacent
  // values of its format (a midpoint: what round-half-even decides, and
  // the half-ulp corner of .rz/.rm/.rp). Never set for e2m1.
  bool tie = false;
  // f16 and f64: D's bits as these steps rounded them (valid when
  // has_value; false after a non-finite intermediate of the f16 steps and
  // for e2m1, whose D is compared, not computed).
  bool has_value = false;
  uint64_t value = 0;
};

// One per element of D (matrix order: batch, row, column), every step of
// every element evaluated. `d` is the D that the events of e2m1 are judged
// on (f16, f64: unused).
std::vector<RoundingEvents> rounding_events(const Instr& instr, const Operands& ops,
                                            const Matrix& d);

// Whether some element of D is exact, some inexact, some a tie (what the
// coverage samples): the same steps, but an element stops at its first
// inexact step once a tie needs no more looking for, and the instruction
// once all three are known. f16: the elements of the
// first quad pair's 8x8 product only (D's batch 0).
struct RoundingSummary {
  bool exact = false, inexact = false, tie = false;
  // Some element of D is a zero (either sign) although its exact value is
  // not: a step underflowed to zero, or cancelled after a rounded step
  // (every zero element of D looked at, whatever stopped the rest).
  bool inexact_zero = false;
};
RoundingSummary summarize_rounding(const Instr& instr, const Operands& ops, const Matrix& d);

// An IEEE 754 binary format.
struct FpFormat {
  int exponent_bits, fraction_bits;
  int width() const { return 1 + exponent_bits + fraction_bits; }
  int precision() const { return fraction_bits + 1; }
  int max_exponent() const { return (1 << (exponent_bits - 1)) - 1; }
  int min_exponent() const { return 1 - max_exponent(); }
};
constexpr FpFormat kBinary16{5, 10}, kBinary32{8, 23}, kBinary64{11, 52};

// `x` (finite) rounded once to `format` in mode `rnd` (RNDN, RNDZ, RNDD,
// RNDU), subnormals kept, overflow as IEEE 754 says for the mode; the
// format's bits. From MPFR's own rounding at the precision the result's
// binade allows (binary16 has no mpfr_get_*; the tests hold this to
// mpfr_get_d and mpfr_get_flt for the other two).
uint64_t round_to_format(mpfr_srcptr x, FpFormat format, mpfr_rnd_t rnd);

// One step: its exact value (finite) rounded to `format` in `rnd`, and what
// that did.
struct StepRounding {
  uint64_t bits = 0;
  bool inexact = false, tie = false;
};
// From the exact value's binade and lowest set bit against the format's
// quantum q there (subnormals: the smallest subnormal): exact when the
// lowest bit weighs q or more (and the binade is not past the largest),
// a tie when it weighs q/2. What the steps use (no neighbours to compute).
StepRounding round_step(mpfr_srcptr exact, FpFormat format, mpfr_rnd_t rnd);
// The same from the neighbours: the value rounded down and up (MPFR's
// conversions), exact when they agree, a tie when the exact value is their
// midpoint (an infinite neighbour standing for +-2^(max_exponent+1)). The
// tests' reference for round_step.
StepRounding round_step_by_neighbours(mpfr_srcptr exact, FpFormat format, mpfr_rnd_t rnd);

}  // namespace tcu
