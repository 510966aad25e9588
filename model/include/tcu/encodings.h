// The number formats of every operand (elements, scales, accumulators) as
// one table, and the encoding classes each format's decoder tells apart,
// derived from the table: the random generator draws from the classes
// (generator.cpp), the functional coverage's operand and scale bins are
// the classes (coverage.cpp), and tests/test_encodings.cpp checks the
// table's floating-point columns and integer widths against the RTL
// package's (rtl/tcu_pkg.sv).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tcu/instr.h"

namespace tcu {

// Which encodings of a format are NaN.
enum class NanCode {
  kNone,     // none (integers, e2m1)
  kIeee,     // exponent all ones and a nonzero fraction: quiet with the
             // fraction's top bit set, signalling without
  kAllOnes,  // the magnitude all ones, and only it (ue8m0 0xff, ue4m3 0x7f)
};

struct NumberFormat {
  ElemType type;     // its name: to_string(type)
  int width;         // bits the format reads
  int container;     // bits it occupies in a register (its nibble, byte, half or word)
  bool is_float;
  bool has_sign;  // a sign bit (the top of `width`), or two's complement for integers
  int exp_bits, man_bits, bias;  // floats only
  bool has_inf;                  // exponent all ones and fraction zero: an infinity
  NanCode nan;
};

// The table: every format of every operand, one row each.
const std::vector<NumberFormat>& number_formats();
const NumberFormat& number_format(ElemType type);

// The classes of `type`'s encodings, in a fixed order, from its row of the
// table. Floats: zeros (pos_zero, neg_zero, or zero without a sign),
// subnormal, the least exponent without a fraction (min, as ue8m0's 0x00),
// normal, largest (the largest finite magnitude, either sign), pos_inf,
// neg_inf, each NaN encoding (qnan, snan; nan), and ignored_bits (a bit of
// the container outside `width` set, as ue4m3's bit 7, whatever the rest).
// Integers: zero, positive, negative, max, min.
const std::vector<std::string>& encoding_classes(ElemType type);

// The class of a raw encoding (the low `container` bits of `raw`; the bits
// above are not looked at): an index into encoding_classes(type).
int classify_encoding(ElemType type, uint64_t raw);
const std::string& encoding_class_name(ElemType type, uint64_t raw);

// An encoding of class `cls` (an index into encoding_classes(type)), the
// free bits (sign, fraction, payload, ...) taken from `random`; every bit
// above `container` zero. classify_encoding(type, result) == cls.
uint64_t encoding_of_class(ElemType type, int cls, uint64_t random);

}  // namespace tcu
