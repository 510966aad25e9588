#include "tcu/encodings.h"

#include <array>
#include <stdexcept>

namespace tcu {
namespace {

// ---- the table --------------------------------------------------------------
// Floats: width = sign + exponent + fraction (rtl/tcu_pkg.sv's fp_width).
// ue4m3 is a byte whose bit 7 is not read (the decoders take the magnitude,
// as through abs()); every other format fills its container.
const std::vector<NumberFormat> kFormats = {
    // {type, width, container, is_float, has_sign, exp_bits, man_bits, bias, has_inf, nan}
    {ElemType::kS4, 4, 4, false, true, 0, 0, 0, false, NanCode::kNone},
    {ElemType::kU4, 4, 4, false, false, 0, 0, 0, false, NanCode::kNone},
    {ElemType::kE2m1, 4, 4, true, true, 2, 1, 1, false, NanCode::kNone},
    {ElemType::kUe8m0, 8, 8, true, false, 8, 0, 127, false, NanCode::kAllOnes},
    {ElemType::kUe4m3, 7, 8, true, false, 4, 3, 7, false, NanCode::kAllOnes},
    {ElemType::kF16, 16, 16, true, true, 5, 10, 15, true, NanCode::kIeee},
    {ElemType::kF32, 32, 32, true, true, 8, 23, 127, true, NanCode::kIeee},
    {ElemType::kF64, 64, 64, true, true, 11, 52, 1023, true, NanCode::kIeee},
    {ElemType::kS32, 32, 32, false, true, 0, 0, 0, false, NanCode::kNone},
};

// ---- the classes ------------------------------------------------------------
enum Kind {
  kZero,
  kPosZero,
  kNegZero,
  kSubnormal,
  kMin,
  kNormal,
  kLargest,
  kPosInf,
  kNegInf,
  kQnan,
  kSnan,
  kNan,
  kPositive,
  kNegative,
  kIntMax,
  kIntMin,
  kIgnored,
  kKinds
};
const char* const kKindNames[kKinds] = {"zero",   "pos_zero",    "neg_zero", "subnormal", "min",
                                        "normal", "largest",     "pos_inf",  "neg_inf",   "qnan",
                                        "snan",   "nan",         "positive", "negative",  "max",
                                        "min",    "ignored_bits"};

uint64_t ones(int bits) { return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1; }

uint64_t mix(uint64_t x) {  // splitmix64
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

std::vector<Kind> kinds_of(const NumberFormat& f) {
  std::vector<Kind> k;
  if (!f.is_float) {
    k = {kZero, kPositive};
    if (f.has_sign) k.push_back(kNegative);
    k.push_back(kIntMax);
    if (f.has_sign) k.push_back(kIntMin);
  } else {
    if (f.man_bits == 0) {
      k.push_back(kMin);  // exponent field 0 is the least normal (no zero, no subnormal)
    } else {
      if (f.has_sign)
        k.insert(k.end(), {kPosZero, kNegZero});
      else
        k.push_back(kZero);
      k.push_back(kSubnormal);
    }
    k.insert(k.end(), {kNormal, kLargest});
    if (f.has_inf) k.insert(k.end(), {kPosInf, kNegInf});
    if (f.nan == NanCode::kIeee) k.insert(k.end(), {kQnan, kSnan});
    if (f.nan == NanCode::kAllOnes) k.push_back(kNan);
  }
  if (f.container > f.width) k.push_back(kIgnored);
  return k;
}

// Per format: its kinds, their names, and each kind's index (-1: none).
struct Classes {
  std::vector<Kind> kinds;
  std::vector<std::string> names;
  std::array<int, kKinds> index{};
};

const Classes& classes(ElemType type) {
  static const std::vector<Classes> kAll = [] {
    std::vector<Classes> all;
    for (const NumberFormat& f : kFormats) {
      Classes c;
      c.kinds = kinds_of(f);
      c.index.fill(-1);
      for (size_t i = 0; i < c.kinds.size(); ++i) {
        c.names.push_back(kKindNames[c.kinds[i]]);
        c.index[c.kinds[i]] = int(i);
      }
      all.push_back(std::move(c));
    }
    return all;
  }();
  for (size_t i = 0; i < kFormats.size(); ++i)
    if (kFormats[i].type == type) return kAll[i];
  throw std::invalid_argument("encodings: no number format for this element type");
}

uint64_t sign_bit(const NumberFormat& f) { return f.has_sign ? uint64_t{1} << (f.width - 1) : 0; }
int magnitude_bits(const NumberFormat& f) { return f.width - (f.has_sign ? 1 : 0); }

// The largest finite magnitude's code.
uint64_t largest_magnitude(const NumberFormat& f) {
  switch (f.nan) {
    case NanCode::kIeee:
      return ((ones(f.exp_bits) - 1) << f.man_bits) | ones(f.man_bits);
    case NanCode::kAllOnes:
      return ones(magnitude_bits(f)) - 1;
    default:
      return ones(magnitude_bits(f));
  }
}

Kind classify_int(const NumberFormat& f, uint64_t v) {
  if (v == 0) return kZero;
  if (!f.has_sign) return v == ones(f.width) ? kIntMax : kPositive;
  if (v == ones(f.width - 1)) return kIntMax;
  if (v == uint64_t{1} << (f.width - 1)) return kIntMin;
  return (v >> (f.width - 1)) & 1 ? kNegative : kPositive;
}

Kind classify_float(const NumberFormat& f, uint64_t v) {
  const bool negative = (v & sign_bit(f)) != 0;
  const uint64_t magnitude = v & ones(magnitude_bits(f));
  const uint64_t exp = magnitude >> f.man_bits, man = magnitude & ones(f.man_bits);
  if (f.nan == NanCode::kAllOnes && magnitude == ones(magnitude_bits(f))) return kNan;
  if (exp == ones(f.exp_bits) && f.nan == NanCode::kIeee) {
    if (man == 0) return negative ? kNegInf : kPosInf;
    return (man >> (f.man_bits - 1)) & 1 ? kQnan : kSnan;
  }
  if (exp == 0) {
    if (f.man_bits == 0) return kMin;
    if (man != 0) return kSubnormal;
    return !f.has_sign ? kZero : negative ? kNegZero : kPosZero;
  }
  return magnitude == largest_magnitude(f) ? kLargest : kNormal;
}

Kind classify_kind(const NumberFormat& f, uint64_t raw) {
  raw &= ones(f.container);
  if (f.container > f.width && (raw >> f.width) != 0) return kIgnored;
  return f.is_float ? classify_float(f, raw) : classify_int(f, raw);
}

uint64_t encode(const NumberFormat& f, const Classes& c, Kind kind, uint64_t random) {
  const uint64_t sign = random & 1 ? sign_bit(f) : 0;
  const uint64_t r = mix(random);
  const uint64_t exp_all = ones(f.exp_bits) << f.man_bits;
  switch (kind) {
    case kZero:
    case kPosZero:
    case kMin:
      return 0;
    case kNegZero:
      return sign_bit(f);
    case kSubnormal:
      return sign | (1 + r % ones(f.man_bits));
    case kLargest:
      return sign | largest_magnitude(f);
    case kPosInf:
      return exp_all;
    case kNegInf:
      return sign_bit(f) | exp_all;
    case kQnan:
      return sign | exp_all | (uint64_t{1} << (f.man_bits - 1)) | (r & ones(f.man_bits - 1));
    case kSnan:
      return sign | exp_all | (1 + r % ones(f.man_bits - 1));
    case kNan:
      return ones(magnitude_bits(f));
    case kIntMax:
      return f.has_sign ? ones(f.width - 1) : ones(f.width);
    case kIntMin:
      return uint64_t{1} << (f.width - 1);
    case kIgnored: {  // another class's encoding with ignored bits set
      const Kind other = c.kinds[r % (c.kinds.size() - 1)];
      const uint64_t ignored = 1 + mix(r) % ones(f.container - f.width);
      return encode(f, c, other, mix(r + 1)) | (ignored << f.width);
    }
    default:
      break;  // normal, positive, negative: drawn
  }
  for (uint64_t i = 0; i < 64; ++i) {
    const uint64_t v = mix(r + i) & ones(f.width);
    if (classify_kind(f, v) == kind) return v;
  }
  // The least of the class (no draw landed in it).
  if (kind == kNormal) return sign | (uint64_t{1} << f.man_bits);
  return kind == kPositive ? 1 : ones(f.width);
}

}  // namespace

const std::vector<NumberFormat>& number_formats() { return kFormats; }

const NumberFormat& number_format(ElemType type) {
  for (const NumberFormat& f : kFormats)
    if (f.type == type) return f;
  throw std::invalid_argument("encodings: no number format for this element type");
}

const std::vector<std::string>& encoding_classes(ElemType type) { return classes(type).names; }

int classify_encoding(ElemType type, uint64_t raw) {
  return classes(type).index[classify_kind(number_format(type), raw)];
}

const std::string& encoding_class_name(ElemType type, uint64_t raw) {
  return classes(type).names[size_t(classify_encoding(type, raw))];
}

uint64_t encoding_of_class(ElemType type, int cls, uint64_t random) {
  const Classes& c = classes(type);
  if (cls < 0 || size_t(cls) >= c.kinds.size())
    throw std::out_of_range("encoding_of_class: no such class");
  return encode(number_format(type), c, c.kinds[size_t(cls)], random);
}

}  // namespace tcu
