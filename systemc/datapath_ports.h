// The datapath's instruction ports as C++ words: how one instruction's
// matrix-order operands are laid out on rtl/tcu_datapath.sv's inputs and how
// D is read from its output (docs/architecture.md, "Datapath interface").
// Plain C++: shared by the Verilated model's drivers and the RTL unit tests.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "tcu/golden.h"

namespace tcu {

// The datapath's instruction input ports, packed as rtl/tcu_datapath.sv
// takes them (docs/architecture.md, "Datapath interface"): A, C, metadata
// and scale_a in matrix order, B and scale_b column-major.
struct DatapathInputs {
  uint32_t family = 0;
  bool a_signed = false, b_signed = false, satfinite = false, k32 = false;
  uint32_t rounding = 0;
  bool c_f16 = false, d_f16 = false, scale_4x = false;
  uint32_t tag = 0;
  std::array<uint32_t, 4096 / 32> a{};
  std::array<uint32_t, 2048 / 32> b{};
  std::array<uint32_t, 8192 / 32> c{};
  std::array<uint32_t, 512 / 32> meta{};
  std::array<uint32_t, 512 / 32> scale_a{};
  std::array<uint32_t, 256 / 32> scale_b{};
};
inline constexpr int kDatapathDWords = 8192 / 32;
inline constexpr int kLaneSrcWords = 16384 / 32;  // tcu_sim_top lane_src_i
inline constexpr int kLaneDstWords = 8192 / 32;   // tcu_sim_top lane_dst_i

// Whether two instructions' inputs are the same, descriptor and ports.
bool same_datapath_descriptor(const DatapathInputs& a, const DatapathInputs& b);
bool same_datapath_inputs(const DatapathInputs& a, const DatapathInputs& b);

// Where each element of an operand's matrix sits on its port, in units of
// the element's width: A, C and metadata in matrix order, scale_a rows of
// four blocks, B and scale_b column-major (columns of 64 codes for int4 and
// e2m1 B, of four blocks for scale_b).
std::vector<int> datapath_positions(const Instr& instr, Operand operand, const Matrix& matrix);

// Packs one instruction's matrix-order operands into the input ports.
void pack_datapath_inputs(const Instr& instr, const Operands& operands, uint32_t tag,
                          DatapathInputs* inputs);
// The same from the lanes' registers: each operand's fragment through the
// golden layout (fragment_layout) straight onto its port, by a map from
// register bits to port bits built once per layout (whole 32-bit words where
// a port word is one register's bits in order). No allocation per call.
void pack_datapath_inputs(const Instr& instr, const WarpOperands& warp, uint32_t tag,
                          DatapathInputs* inputs);
// D in matrix order from out_d_o's words.
Matrix unpack_datapath_d(const Instr& instr, const uint32_t* out_d);

}  // namespace tcu
