// The warp's register file and operand collector: which 32-bit lane words
// move in which cycle when the front-end collects an instruction's sources
// and writes its D back (docs/architecture.md, "Register file").
//
// The model. An instruction's source registers are numbered in fragment
// order, as a compiler allocates them consecutively from a base register: A's,
// then B's, C's, the metadata register, scale_a, scale_b (a 64-bit register
// is two consecutive 32-bit registers). D's registers are numbered the same
// way from their own base. Register i lives in bank i % rf_banks. A bank
// port access moves one register of all 32 lanes (32 words); a bank serves at
// most rf_read_ports reads and rf_write_ports writes a cycle. Between the
// banks and the operand network sits the collector, which moves at most
// rf_regs_per_cycle words a cycle.
//
// Collection: register i is read in cycle floor(i / (rf_banks *
// rf_read_ports)) (each bank reads its registers in order, rf_read_ports a
// cycle), into the collector. A word can be forwarded in the cycle its
// register is read, or in any later cycle. The collector forwards words in
// register-major order (register 0's lanes 0..31, then register 1's, ...),
// as many as are read and at most rf_regs_per_cycle a cycle. So
//   collect_cycles = max(ceil(source_words / rf_regs_per_cycle),
//                        ceil(source_registers / (rf_banks * rf_read_ports))).
// (The read rate only ever falls, so the forwarder never waits once it has
// fallen behind the reads; see the proof in docs/architecture.md.)
//
// Write-back: the network delivers D's words in register-major order,
// rf_regs_per_cycle a cycle from cycle 0, into the collector's write buffer;
// a register is written into its bank in the cycle its last word arrives or
// later, at most rf_write_ports writes per bank a cycle, in register order.
// The write-back ends with the last register's write, so
//   writeback_cycles = max(ceil(dest_words / rf_regs_per_cycle),
//                          ceil(dest_registers / (rf_banks * rf_write_ports))),
// and writeback_schedule's last cycles carry no words when the write ports
// bind (the banks are still draining the buffer).
//
// FrontEndConfig's defaults (16 banks, one read and one write port each)
// have at least as many bank ports as any instruction in scope has source
// (at most 12) or destination (at most 8) registers, so only
// rf_regs_per_cycle binds and the timing is the bandwidth formula alone.
#pragma once

#include <string>
#include <vector>

#include "tcu/instr.h"
#include "tcu/layout.h"
#include "tcu/timing.h"

namespace tcu {

// One 32-bit word of one lane's fragment. reg counts 32-bit words within the
// lane's fragment of `operand` (a 64-bit register r is words 2r, low half,
// and 2r+1); the metadata and scale registers are reg 0.
struct RegWord {
  Operand operand = Operand::kA;
  int lane = 0;
  int reg = 0;
  bool operator==(const RegWord& o) const {
    return operand == o.operand && lane == o.lane && reg == o.reg;
  }
};

// A register of the warp: the same 32-bit word of every lane's fragment.
struct WarpRegister {
  Operand operand = Operand::kA;
  int reg = 0;  // as RegWord::reg
};

// The instruction's source registers in allocation order (index i is
// register i, in bank i % rf_banks); source_words(instr) == 32 * size().
std::vector<WarpRegister> source_registers(const Instr& instr);
// D's registers in allocation order; dest_words(instr) == 32 * size().
std::vector<WarpRegister> dest_registers(const Instr& instr);

// Words per cycle, cycle 0 first (cycle 0 is the first cycle of collection,
// or of write-back).
using RegSchedule = std::vector<std::vector<RegWord>>;

// The words the collector forwards in each cycle of one instruction's
// collection: every word of source_registers(instr) exactly once.
RegSchedule collect_schedule(const Instr& instr, const FrontEndConfig& rf);
// The D words the network delivers in each cycle of the write-back: every
// word of dest_registers(instr) exactly once; the last cycles may be empty.
RegSchedule writeback_schedule(const Instr& instr, const FrontEndConfig& rf);

// D words the network has delivered by the end of each write-back cycle
// (writeback_schedule's cumulative sizes, without building its words: the
// front-end's write-back pace, per instruction).
std::vector<int> writeback_arrivals(const Instr& instr, const FrontEndConfig& rf);

// "4 bank(s) of 1 read / 1 write port(s)" where the banks or ports are not
// the defaults, else empty (for reports).
std::string describe_banks(const FrontEndConfig& rf);

// The schedules' lengths, by the formulas above.
int collect_cycles(const Instr& instr, const FrontEndConfig& rf);
int writeback_cycles(const Instr& instr, const FrontEndConfig& rf);

}  // namespace tcu
