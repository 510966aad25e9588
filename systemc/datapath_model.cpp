#include "datapath_model.h"

#include <stdexcept>

namespace tcu {
namespace {

// `width` bits at `lsb` of a port held as 32-bit words.
template <size_t N>
uint32_t field(const std::array<uint32_t, N>& words, int lsb, int width) {
  uint64_t v = words[size_t(lsb / 32)] >> (lsb % 32);
  if (lsb % 32 + width > 32) v |= uint64_t(words[size_t(lsb / 32) + 1]) << (32 - lsb % 32);
  return uint32_t(v) & ((1u << width) - 1);
}

}  // namespace

int wb_words(const WbPorts& ports, int d_words, WbWord* out, int* slots) {
  // The valid slots only (a beat of a short write-back holds few).
  int n = 0;
  for (int w = 0; w < kMaxWbWords / 32; ++w)
    for (uint32_t bits = ports.valid[size_t(w)]; bits; bits &= bits - 1) {
      const int s = 32 * w + __builtin_ctz(bits);
      if (s >= d_words) return n;
      if (slots) slots[n] = s;
      out[n++] = {int(field(ports.lane, 5 * s, 5)), int(field(ports.reg, 3 * s, 3)),
                  ports.data[size_t(s)]};
    }
  return n;
}

const DatapathConfig& datapath_config(const std::string& config) {
  for (const auto& [name, datapath] : datapath_configs())
    if (name == config) return datapath;
  throw std::invalid_argument("unknown datapath configuration '" + config + "'");
}

}  // namespace tcu
