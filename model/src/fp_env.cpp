#include "fp_env.h"

#include <string>

#include "tcu/golden.h"

#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#define TCU_HAVE_MXCSR 1
#endif

namespace tcu {
namespace {

[[noreturn]] void refuse(const char* who, const char* what) {
  throw FpEnvironmentError(std::string(who) + ": the host floating-point environment has " + what +
                           " on, so subnormal values would become zero; something in this process "
                           "turned it on (a library built with -ffast-math does); turn it off "
                           "before calling the golden model");
}

#ifdef TCU_HAVE_MXCSR
constexpr unsigned kMxcsrFlushToZero = 0x8000;
constexpr unsigned kMxcsrDenormalsAreZero = 0x0040;
constexpr unsigned kMxcsrRoundingShift = 13;
constexpr unsigned kMxcsrRoundingMask = 3u << kMxcsrRoundingShift;

unsigned mxcsr_rounding(int rounding) {
  switch (rounding) {
    case FE_DOWNWARD:
      return 1u << kMxcsrRoundingShift;
    case FE_UPWARD:
      return 2u << kMxcsrRoundingShift;
    case FE_TOWARDZERO:
      return 3u << kMxcsrRoundingShift;
    default:
      return 0;
  }
}
#else
// The environment keeps subnormal inputs and results.
bool flushes_subnormals() {
  volatile double tiny = DBL_TRUE_MIN, smallest_normal = DBL_MIN, one = 1.0, half = 0.5;
  return tiny * one != DBL_TRUE_MIN || smallest_normal * half == 0.0;
}
#endif

}  // namespace

// On x86 the SSE unit does all float/double arithmetic (and glibc's fma),
// and it reads only MXCSR: that register is checked and set directly, since
// fegetround() reads the x87 control word, which need not agree with it.
HostFpMode::HostFpMode(int rounding, const char* who) {
#ifdef TCU_HAVE_MXCSR
  const unsigned csr = _mm_getcsr();
  if (csr & kMxcsrFlushToZero) refuse(who, "flush-to-zero (MXCSR.FTZ)");
  if (csr & kMxcsrDenormalsAreZero) refuse(who, "denormals-are-zero (MXCSR.DAZ)");
  const unsigned wanted = mxcsr_rounding(rounding);
  saved_ = csr & kMxcsrRoundingMask;
  if (saved_ != wanted) {
    _mm_setcsr((csr & ~kMxcsrRoundingMask) | wanted);
    changed_ = true;
  }
#else
  if (flushes_subnormals()) refuse(who, "flush-to-zero or denormals-are-zero");
  saved_ = unsigned(std::fegetround());
  if (int(saved_) != rounding) {
    if (std::fesetround(rounding) != 0 || std::fegetround() != rounding)
      throw FpEnvironmentError(std::string(who) + ": cannot set the host rounding mode");
    changed_ = true;
  }
#endif
}

HostFpMode::~HostFpMode() {
  if (!changed_) return;
#ifdef TCU_HAVE_MXCSR
  // Only the rounding bits: exception flags raised meanwhile stay raised.
  _mm_setcsr((_mm_getcsr() & ~kMxcsrRoundingMask) | saved_);
#else
  std::fesetround(int(saved_));
#endif
}

}  // namespace tcu
