// The core's lane-order ports as C++ (rtl/tcu_core.sv, docs/ARCHITECTURE.md
// "Operand routing network"): an instruction's descriptor on the in_* ports,
// the register words the front-end reads from the lanes cycle by cycle, and
// the destination words the core writes back. Plain C++: shared by the
// SystemC front-end, `tcu bench` and the RTL tests.
#pragma once

#include <cstdint>
#include <vector>

#include "tcu/golden.h"

namespace tcu {

// The start of an instruction on tcu_core's in_* ports.
struct CoreDescriptor {
  uint32_t family = 0;
  bool a_signed = false, b_signed = false, satfinite = false, k32 = false;
  uint32_t rounding = 0;
  bool a_row = false, b_row = false;  // f16: A / B .row
  bool c_f16 = false, d_f16 = false, scale_4x = false;
  uint32_t sparsity = 0, byte_id_a = 0, thread_id_a = 0, byte_id_b = 0, thread_id_b = 0;
  uint32_t tag = 0;
};
CoreDescriptor core_descriptor(const Instr& instr, const Selectors& selectors, uint32_t tag);

// One 32-bit register word of a lane: operand (tcu::Operand's code: the
// router's in_word_op_i), lane, and word index within the lane's fragment
// (a 64-bit register r is words 2r, its low half, and 2r + 1).
struct RegWord {
  uint8_t operand = 0, lane = 0, reg = 0;
  uint32_t data = 0;
};

// The register words the front-end reads for one instruction, cycle by
// cycle, `per_cycle` a cycle: every lane's words of A, B, C, metadata,
// scale_a and scale_b (those the instruction has; every lane's metadata and
// scale register, as source_words() counts them), operand by operand, a
// register of all 32 lanes after the other. Data is left zero.
// (The one place that decides the read order: a register-file model with
// banks replaces it.)
std::vector<std::vector<RegWord>> collect_words(const Instr& instr, int per_cycle);
// The word's value in the lanes' registers.
uint32_t read_word(const Instr& instr, const WarpOperands& warp, const RegWord& word);
// collect_words with the data read from `warp`.
std::vector<std::vector<RegWord>> collect_beats(const Instr& instr, const WarpOperands& warp,
                                                int per_cycle);

// A destination word written back: lane, word index (as RegWord's) and value,
// into `d` (the instruction's D fragment). Returns false for a word outside
// the fragment.
bool write_word(Fragment* d, int reg_bits, int lane, int reg, uint32_t data);

}  // namespace tcu
