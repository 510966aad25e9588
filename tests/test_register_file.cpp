// The register file / operand collector schedules (tcu/register_file.h):
// every word once, the per-cycle bounds, bank-port feasibility checked from
// the schedule alone, and lengths against hand-computed cycle counts.
#include <algorithm>
#include <catch2/catch.hpp>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "tcu/register_file.h"

using tcu::Operand;
using tcu::parse_ptx;

namespace {

const tcu::Instr kInt4 = parse_ptx("mma.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32");
const tcu::Instr kSparse = parse_ptx("mma.sp.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32");
const tcu::Instr kF64 = parse_ptx("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64");
const tcu::Instr kF16F32 = parse_ptx("mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32");
const tcu::Instr kE2m1 =
    parse_ptx("mma.sync.aligned.m16n8k64.row.col.kind::mxf4.block_scale.f32.e2m1.e2m1.f32.ue8m0");

tcu::FrontEndConfig rf(int words, int banks, int read_ports, int write_ports = 1) {
  tcu::FrontEndConfig c;
  c.rf_regs_per_cycle = words;
  c.rf_banks = banks;
  c.rf_read_ports = read_ports;
  c.rf_write_ports = write_ports;
  return c;
}

int ceil_div(int a, int b) { return (a + b - 1) / b; }

using Key = std::tuple<int, int, int>;  // operand, lane, reg
Key key(const tcu::RegWord& w) { return {int(w.operand), w.lane, w.reg}; }

// The 32-bit words of a fragment per lane, from its layout.
int lane_words(const tcu::Instr& instr, Operand op) {
  const tcu::FragmentLayout& layout = tcu::fragment_layout(instr, op);
  return layout.regs_per_lane() * layout.reg_bits() / 32;
}

std::set<Key> expected_words(const tcu::Instr& instr, const std::vector<Operand>& ops) {
  std::set<Key> words;
  for (Operand op : ops) {
    const bool one_register =
        op == Operand::kMeta || op == Operand::kScaleA || op == Operand::kScaleB;
    const int regs = one_register ? 1 : lane_words(instr, op);
    for (int lane = 0; lane < tcu::kLanes; ++lane)
      for (int reg = 0; reg < regs; ++reg) words.insert({int(op), lane, reg});
  }
  return words;
}

std::vector<Operand> source_operands(const tcu::Instr& instr) {
  std::vector<Operand> ops = {Operand::kA, Operand::kB, Operand::kC};
  if (instr.sparse()) ops.push_back(Operand::kMeta);
  if (instr.block_scaled()) ops.insert(ops.end(), {Operand::kScaleA, Operand::kScaleB});
  return ops;
}

// Register numbers in allocation order: operands in order, a fragment's
// words in order.
std::map<std::pair<int, int>, int> register_numbers(const tcu::Instr& instr,
                                                    const std::vector<Operand>& ops) {
  std::map<std::pair<int, int>, int> numbers;
  int next = 0;
  for (Operand op : ops) {
    const bool one_register =
        op == Operand::kMeta || op == Operand::kScaleA || op == Operand::kScaleB;
    const int regs = one_register ? 1 : lane_words(instr, op);
    for (int reg = 0; reg < regs; ++reg) numbers[{int(op), reg}] = next++;
  }
  return numbers;
}

// Every word once, at most rf_regs_per_cycle a cycle; the cycle of each
// register's first (or last) word.
std::map<int, int> check_words(const tcu::RegSchedule& schedule, const tcu::Instr& instr,
                               const std::vector<Operand>& ops, const tcu::FrontEndConfig& c,
                               bool last) {
  const auto numbers = register_numbers(instr, ops);
  std::set<Key> seen;
  std::map<int, int> cycle_of_register;
  for (size_t cycle = 0; cycle < schedule.size(); ++cycle) {
    CHECK(int(schedule[cycle].size()) <= c.rf_regs_per_cycle);
    for (const tcu::RegWord& w : schedule[cycle]) {
      CHECK(seen.insert(key(w)).second);
      const int number = numbers.at({int(w.operand), w.reg});
      auto [it, added] = cycle_of_register.emplace(number, int(cycle));
      if (!added && last) it->second = std::max(it->second, int(cycle));
      if (!added && !last) it->second = std::min(it->second, int(cycle));
    }
  }
  CHECK(seen == expected_words(instr, ops));
  return cycle_of_register;
}

// Registers per bank (register i in bank i % banks).
std::map<int, std::vector<int>> by_bank(const std::map<int, int>& cycle_of_register, int banks) {
  std::map<int, std::vector<int>> cycles;
  for (const auto& [reg, cycle] : cycle_of_register) cycles[reg % banks].push_back(cycle);
  return cycles;
}

// The largest per-bank count of registers divided by the ports, rounded up.
int bank_bound(int registers, int banks, int ports) {
  std::map<int, int> count;
  for (int r = 0; r < registers; ++r) ++count[r % banks];
  int most = 0;
  for (const auto& [bank, n] : count) most = std::max(most, n);
  return ceil_div(most, ports);
}

void check_collect(const tcu::Instr& instr, const tcu::FrontEndConfig& c) {
  const tcu::RegSchedule schedule = tcu::collect_schedule(instr, c);
  const auto first_use = check_words(schedule, instr, source_operands(instr), c, false);
  // A read plan exists: a bank reads its registers by their first forwarding
  // cycle, ports a cycle from cycle 0, iff the k-th earliest deadline is at
  // least k / ports.
  for (auto& [bank, deadlines] : by_bank(first_use, c.rf_banks)) {
    std::sort(deadlines.begin(), deadlines.end());
    for (size_t k = 0; k < deadlines.size(); ++k) CHECK(deadlines[k] >= int(k) / c.rf_read_ports);
  }
  const int words = tcu::source_words(instr);
  // Neither bound can be beaten, and the schedule meets the larger.
  const int want = std::max(ceil_div(words, c.rf_regs_per_cycle),
                            bank_bound(words / 32, c.rf_banks, c.rf_read_ports));
  CHECK(int(schedule.size()) == want);
  CHECK(tcu::collect_cycles(instr, c) == want);
}

void check_writeback(const tcu::Instr& instr, const tcu::FrontEndConfig& c) {
  const tcu::RegSchedule schedule = tcu::writeback_schedule(instr, c);
  const auto complete = check_words(schedule, instr, {Operand::kD}, c, true);
  // The writes fit: a bank writes each register at or after its last word's
  // cycle and by the schedule's last cycle, ports a cycle: the k-th latest
  // arrival is at most last - k / ports.
  const int last = int(schedule.size()) - 1;
  for (auto& [bank, arrivals] : by_bank(complete, c.rf_banks)) {
    std::sort(arrivals.rbegin(), arrivals.rend());
    for (size_t k = 0; k < arrivals.size(); ++k)
      CHECK(arrivals[k] <= last - int(k) / c.rf_write_ports);
  }
  const int words = tcu::dest_words(instr);
  const int want = std::max(ceil_div(words, c.rf_regs_per_cycle),
                            bank_bound(words / 32, c.rf_banks, c.rf_write_ports));
  CHECK(int(schedule.size()) == want);
  CHECK(tcu::writeback_cycles(instr, c) == want);
  // The front-end's pace: the words delivered by the end of each cycle, at
  // most rf_regs_per_cycle a cycle until all have come.
  const std::vector<int> arrivals = tcu::writeback_arrivals(instr, c);
  REQUIRE(arrivals.size() == schedule.size());
  int delivered = 0;
  for (size_t cycle = 0; cycle < schedule.size(); ++cycle) {
    delivered += int(schedule[cycle].size());
    CHECK(arrivals[cycle] == std::min(words, int(cycle + 1) * c.rf_regs_per_cycle));
    CHECK(arrivals[cycle] == delivered);
  }
}

}  // namespace

TEST_CASE("register file schedules of every variant at several parameter sets") {
  const std::vector<tcu::FrontEndConfig> configs = {
      tcu::FrontEndConfig{}, rf(1, 16, 1),    rf(7, 16, 1),     rf(4096, 16, 1),
      rf(4096, 2, 1, 1),     rf(64, 2, 1, 1), rf(48, 2, 1, 1),  rf(4096, 1, 1, 1),
      rf(100, 3, 2, 3),      rf(33, 5, 1, 2), rf(4096, 4, 3, 2)};
  for (const tcu::Instr& instr : tcu::all_variants())
    for (const tcu::FrontEndConfig& c : configs) {
      INFO(instr.ptx() << " words " << c.rf_regs_per_cycle << " banks " << c.rf_banks
                       << " read ports " << c.rf_read_ports << " write ports " << c.rf_write_ports);
      check_collect(instr, c);
      check_writeback(instr, c);
    }
}

TEST_CASE("the default banks leave rf_regs_per_cycle the only bound") {
  for (const tcu::Instr& instr : tcu::all_variants())
    for (int words : {1, 7, 32, 64, 100, 4096}) {
      INFO(instr.ptx() << " words " << words);
      tcu::FrontEndConfig c;
      c.rf_regs_per_cycle = words;
      CHECK(tcu::collect_cycles(instr, c) == ceil_div(tcu::source_words(instr), words));
      CHECK(tcu::writeback_cycles(instr, c) == ceil_div(tcu::dest_words(instr), words));
    }
}

TEST_CASE("register file cycle counts, computed by hand") {
  // int4 m16n8k64: A 4, B 2, C 4 registers (320 words); D 4 registers. The
  // defaults move 64 words a cycle.
  CHECK(tcu::collect_cycles(kInt4, tcu::FrontEndConfig{}) == 5);
  CHECK(tcu::writeback_cycles(kInt4, tcu::FrontEndConfig{}) == 2);
  CHECK(tcu::collect_cycles(kInt4, rf(4096, 16, 1)) == 1);
  CHECK(tcu::collect_cycles(kInt4, rf(4096, 2, 1)) == 5);  // 5 registers per bank
  CHECK(tcu::writeback_cycles(kInt4, rf(4096, 2, 1, 1)) == 2);
  CHECK(tcu::collect_cycles(kInt4, rf(4096, 3, 2)) == 2);       // bank 0: registers 0, 3, 6, 9
  CHECK(tcu::collect_cycles(kInt4, rf(128, 4, 1)) == 3);        // 320/128 and 10 over 4 banks
  CHECK(tcu::collect_cycles(kInt4, rf(48, 2, 1)) == 7);         // 320/48: the bandwidth binds
  CHECK(tcu::collect_cycles(kInt4, rf(48, 1, 1)) == 10);        // one register read a cycle
  CHECK(tcu::writeback_cycles(kInt4, rf(48, 1, 1, 2)) == 3);    // 128/48
  CHECK(tcu::writeback_cycles(kInt4, rf(4096, 1, 1, 3)) == 2);  // 4 writes, 3 a cycle
  // sparse: A 2, B 2, C 4, metadata 1.
  CHECK(tcu::collect_cycles(kSparse, rf(4096, 4, 1)) == 3);
  // f64: A 2, B 2, C 4 words a lane; D 4.
  CHECK(tcu::collect_cycles(kF64, rf(4096, 2, 2)) == 2);
  CHECK(tcu::writeback_cycles(kF64, rf(4096, 4, 1, 1)) == 1);
  // f16 with f32 C: A 2, B 2, C 8 registers; D 8.
  CHECK(tcu::collect_cycles(kF16F32, rf(4096, 5, 1)) == 3);
  CHECK(tcu::writeback_cycles(kF16F32, rf(4096, 3, 1, 1)) == 3);
  // e2m1: A 4, B 2, C 4, scale_a, scale_b.
  CHECK(tcu::collect_cycles(kE2m1, rf(4096, 5, 1)) == 3);
  CHECK(tcu::collect_cycles(kE2m1, rf(256, 16, 1)) == 2);
}

TEST_CASE("source registers in fragment order, 64-bit registers as two words") {
  const std::vector<tcu::WarpRegister> f64 = tcu::source_registers(kF64);
  REQUIRE(f64.size() == 8);
  CHECK((f64[0].operand == Operand::kA && f64[0].reg == 0));
  CHECK((f64[1].operand == Operand::kA && f64[1].reg == 1));
  CHECK((f64[2].operand == Operand::kB && f64[2].reg == 0));
  CHECK((f64[7].operand == Operand::kC && f64[7].reg == 3));
  const std::vector<tcu::WarpRegister> sparse = tcu::source_registers(kSparse);
  REQUIRE(sparse.size() == 9);
  CHECK(sparse[8].operand == Operand::kMeta);
  const std::vector<tcu::WarpRegister> e2m1 = tcu::source_registers(kE2m1);
  REQUIRE(e2m1.size() == 12);
  CHECK(e2m1[10].operand == Operand::kScaleA);
  CHECK(e2m1[11].operand == Operand::kScaleB);
  CHECK(tcu::dest_registers(kF16F32).size() == 8);
}

TEST_CASE("collection forwards as the banks read: 2 banks, 1 port, 48 words a cycle") {
  // Cycle 0 reads registers 0 and 1 (A's words 0 and 1): 64 words, 48 go.
  const tcu::RegSchedule s = tcu::collect_schedule(kInt4, rf(48, 2, 1));
  REQUIRE(s.size() == 7);
  REQUIRE(s[0].size() == 48);
  CHECK(s[0][0] == tcu::RegWord{Operand::kA, 0, 0});
  CHECK(s[0][31] == tcu::RegWord{Operand::kA, 31, 0});
  CHECK(s[0][32] == tcu::RegWord{Operand::kA, 0, 1});
  CHECK(s[0][47] == tcu::RegWord{Operand::kA, 15, 1});
  CHECK(s[1][0] == tcu::RegWord{Operand::kA, 16, 1});
  // The last cycle: 320 - 6 * 48 = 32 words, C's last register.
  REQUIRE(s[6].size() == 32);
  CHECK(s[6][0] == tcu::RegWord{Operand::kC, 0, 3});

  // One bank, one port: a register (32 words) a cycle, whatever the bandwidth.
  const tcu::RegSchedule one = tcu::collect_schedule(kInt4, rf(4096, 1, 1));
  REQUIRE(one.size() == 10);
  for (const auto& cycle : one) CHECK(cycle.size() == 32);
  CHECK(one[4][0] == tcu::RegWord{Operand::kB, 0, 0});
}

TEST_CASE("write-back drains through the write ports after the words arrive") {
  // f64 D: 4 registers, all arriving in cycle 0; 1 bank of 1 write port
  // writes one a cycle.
  const tcu::RegSchedule s = tcu::writeback_schedule(kF64, rf(4096, 1, 1, 1));
  REQUIRE(s.size() == 4);
  CHECK(s[0].size() == 128);
  CHECK(s[0][127] == tcu::RegWord{Operand::kD, 31, 3});
  CHECK(s[1].empty());
  CHECK(s[3].empty());
}

TEST_CASE("instruction latency adds the register file's cycles") {
  tcu::DatapathConfig dp;   // int4 m16n8k64: datapath latency 11
  dp.words_per_cycle = 64;  // the router: two registers a cycle each way
  dp.d_words_per_cycle = 64;
  // 10 source registers: 5 cycles at 64 words, 10 from one bank of one
  // port; 4 D registers: 2 cycles at 64 words, 4 through one write port.
  CHECK(tcu::instruction_latency(dp, rf(64, 1, 1, 1), kInt4) == 10 + 11 + 4);
  CHECK(tcu::instruction_latency(dp, rf(64, 16, 1, 1), kInt4) == 5 + 11 + 2);
  // The router's 64 words a cycle bind a wider register file.
  CHECK(tcu::instruction_latency(dp, rf(4096, 16, 1, 1), kInt4) == 5 + 11 + 2);
}

TEST_CASE("front-end configurations out of range are refused, naming the parameter") {
  CHECK(tcu::front_end_config_error(tcu::FrontEndConfig{}).empty());
  CHECK(tcu::front_end_config_error(rf(4096, 1024, 64, 64)).empty());
  CHECK(tcu::front_end_config_error(rf(0, 16, 1)) == "rf_regs_per_cycle=0: expected 1 .. 4096");
  CHECK(tcu::front_end_config_error(rf(32, 0, 1)) == "rf_banks=0: expected 1 .. 1024");
  CHECK(tcu::front_end_config_error(rf(32, 16, -1)) == "rf_read_ports=-1: expected 1 .. 64");
  CHECK(tcu::front_end_config_error(rf(32, 16, 1, 65)) == "rf_write_ports=65: expected 1 .. 64");
  CHECK(tcu::front_end_config_error(rf(4097, 16, 1)) ==
        "rf_regs_per_cycle=4097: expected 1 .. 4096");
}

TEST_CASE("describe_banks names banks and ports only where they are not the defaults") {
  CHECK(tcu::describe_banks(tcu::FrontEndConfig{}).empty());
  CHECK(tcu::describe_banks(rf(7, 16, 1)).empty());
  CHECK(tcu::describe_banks(rf(64, 2, 1, 3)) == "2 bank(s) of 1 read / 3 write port(s)");
}
