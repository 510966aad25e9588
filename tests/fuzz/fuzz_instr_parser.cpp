// libFuzzer target: the PTX instruction parser. An accepted spelling must
// print back to a spelling that parses to the same instruction.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "tcu/instr.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const tcu::Instr instr = tcu::parse_ptx(text);
    if (tcu::parse_ptx(instr.ptx()).ptx() != instr.ptx()) std::abort();
  } catch (const tcu::InstrError&) {
  }
  return 0;
}
