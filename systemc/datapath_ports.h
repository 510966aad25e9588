// The datapath's instruction ports as C++ words: how one instruction's
// matrix-order operands are laid out on rtl/tcu_datapath.sv's inputs and how
// D is read from its output (docs/architecture.md, "Datapath interface").
// Plain C++: shared by the Verilated model's drivers and the RTL unit tests.
#pragma once

#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "core_words.h"
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
// The operand ports (A, B, C, metadata, scale_a, scale_b): their words, and
// pointers to a model's in place.
inline constexpr std::array<size_t, 6> kDatapathPortWords = {4096 / 32, 2048 / 32, 8192 / 32,
                                                             512 / 32,  512 / 32,  256 / 32};
using DatapathPortWords = std::array<const uint32_t*, 6>;
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

namespace port_detail {
// Where one operand's register bits land on its port: runs of whole words
// where a port word holds 32 bits of one register in order, element moves
// elsewhere; port words below `extent` only. Built once per (layout,
// operand, width).
struct PortMap {
  struct Elem {
    int reg, shift, bit;
  };
  std::vector<HalfRun> runs;
  std::vector<Elem> elems;
  uint64_t mask = 0;
  int extent = 0;
  bool straddles = false;  // an element spans two port words
  // The ranges [first, last) of the port's words no register bit lands in.
  std::vector<std::pair<int, int>> zeros;
};
const PortMap& port_map(const Instr& instr, Operand operand, const FragmentLayout& layout,
                        int width);
}  // namespace port_detail

// Packs one instruction's matrix-order operands into the input ports.
void pack_datapath_inputs(const Instr& instr, const Operands& operands, uint32_t tag,
                          DatapathInputs* inputs);
// The same from the lanes' registers: each operand's fragment through the
// golden layout (fragment_layout) straight onto its port, by a map from
// register bits to port bits built once per layout (whole 32-bit words where
// a port word is one register's bits in order). No allocation per call.
void pack_datapath_inputs(const Instr& instr, const WarpOperands& warp, uint32_t tag,
                          DatapathInputs* inputs);
// The same into a buffer of its own, for a stream of instructions: the port
// maps of a variant and its selectors (validated then) looked up once while
// they repeat, and of each port only the words the last pack may have set
// cleared. The reference stays valid until the next pack().
class DatapathInputsPacker {
 public:
  DatapathInputsPacker();
  const DatapathInputs& pack(const Instr& instr, const WarpOperands& warp, uint32_t tag);
  // True if `descriptor` (its descriptor fields) and the ports `got` hold
  // what pack() gives, compared in place word by word (nothing packed);
  // false where they differ or the comparison is left to the full one
  // (same_datapath_inputs against pack()'s).
  bool matches(const Instr& instr, const WarpOperands& warp, const DatapathInputs& descriptor,
               const DatapathPortWords& got);

 private:
  void plan(const Instr& instr, const Selectors& selectors);
  struct Plan {
    // A, B, C, metadata, scale_a, scale_b (null: the port stays zero).
    std::array<const port_detail::PortMap*, 6> maps{};
    std::array<int, 6> widths{};
  };
  DatapathInputs inputs_;
  int extent_[6];  // per port, the words that may be nonzero
  bool planned_ = false;
  Instr instr_;
  Selectors selectors_;
  Plan plan_;
};
// D in matrix order from out_d_o's words.
Matrix unpack_datapath_d(const Instr& instr, const uint32_t* out_d);

}  // namespace tcu
