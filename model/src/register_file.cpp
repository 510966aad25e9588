#include "tcu/register_file.h"

#include <algorithm>

namespace tcu {
namespace {

int ceil_div(int a, int b) { return (a + b - 1) / b; }

void append_registers(const Instr& instr, Operand op, std::vector<WarpRegister>* out) {
  const FragmentLayout& layout = fragment_layout(instr, op);
  const int words = layout.regs_per_lane() * (layout.reg_bits() / 32);
  for (int reg = 0; reg < words; ++reg) out->push_back({op, reg});
}

void append_word(const std::vector<WarpRegister>& registers, int word,
                 std::vector<RegWord>* cycle) {
  const WarpRegister& r = registers[word / kLanes];
  cycle->push_back({r.operand, word % kLanes, r.reg});
}

}  // namespace

std::vector<WarpRegister> source_registers(const Instr& instr) {
  std::vector<WarpRegister> registers;
  for (Operand op : {Operand::kA, Operand::kB, Operand::kC})
    append_registers(instr, op, &registers);
  if (instr.sparse()) registers.push_back({Operand::kMeta, 0});
  if (instr.block_scaled()) {
    registers.push_back({Operand::kScaleA, 0});
    registers.push_back({Operand::kScaleB, 0});
  }
  return registers;
}

std::vector<WarpRegister> dest_registers(const Instr& instr) {
  std::vector<WarpRegister> registers;
  append_registers(instr, Operand::kD, &registers);
  return registers;
}

int collect_cycles(const Instr& instr, const FrontEndConfig& rf) {
  const int words = source_words(instr);
  return std::max(ceil_div(words, rf.rf_regs_per_cycle),
                  ceil_div(words / kLanes, rf.rf_banks * rf.rf_read_ports));
}

int writeback_cycles(const Instr& instr, const FrontEndConfig& rf) {
  const int words = dest_words(instr);
  return std::max(ceil_div(words, rf.rf_regs_per_cycle),
                  ceil_div(words / kLanes, rf.rf_banks * rf.rf_write_ports));
}

RegSchedule collect_schedule(const Instr& instr, const FrontEndConfig& rf) {
  const std::vector<WarpRegister> registers = source_registers(instr);
  const int total = int(registers.size()) * kLanes;
  const int reads_per_cycle = rf.rf_banks * rf.rf_read_ports;
  RegSchedule schedule;
  schedule.reserve(size_t(collect_cycles(instr, rf)));
  int forwarded = 0;
  for (int cycle = 0; forwarded < total; ++cycle) {
    // Words of the registers read by the end of this cycle.
    const long read =
        long(kLanes) * std::min<long>(long(cycle + 1) * reads_per_cycle, long(registers.size()));
    const int end = int(std::min<long>(read, long(forwarded) + rf.rf_regs_per_cycle));
    std::vector<RegWord>& words = schedule.emplace_back();
    words.reserve(size_t(end - forwarded));
    for (; forwarded < end; ++forwarded) append_word(registers, forwarded, &words);
  }
  return schedule;
}

std::vector<int> writeback_arrivals(const Instr& instr, const FrontEndConfig& rf) {
  const int total = dest_words(instr);
  std::vector<int> arrived(size_t(writeback_cycles(instr, rf)));
  for (size_t cycle = 0; cycle < arrived.size(); ++cycle)
    arrived[cycle] = int(std::min<long>(total, long(cycle + 1) * rf.rf_regs_per_cycle));
  return arrived;
}

RegSchedule writeback_schedule(const Instr& instr, const FrontEndConfig& rf) {
  const std::vector<WarpRegister> registers = dest_registers(instr);
  const std::vector<int> arrived = writeback_arrivals(instr, rf);
  RegSchedule schedule(arrived.size());
  for (size_t cycle = 0, word = 0; cycle < arrived.size(); ++cycle) {
    std::vector<RegWord>& words = schedule[cycle];
    words.reserve(size_t(arrived[cycle]) - word);
    for (; word < size_t(arrived[cycle]); ++word) append_word(registers, int(word), &words);
  }
  return schedule;
}

std::string describe_banks(const FrontEndConfig& rf) {
  if (rf == FrontEndConfig{rf.rf_regs_per_cycle}) return "";
  return std::to_string(rf.rf_banks) + " bank(s) of " + std::to_string(rf.rf_read_ports) +
         " read / " + std::to_string(rf.rf_write_ports) + " write port(s)";
}

}  // namespace tcu
