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
  long passed = 0, failed = 0, engine_errors = 0;
  int details = 0;
  // Consecutive cases of one variant go to the engine as a batch, so a
  // pipelined engine overlaps them.
  constexpr size_t kBatch = 64;
  std::vector<MmaCase> batch;
  for (const std::string& file : files) {
    std::map<std::string, VariantCount> variants;
    auto flush = [&] {
      if (batch.empty()) return;
      const Instr& instr = batch.front().instr;
      const std::string variant = instr.ptx();
      auto& count = variants[variant];
      std::vector<WarpOperands> operands;
      for (const MmaCase& mc : batch) operands.push_back(mc.operands);
      const std::vector<Fragment> results = engine.execute_batch(instr, operands);
      for (const std::string& e : engine.take_errors()) {
        ++engine_errors;
        if (details++ < options.max_details) out << "  " << e << "\n";
      }
      const int bits = fragment_layout(instr, Operand::kD).reg_bits();
      for (size_t i = 0; i < batch.size(); ++i) {
        const MmaCase& mc = batch[i];
        bool ok = true;
        for (int lane = 0; lane < kLanes; ++lane)
          for (int reg = 0; reg < mc.d.regs_per_lane; ++reg) {
            const uint64_t want = mc.d.at(lane, reg), have = results[i].at(lane, reg);
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
      batch.clear();
    };
    try {
      VectorReader reader(file);
      MmaCase mc;
      while (reader.next(&mc)) {
        auto& count = variants[mc.instr.ptx()];
        if (count.order == 0) count.order = int(variants.size());
        try {
          validate_operands(mc.instr, mc.operands);
        } catch (const OperandError& e) {
          throw OperandError(mc.where() + ": case " + mc.id + ": " + e.what());
        }
        if (!batch.empty() && batch.front().instr.ptx() != mc.instr.ptx()) flush();
        batch.push_back(mc);
        if (batch.size() == kBatch) flush();
      }
      flush();
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
  if (engine_errors) out << engine_errors << " engine check(s) failed (timing or scoreboard)\n";
  out << passed << " passed, " << failed << " failed\n";
  return failed || engine_errors ? kExitMismatch : kExitOk;
}

}  // namespace tcu
