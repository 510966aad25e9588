// libFuzzer target: one vector line, parsed and (if well-formed) executed
// on the golden model. Anything but a clean error is a finding.
#include <cstddef>
#include <cstdint>
#include <string>

#include "tcu/vectors.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  tcu::MmaCase mma_case;
  try {
    tcu::parse_case(text, "fuzz", 1, &mma_case);
    tcu::golden_execute(mma_case.instr, mma_case.operands);
  } catch (const tcu::VectorError&) {
  } catch (const tcu::InstrError&) {
  } catch (const tcu::OperandError&) {
  }
  return 0;
}
