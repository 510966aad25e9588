#include "replay.h"

#include <algorithm>
#include <map>

#include "exit_codes.h"
#include "tcu/vectors.h"

namespace tcu {
namespace {

struct VariantCount {
  int order = 0;
  long passed = 0, failed = 0;
};

}  // namespace

int replay(Engine& engine, const std::vector<std::string>& files, const ReplayOptions& options,
           std::ostream& out, std::ostream& err) {
  long passed = 0, failed = 0;
  int details = 0;
  for (const std::string& file : files) {
    std::map<std::string, VariantCount> variants;
    try {
      VectorReader reader(file);
      MmaCase mc;
      while (reader.next(&mc)) {
        const std::string variant = mc.instr.ptx();
        auto& count = variants[variant];
        if (count.order == 0) count.order = int(variants.size());
        Fragment got;
        try {
          got = engine.execute(mc.instr, mc.operands);
        } catch (const OperandError& e) {
          throw OperandError(mc.where() + ": case " + mc.id + ": " + e.what());
        }
        const int bits = fragment_layout(mc.instr, Operand::kD).reg_bits();
        bool ok = true;
        for (int lane = 0; lane < kLanes; ++lane)
          for (int reg = 0; reg < mc.d.regs_per_lane; ++reg) {
            const uint64_t want = mc.d.at(lane, reg), have = got.at(lane, reg);
            if (want == have) continue;
            ok = false;
            if (details++ < options.max_details)
              out << "  mismatch: " << variant << " case " << mc.id << " (" << mc.where()
                  << ") lane " << lane << " d[" << reg << "]: expected "
                  << format_register(want, bits) << ", got " << format_register(have, bits) << "\n";
          }
        (ok ? count.passed : count.failed)++;
        (ok ? passed : failed)++;
      }
    } catch (const VectorError& e) {
      err << "error: " << e.what() << "\n";
      return kExitBadVectorFile;
    } catch (const InstrError& e) {
      err << "error: " << e.what() << "\n";
      return kExitBadInstruction;
    } catch (const OperandError& e) {
      err << "error: " << e.what() << "\n";
      return kExitBadOperand;
    }
    std::vector<std::pair<int, std::string>> order;
    for (const auto& [name, count] : variants) order.emplace_back(count.order, name);
    std::sort(order.begin(), order.end());
    out << file << " [" << engine.name() << "]\n";
    for (const auto& [rank, name] : order) {
      const auto& c = variants[name];
      out << "  " << (c.failed ? "FAIL " : "pass ") << c.passed << "/" << c.passed + c.failed
          << "  " << name << "\n";
    }
  }
  out << passed << " passed, " << failed << " failed\n";
  return failed ? kExitMismatch : kExitOk;
}

}  // namespace tcu
