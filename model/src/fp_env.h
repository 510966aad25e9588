// Internal: the host floating-point environment the f16 and f64 paths need.
#pragma once

#include <cfenv>
#include <cfloat>

namespace tcu {

// Excess precision (x87 without SSE) would round every step twice.
static_assert(FLT_EVAL_METHOD == 0, "the golden model needs float/double evaluated in their type");

// For its lifetime: the host rounds in `rounding` (FE_TONEAREST, ...); the
// caller's rounding mode comes back afterwards. Throws FpEnvironmentError if
// flush-to-zero or denormals-are-zero is on, since subnormal inputs and
// results would silently become zero. `who` names the caller in the message.
class HostFpMode {
 public:
  HostFpMode(int rounding, const char* who);
  ~HostFpMode();
  HostFpMode(const HostFpMode&) = delete;
  HostFpMode& operator=(const HostFpMode&) = delete;

 private:
  unsigned saved_ = 0;  // MXCSR on x86, else the fegetround() value
  bool changed_ = false;
};

}  // namespace tcu
