#include "tcu/values.h"

#include <cmath>
#include <cstring>
#include <stdexcept>

#include "tcu/golden.h"

namespace tcu {
namespace {

double f32_value(uint32_t word) {
  float value;
  std::memcpy(&value, &word, sizeof value);
  return value;
}

uint32_t f32_word(float value) {
  uint32_t word;
  std::memcpy(&word, &value, sizeof word);
  return word;
}

}  // namespace

double element_value(ElemType type, uint64_t bits) {
  switch (type) {
    case ElemType::kF16:
      return f32_value(f16_to_f32(uint16_t(bits)));
    case ElemType::kF32:
      return f32_value(uint32_t(bits));
    case ElemType::kF64: {
      double value;
      std::memcpy(&value, &bits, sizeof value);
      return value;
    }
    case ElemType::kE2m1:
      return e2m1_halves(bits) / 2.0;
    default:
      throw std::invalid_argument("element_value: not a floating-point element type");
  }
}

uint64_t element_bits(ElemType type, double value) {
  uint64_t bits = 0;
  switch (type) {
    case ElemType::kF16:
      bits = f32_to_f16_rn(f32_word(float(value)));
      break;
    case ElemType::kF32:
      bits = f32_word(float(value));
      break;
    case ElemType::kF64:
      std::memcpy(&bits, &value, sizeof bits);
      break;
    default:
      throw std::invalid_argument("element_bits: not a floating-point accumulator type");
  }
  if (element_value(type, bits) != value && !(std::isnan(value)))
    throw std::domain_error("element_bits: value not exact in the element type");
  return bits;
}

}  // namespace tcu
