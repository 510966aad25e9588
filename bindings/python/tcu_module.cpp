// The Python module `tcu`: the golden model on numpy matrices.
//
// Matrices are in matrix order (A is m x k, B is k x n, C and D are m x n;
// m8n8k4 .f16 has a leading axis of 4, one per quad pair). Element values:
// .s4/.u4 as integers, .s32 as int32, .f16/.f32/.f64 as numpy floats of that
// width (bit patterns kept, NaN payloads included), .e2m1 and the ue8m0/ue4m3
// scales as their uint8 codes, sparse metadata as one 4-bit nibble per
// (row, eight-wide chunk). Lane registers are (32, registers per lane)
// arrays of uint32 (uint64 for .f64).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstring>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "tcu/energy.h"
#include "tcu/gemm_timing.h"
#include "tcu/golden.h"
#include "tcu/instr.h"
#include "tcu/layout.h"
#include "tcu/timing.h"

namespace py = pybind11;

namespace {

// Raised as tcu.ShapeError (ValueError) and tcu.DTypeError (TypeError).
class ShapeError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};
class DTypeError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};
// Values outside an element type's range: tcu.ValueRangeError (ValueError).
class ValueRangeError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// How an operand's elements look in numpy.
enum class Kind { kSigned4, kUnsigned4, kCode4, kCode8, kInt32, kF16, kF32, kF64 };

struct OperandSpec {
  const char* name;  // "a", "b", "c", "d", "metadata", "scale_a", "scale_b"
  tcu::Operand operand;
  Kind kind;
  const char* type_name;  // for messages: ".s4", "metadata nibble", ...
};

Kind kind_of(tcu::ElemType type) {
  switch (type) {
    case tcu::ElemType::kS4:
      return Kind::kSigned4;
    case tcu::ElemType::kU4:
      return Kind::kUnsigned4;
    case tcu::ElemType::kE2m1:
      return Kind::kCode4;
    case tcu::ElemType::kUe8m0:
    case tcu::ElemType::kUe4m3:
      return Kind::kCode8;
    case tcu::ElemType::kS32:
      return Kind::kInt32;
    case tcu::ElemType::kF16:
      return Kind::kF16;
    case tcu::ElemType::kF32:
      return Kind::kF32;
    case tcu::ElemType::kF64:
      return Kind::kF64;
  }
  return Kind::kInt32;
}

tcu::Instr parse(const std::string& ptx) { return tcu::parse_ptx(ptx); }

OperandSpec spec_of(const tcu::Instr& instr, const std::string& name) {
  auto typed = [](const char* n, tcu::Operand op, tcu::ElemType t) {
    return OperandSpec{n, op, kind_of(t), tcu::to_string(t)};
  };
  if (name == "a") return typed("a", tcu::Operand::kA, instr.a_type);
  if (name == "b") return typed("b", tcu::Operand::kB, instr.b_type);
  if (name == "c") return typed("c", tcu::Operand::kC, instr.c_type);
  if (name == "d") return typed("d", tcu::Operand::kD, instr.d_type);
  if (name == "metadata" || name == "e") {
    if (!instr.sparse())
      throw py::value_error("operand '" + name + "': " + instr.ptx() + " has no sparse metadata");
    return {"metadata", tcu::Operand::kMeta, Kind::kCode4, "metadata nibble"};
  }
  if (name == "scale_a" || name == "scale_b") {
    if (!instr.block_scaled())
      throw py::value_error("operand '" + name + "': " + instr.ptx() + " has no block scales");
    return typed(name == "scale_a" ? "scale_a" : "scale_b",
                 name == "scale_a" ? tcu::Operand::kScaleA : tcu::Operand::kScaleB,
                 instr.scale_type);
  }
  throw py::value_error("unknown operand '" + name +
                        "' (one of a, b, c, d, metadata, scale_a, scale_b)");
}

std::vector<py::ssize_t> matrix_shape(const tcu::FragmentLayout& layout) {
  if (layout.batches() == 1) return {layout.rows(), layout.cols()};
  return {layout.batches(), layout.rows(), layout.cols()};
}

std::string shape_text(const std::vector<py::ssize_t>& shape) {
  std::ostringstream text;
  text << "(";
  for (size_t i = 0; i < shape.size(); ++i) text << (i ? ", " : "") << shape[i];
  text << (shape.size() == 1 ? ",)" : ")");
  return text.str();
}

std::string shape_text(const py::array& array) {
  return shape_text(std::vector<py::ssize_t>(array.shape(), array.shape() + array.ndim()));
}

py::array as_array(const py::object& value) {
  return py::array::ensure(py::module_::import("numpy").attr("asarray")(value));
}

void check_shape(const py::array& array, const std::vector<py::ssize_t>& want,
                 const std::string& what) {
  const std::vector<py::ssize_t> have(array.shape(), array.shape() + array.ndim());
  if (have != want)
    throw ShapeError(what + ": expected shape " + shape_text(want) + ", got " + shape_text(array));
}

// "(row, col)" of the flat index i of a C-ordered array.
std::string index_text(const py::array& array, size_t flat) {
  std::vector<py::ssize_t> index(size_t(array.ndim()));
  for (py::ssize_t d = array.ndim() - 1; d >= 0; --d) {
    index[size_t(d)] = py::ssize_t(flat) % array.shape(d);
    flat /= size_t(array.shape(d));
  }
  return shape_text(index);
}

// Integers of any numpy integer dtype, as int64 (values checked by the caller
// against [lo, hi]).
std::vector<int64_t> integers(const py::array& array, const std::string& what, int64_t lo,
                              int64_t hi, const std::string& type_name) {
  const char kind = array.dtype().kind();
  if (kind != 'i' && kind != 'u')
    throw DTypeError(what + ": expected an integer array for " + type_name + ", got dtype " +
                     std::string(py::str(array.dtype())));
  std::vector<int64_t> values(size_t(array.size()));
  if (kind == 'u') {
    auto u = py::array_t<uint64_t, py::array::c_style | py::array::forcecast>::ensure(array);
    for (size_t i = 0; i < values.size(); ++i) {
      const uint64_t v = u.data()[i];
      if (v > uint64_t(hi))
        throw ValueRangeError(what + ": element " + index_text(array, i) + " is " +
                              std::to_string(v) + ", outside " + type_name + "'s range [" +
                              std::to_string(lo) + ", " + std::to_string(hi) + "]");
      values[i] = int64_t(v);
    }
    return values;
  }
  auto s = py::array_t<int64_t, py::array::c_style | py::array::forcecast>::ensure(array);
  for (size_t i = 0; i < values.size(); ++i) {
    const int64_t v = s.data()[i];
    if (v < lo || v > hi)
      throw ValueRangeError(what + ": element " + index_text(array, i) + " is " +
                            std::to_string(v) + ", outside " + type_name + "'s range [" +
                            std::to_string(lo) + ", " + std::to_string(hi) + "]");
    values[i] = v;
  }
  return values;
}

template <typename Bits>
std::vector<uint64_t> float_bits(const py::array& array, const std::string& what,
                                 const char* dtype_name, const std::string& type_name) {
  const py::dtype want = py::dtype(dtype_name);
  if (!array.dtype().is(want) && !array.dtype().equal(want))
    throw DTypeError(what + ": expected a " + dtype_name + " array for ." + type_name +
                     " (converting would round), got dtype " + std::string(py::str(array.dtype())));
  auto bits = py::array_t<Bits, py::array::c_style | py::array::forcecast>::ensure(
      array.attr("view")(py::dtype::of<Bits>()));
  return std::vector<uint64_t>(bits.data(), bits.data() + bits.size());
}

// A numpy array to matrix-order element bits.
std::vector<uint64_t> to_elems(const py::array& array, Kind kind, const std::string& what,
                               const std::string& type) {
  std::vector<uint64_t> elems;
  switch (kind) {
    case Kind::kSigned4:
      for (int64_t v : integers(array, what, -8, 7, "." + type)) elems.push_back(uint64_t(v) & 0xf);
      return elems;
    case Kind::kUnsigned4:
      for (int64_t v : integers(array, what, 0, 15, "." + type)) elems.push_back(uint64_t(v));
      return elems;
    case Kind::kCode4:
      for (int64_t v : integers(array, what, 0, 15, type + " (4-bit codes)"))
        elems.push_back(uint64_t(v));
      return elems;
    case Kind::kCode8:
      for (int64_t v : integers(array, what, 0, 255, "." + type + " (8-bit codes)"))
        elems.push_back(uint64_t(v));
      return elems;
    case Kind::kInt32:
      for (int64_t v : integers(array, what, INT32_MIN, INT32_MAX, "." + type))
        elems.push_back(uint64_t(uint32_t(int32_t(v))));
      return elems;
    case Kind::kF16:
      return float_bits<uint16_t>(array, what, "float16", type);
    case Kind::kF32:
      return float_bits<uint32_t>(array, what, "float32", type);
    case Kind::kF64:
      return float_bits<uint64_t>(array, what, "float64", type);
  }
  return elems;
}

template <typename T>
py::array typed_array(const std::vector<py::ssize_t>& shape, const std::vector<uint64_t>& elems) {
  py::array_t<T> out(shape);
  T* data = out.mutable_data();
  for (size_t i = 0; i < elems.size(); ++i) data[i] = T(elems[i]);
  return out;
}

// Matrix-order element bits to a numpy array.
py::array from_elems(const std::vector<py::ssize_t>& shape, const std::vector<uint64_t>& elems,
                     Kind kind) {
  switch (kind) {
    case Kind::kSigned4: {
      std::vector<uint64_t> values;
      for (uint64_t e : elems) values.push_back(uint64_t(int64_t(tcu::int4_value(e, true))));
      return typed_array<int8_t>(shape, values);
    }
    case Kind::kUnsigned4:
    case Kind::kCode4:
    case Kind::kCode8:
      return typed_array<uint8_t>(shape, elems);
    case Kind::kInt32:
      return typed_array<int32_t>(shape, elems);
    case Kind::kF16:
      return typed_array<uint16_t>(shape, elems).attr("view")("float16");
    case Kind::kF32:
      return typed_array<uint32_t>(shape, elems).attr("view")("float32");
    case Kind::kF64:
      return typed_array<uint64_t>(shape, elems).attr("view")("float64");
  }
  return py::none();
}

const char* numpy_dtype(Kind kind) {
  switch (kind) {
    case Kind::kSigned4:
      return "int8";
    case Kind::kUnsigned4:
    case Kind::kCode4:
    case Kind::kCode8:
      return "uint8";
    case Kind::kInt32:
      return "int32";
    case Kind::kF16:
      return "float16";
    case Kind::kF32:
      return "float32";
    case Kind::kF64:
      return "float64";
  }
  return "";
}

tcu::Matrix to_matrix(const tcu::Instr& instr, const OperandSpec& spec, const py::object& value,
                      const tcu::Selectors& selectors = {}) {
  const tcu::FragmentLayout& layout = tcu::fragment_layout(instr, spec.operand, selectors);
  const py::array array = as_array(value);
  const std::string what = std::string(spec.name) + " of " + instr.ptx();
  check_shape(array, matrix_shape(layout), what);
  tcu::Matrix matrix(layout.batches(), layout.rows(), layout.cols());
  matrix.elems = to_elems(array, spec.kind, what, spec.type_name);
  return matrix;
}

tcu::Selectors selectors_of(const tcu::Instr& instr, int sparsity_selector, int byte_id_a,
                            int thread_id_a, int byte_id_b, int thread_id_b) {
  tcu::Selectors selectors;
  selectors.sparsity = sparsity_selector;
  selectors.byte_id_a = byte_id_a;
  selectors.thread_id_a = thread_id_a;
  selectors.byte_id_b = byte_id_b;
  selectors.thread_id_b = thread_id_b;
  tcu::validate_selectors(instr, selectors);
  return selectors;
}

// Lane registers (32 x registers per lane) to a Fragment.
tcu::Fragment to_fragment(const tcu::FragmentLayout& layout, const py::object& value,
                          const std::string& what) {
  const py::array array = as_array(value);
  check_shape(array, {tcu::kLanes, layout.regs_per_lane()}, what);
  const int bits = layout.reg_bits();
  const int64_t hi = bits >= 64 ? INT64_MAX : (int64_t(1) << bits) - 1;
  tcu::Fragment fragment = layout.empty_fragment();
  // Registers are bit patterns: a signed array of the register's width is
  // taken as two's complement, anything else must hold the unsigned value.
  const char kind = array.dtype().kind();
  if (kind == 'i' && array.itemsize() * 8 == bits) {
    auto raw = py::array_t<int64_t, py::array::c_style | py::array::forcecast>::ensure(array);
    for (size_t i = 0; i < fragment.regs.size(); ++i)
      fragment.regs[i] = bits == 64 ? uint64_t(raw.data()[i]) : uint64_t(uint32_t(raw.data()[i]));
    return fragment;
  }
  if (kind == 'u' && bits == 64) {
    auto raw = py::array_t<uint64_t, py::array::c_style | py::array::forcecast>::ensure(array);
    std::memcpy(fragment.regs.data(), raw.data(), fragment.regs.size() * sizeof(uint64_t));
    return fragment;
  }
  const std::vector<int64_t> values =
      integers(array, what, 0, hi, std::to_string(bits) + "-bit registers");
  for (size_t i = 0; i < values.size(); ++i) fragment.regs[i] = uint64_t(values[i]);
  return fragment;
}

py::array from_fragment(const tcu::FragmentLayout& layout, const tcu::Fragment& fragment) {
  const std::vector<py::ssize_t> shape = {tcu::kLanes, layout.regs_per_lane()};
  if (layout.reg_bits() == 64) return typed_array<uint64_t>(shape, fragment.regs);
  return typed_array<uint32_t>(shape, fragment.regs);
}

py::array mma(const std::string& ptx, const py::object& a, const py::object& b, const py::object& c,
              const py::object& metadata, const py::object& scale_a, const py::object& scale_b) {
  const tcu::Instr instr = parse(ptx);
  tcu::Operands operands;
  operands.a = to_matrix(instr, spec_of(instr, "a"), a);
  operands.b = to_matrix(instr, spec_of(instr, "b"), b);
  operands.c = to_matrix(instr, spec_of(instr, "c"), c);
  auto require = [&](const py::object& value, const char* name, bool needed) {
    if (needed && value.is_none()) throw py::value_error(instr.ptx() + " needs " + name + "=");
    if (!needed && !value.is_none())
      throw py::value_error(std::string(name) + "= does not apply to " + instr.ptx());
  };
  require(metadata, "metadata", instr.sparse());
  require(scale_a, "scale_a", instr.block_scaled());
  require(scale_b, "scale_b", instr.block_scaled());
  if (instr.sparse()) operands.meta = to_matrix(instr, spec_of(instr, "metadata"), metadata);
  if (instr.block_scaled()) {
    operands.scale_a = to_matrix(instr, spec_of(instr, "scale_a"), scale_a);
    operands.scale_b = to_matrix(instr, spec_of(instr, "scale_b"), scale_b);
  }
  const tcu::Matrix d = tcu::golden_mma(instr, operands);
  const tcu::FragmentLayout& layout = tcu::fragment_layout(instr, tcu::Operand::kD);
  return from_elems(matrix_shape(layout), d.elems, spec_of(instr, "d").kind);
}

py::array to_fragments(const std::string& ptx, const std::string& operand, const py::object& matrix,
                       int sparsity_selector, int byte_id_a, int thread_id_a, int byte_id_b,
                       int thread_id_b) {
  const tcu::Instr instr = parse(ptx);
  const OperandSpec spec = spec_of(instr, operand);
  const tcu::Selectors selectors =
      selectors_of(instr, sparsity_selector, byte_id_a, thread_id_a, byte_id_b, thread_id_b);
  const tcu::FragmentLayout& layout = tcu::fragment_layout(instr, spec.operand, selectors);
  return from_fragment(layout, layout.scatter(to_matrix(instr, spec, matrix, selectors)));
}

py::array from_fragments(const std::string& ptx, const std::string& operand,
                         const py::object& registers, int sparsity_selector, int byte_id_a,
                         int thread_id_a, int byte_id_b, int thread_id_b) {
  const tcu::Instr instr = parse(ptx);
  const OperandSpec spec = spec_of(instr, operand);
  const tcu::Selectors selectors =
      selectors_of(instr, sparsity_selector, byte_id_a, thread_id_a, byte_id_b, thread_id_b);
  const tcu::FragmentLayout& layout = tcu::fragment_layout(instr, spec.operand, selectors);
  const tcu::Fragment fragment =
      to_fragment(layout, registers, std::string(spec.name) + " registers of " + instr.ptx());
  return from_elems(matrix_shape(layout), layout.gather(fragment).elems, spec.kind);
}

py::array mma_fragments(const std::string& ptx, const py::object& a, const py::object& b,
                        const py::object& c, const py::object& e, const py::object& scale_a,
                        const py::object& scale_b, int sparsity_selector, int byte_id_a,
                        int thread_id_a, int byte_id_b, int thread_id_b) {
  const tcu::Instr instr = parse(ptx);
  tcu::WarpOperands warp;
  warp.selectors =
      selectors_of(instr, sparsity_selector, byte_id_a, thread_id_a, byte_id_b, thread_id_b);
  auto fragment = [&](const py::object& value, tcu::Operand op, const char* name) {
    if (value.is_none()) throw py::value_error(instr.ptx() + " needs " + name + "=");
    return to_fragment(tcu::fragment_layout(instr, op, warp.selectors), value,
                       std::string(name) + " registers of " + instr.ptx());
  };
  warp.a = fragment(a, tcu::Operand::kA, "a");
  warp.b = fragment(b, tcu::Operand::kB, "b");
  warp.c = fragment(c, tcu::Operand::kC, "c");
  if (instr.sparse()) warp.e = fragment(e, tcu::Operand::kMeta, "e");
  if (instr.block_scaled()) {
    warp.scale_a = fragment(scale_a, tcu::Operand::kScaleA, "scale_a");
    warp.scale_b = fragment(scale_b, tcu::Operand::kScaleB, "scale_b");
  }
  const tcu::Matrix d = tcu::golden_mma(instr, tcu::gather_operands(instr, warp));
  const tcu::FragmentLayout& layout = tcu::fragment_layout(instr, tcu::Operand::kD);
  return from_fragment(layout, layout.scatter(d));
}

py::dict info(const std::string& ptx) {
  const tcu::Instr instr = parse(ptx);
  py::dict operands;
  std::vector<std::string> names = {"a", "b", "c", "d"};
  if (instr.sparse()) names.push_back("metadata");
  if (instr.block_scaled()) names.insert(names.end(), {"scale_a", "scale_b"});
  for (const std::string& name : names) {
    const OperandSpec spec = spec_of(instr, name);
    const tcu::FragmentLayout& layout = tcu::fragment_layout(instr, spec.operand);
    py::dict entry;
    entry["shape"] = py::tuple(py::cast(matrix_shape(layout)));
    entry["type"] = spec.type_name;
    entry["dtype"] = numpy_dtype(spec.kind);
    entry["registers"] = py::make_tuple(tcu::kLanes, layout.regs_per_lane());
    entry["register_bits"] = layout.reg_bits();
    operands[py::str(name)] = entry;
  }
  py::dict result;
  result["ptx"] = instr.ptx();
  result["family"] = tcu::to_string(instr.family);
  result["shape"] = py::make_tuple(instr.shape.m, instr.shape.n, instr.shape.k);
  result["batches"] = instr.batches();
  result["operands"] = operands;
  return result;
}

// The core's parameters: the spec's defaults with `params` ({RTL name: int})
// set; ValueError for an unknown name or a configuration that cannot be built.
tcu::DatapathConfig datapath_of(const py::dict& params) {
  tcu::DatapathConfig config;
  for (const auto& [key, value] : params) {
    const std::string name = py::str(key);
    if (!tcu::set_datapath_parameter(config, name, value.cast<int>()))
      throw py::value_error("unknown core parameter '" + name + "' (spec/config.toml)");
  }
  const std::string why = tcu::datapath_config_error(config);
  if (!why.empty()) throw py::value_error(why);
  return config;
}

// gemm_estimate: the cycle estimate of an M x N x K GEMM in one variant on a
// core (tcu/gemm_timing.h, the `tcu gemm --estimate` figures), dimensions
// padded up to the instruction's.
py::dict gemm_estimate(const std::string& ptx, long long m, long long n, long long k,
                       const py::dict& params, int rf_bandwidth, int rf_banks, int rf_read_ports,
                       int rf_write_ports) {
  const tcu::Instr instr = parse(ptx);
  const tcu::DatapathConfig dp = datapath_of(params);
  if (const char* why = tcu::disabled_by(dp, instr.family); why != nullptr)
    throw py::value_error(tcu::disabled_error("core", dp, instr));
  const long long limit = 1LL << 30;
  for (const auto& [name, value] : {std::pair{"m", m}, {"n", n}, {"k", k}})
    if (value < 1 || value > limit)
      throw py::value_error(std::string(name) + "=" + std::to_string(value) +
                            ": expected 1 .. 2^30");
  tcu::FrontEndConfig fe;
  fe.rf_regs_per_cycle = rf_bandwidth == 0 ? dp.words_per_cycle : rf_bandwidth;
  fe.rf_banks = rf_banks;
  fe.rf_read_ports = rf_read_ports;
  fe.rf_write_ports = rf_write_ports;
  std::string why = tcu::front_end_config_error(fe);
  if (why.empty()) why = tcu::rf_bandwidth_error(dp, fe);
  if (!why.empty()) throw py::value_error(why);
  const long long tiles =
      ((m + instr.shape.m - 1) / instr.shape.m) * ((n + instr.shape.n - 1) / instr.shape.n);
  if (tiles > limit) throw py::value_error("m x n: more than 2^30 output tiles");
  const tcu::GemmTiling tiling = tcu::gemm_tiling(instr, int(m), int(n), int(k));
  const tcu::GemmCycleEstimate e = tcu::estimate_gemm_cycles(dp, fe, instr, tiling);
  py::dict out;
  out["cycles"] = e.total();
  out["occupancy"] = e.occupancy;
  out["operand_delivery"] = e.delivery;
  out["fill_drain"] = e.fill_drain;
  out["instructions"] = tiling.instructions();
  out["k_steps"] = tiling.k_steps;
  out["slots"] = tiling.slots;
  out["issued_macs"] = tiling.instructions() * tcu::issued_macs(instr);
  out["dense_macs"] = tiling.instructions() * instr.macs();
  out["peak_dense_macs_per_cycle"] = tcu::peak_dense_macs_per_cycle(dp, instr);
  out["family"] = tcu::to_string(instr.family);
  // The energy estimate (tcu/energy.h) of the activity the GEMM leaves.
  const tcu::Activity activity = tcu::estimate_gemm_activity(dp, fe, instr, tiling);
  const tcu::EnergyEstimate energy = tcu::estimate_energy(activity, dp);
  const tcu::EngineActivity& used = activity[tcu::activity_engine(instr.family)];
  out["busy_cycles"] = used.busy;
  out["energy_pj"] = energy.pj;
  out["energy_priced"] = energy.unpriced_macs == 0;
  return out;
}

// estimate_energy: the energy estimate (tcu/energy.h) of an activity (the
// report's "activity": cycles, router_words, per engine busy, idle,
// stalled, gated, macs) on a core, with the report's "energy" keys.
py::dict estimate_energy(const py::dict& activity, const py::dict& params) {
  const tcu::DatapathConfig dp = datapath_of(params);
  tcu::Activity a;
  a.cycles = activity["cycles"].cast<uint64_t>();
  if (activity.contains("router_words")) a.router_words = activity["router_words"].cast<uint64_t>();
  const py::dict engines = activity["engines"].cast<py::dict>();
  for (int e = 0; e < tcu::kActivityEngines; ++e) {
    const char* name = tcu::to_string(tcu::ActivityEngine(e));
    if (!engines.contains(name)) continue;
    const py::dict x = engines[name].cast<py::dict>();
    auto get = [&x](const char* key) { return x.contains(key) ? x[key].cast<uint64_t>() : 0; };
    a[tcu::ActivityEngine(e)] = {get("busy"), get("idle"), get("stalled"), get("gated"),
                                 get("macs")};
  }
  const tcu::EnergyEstimate est = tcu::estimate_energy(a, dp);
  py::dict out, per_engine, router, glue;
  out["pj"] = est.pj;
  router["pj"] = est.router.pj;
  router["width"] = est.router.width;
  router["idle_pj_per_cycle"] = est.router.idle_pj_per_cycle;
  router["dynamic_pj_per_word"] = est.router.dynamic_pj_per_word;
  glue["pj"] = est.glue.pj;
  glue["pj_per_cycle"] = est.glue.pj_per_cycle;
  for (int e = 0; e < tcu::kActivityEngines; ++e) {
    const tcu::EngineEnergy& x = est.engines[size_t(e)];
    py::dict d;
    d["measured"] = x.measured;
    d["pj"] = x.pj;
    d["units"] = x.units;
    d["dynamic_pj_per_issued_mac"] = x.dynamic_pj_per_issued_mac;
    d["idle_pj_per_unit_cycle"] = x.idle_pj_per_unit_cycle;
    d["leakage_pj_per_unit_cycle"] = x.leakage_pj_per_unit_cycle;
    d["regs_source"] = x.regs_source;
    d["regs_flip_flops"] = x.regs_flip_flops;
    d["regs_pj"] = x.regs_pj;
    d["regs_idle_pj_per_cycle"] = x.regs_idle_pj_per_cycle;
    d["regs_dynamic_pj_per_issued_mac"] = x.regs_dynamic_pj_per_issued_mac;
    d["regs_toggles_per_issued_mac"] = x.regs_toggles_per_issued_mac;
    d["regs_pj_per_toggle"] = x.regs_pj_per_toggle;
    d["regs_data_pj_per_issued_mac"] = x.regs_data_pj_per_issued_mac;
    d["glue_source"] = x.glue_source;
    d["glue_pj_per_issued_mac"] = x.glue_pj_per_issued_mac;
    d["around_pj_per_issued_mac"] = x.around_pj_per_issued_mac;
    d["busy_pj_per_cycle"] = x.busy_pj_per_cycle;
    d["idle_pj_per_cycle"] = x.idle_pj_per_cycle;
    d["gated_pj_per_cycle"] = x.gated_pj_per_cycle;
    per_engine[tcu::to_string(tcu::ActivityEngine(e))] = d;
  }
  out["router"] = router;
  out["glue"] = glue;
  out["per_engine"] = per_engine;
  return out;
}

}  // namespace

PYBIND11_MODULE(tcu, m) {
  m.doc() =
      "The tcu golden model (bit-exact mma semantics and PTX fragment layouts) on numpy "
      "matrices.";
  m.attr("__version__") = TCU_VERSION;

  // Error classes: each a ValueError or TypeError, so generic handlers work.
  const std::pair<py::object, const char*> errors[] = {
      {py::register_exception<tcu::InstrError>(m, "InstructionError", PyExc_ValueError),
       "an illegal or out-of-scope PTX spelling"},
      {py::register_exception<tcu::OperandError>(m, "OperandError", PyExc_ValueError),
       "operands that break the instruction's rules (sparse metadata, selectors)"},
      {py::register_exception<ShapeError>(m, "ShapeError", PyExc_ValueError),
       "an array of the wrong shape for the operand"},
      {py::register_exception<ValueRangeError>(m, "ValueRangeError", PyExc_ValueError),
       "an element outside its type's range (e.g. 9 for .s4)"},
      {py::register_exception<DTypeError>(m, "DTypeError", PyExc_TypeError),
       "an array of the wrong dtype (e.g. float32 where .f16 is needed)"},
  };
  for (const auto& [error, doc] : errors) error.attr("__doc__") = doc;

  m.def(
      "variants",
      [](std::optional<std::string> family) {
        std::vector<std::string> out;
        for (const tcu::Instr& instr : tcu::all_variants())
          if (!family || *family == tcu::to_string(instr.family)) out.push_back(instr.ptx());
        if (family && out.empty())
          throw py::value_error("unknown family '" + *family +
                                "' (one of int4, int4_sparse, f16, f64, e2m1)");
        return out;
      },
      py::arg("family") = py::none(),
      "Every supported instruction's canonical PTX spelling, optionally of one family "
      "(int4, int4_sparse, f16, f64, e2m1).");
  m.def(
      "canonical", [](const std::string& ptx) { return parse(ptx).ptx(); }, py::arg("ptx"),
      "The canonical spelling of a PTX instruction; raises InstructionError if illegal.");
  m.def("info", &info, py::arg("ptx"),
        "Family, shape and, per operand, the matrix shape, element type, numpy dtype and "
        "register shape.");
  m.def("mma", &mma, py::arg("ptx"), py::arg("a"), py::arg("b"), py::arg("c"), py::kw_only(),
        py::arg("metadata") = py::none(), py::arg("scale_a") = py::none(),
        py::arg("scale_b") = py::none(),
        "D = A*B + C in matrix order, bit-exact with the golden model. A is m x k (sparse: the "
        "compressed m x k/2 with metadata, m x k/8 nibbles), B k x n, C m x n; m8n8k4 .f16 "
        "operands have a leading axis of 4 (quad pairs). Block-scaled e2m1 takes uint8 codes "
        "and scale_a (m x blocks), scale_b (blocks x n).");
  m.def("gemm_estimate", &gemm_estimate, py::arg("ptx"), py::arg("m"), py::arg("n"), py::arg("k"),
        py::kw_only(), py::arg("params") = py::dict(), py::arg("rf_bandwidth") = 0,
        py::arg("rf_banks") = 16, py::arg("rf_read_ports") = 1, py::arg("rf_write_ports") = 1,
        "The cycle estimate of an M x N x K GEMM tiled into one variant on the core of "
        "`params` ({RTL parameter: value}, the rest spec/config.toml's defaults), the figures "
        "of `tcu gemm --estimate` (model/include/tcu/gemm_timing.h): cycles and their causes, "
        "instructions, issued and dense-equivalent MACs (dimensions padded up to the "
        "instruction's), the engine's peak, the energy estimate (tcu/energy.h) of the "
        "activity the GEMM leaves (energy_pj; energy_priced false where the data file has no "
        "figures for the engine). rf_bandwidth 0: the router's WordsPerCycle. "
        "ValueError for an unknown parameter, a configuration that cannot be built, an engine "
        "left out, or a register file out of range.");
  m.def("estimate_energy", &estimate_energy, py::arg("activity"), py::arg("params") = py::dict(),
        "The energy estimate (tcu/energy.h) of an activity ({cycles, router_words, engines: "
        "{int4: {busy, idle, stalled, gated, macs}, ...}}, a --report's \"activity\") on the "
        "core of `params` ({RTL parameter: value}), with the report's \"energy\" keys (pj, "
        "router, glue, per_engine). ValueError for a configuration that cannot be built.");
  m.def(
      "router_figures",
      [](double width, std::optional<py::list> points) -> py::object {
        double busy = 0, idle = 0;
        bool found = false;
        if (points) {
          std::vector<tcu::RouterEnergyPoint> given;
          for (const py::handle& p : *points) {
            const py::dict d = py::cast<py::dict>(p);
            const py::dict params = py::cast<py::dict>(d["params"]);
            given.push_back({py::cast<int>(params["WordsPerCycle"]),
                             py::cast<int>(params["DWordsPerCycle"]),
                             py::cast<double>(d["busy_pj_per_cycle"]),
                             py::cast<double>(d["idle_pj_per_cycle"])});
          }
          found = tcu::router_figures(given, width, busy, idle);
        } else {
          found = tcu::router_figures(width, busy, idle);
        }
        if (!found) return py::none();
        py::dict out;
        out["busy_pj_per_cycle"] = busy;
        out["idle_pj_per_cycle"] = idle;
        return out;
      },
      py::arg("width"), py::arg("points") = py::none(),
      "The operand router's busy and idle pJ a cycle at mean width `width` ((WordsPerCycle + "
      "DWordsPerCycle) / 2) by the energy estimate's rule (tcu/energy.h router_figures: "
      "piecewise linear between the data file's measured widths); with `points` (data file "
      "router points: params WordsPerCycle and DWordsPerCycle, busy_pj_per_cycle, "
      "idle_pj_per_cycle) between those instead. None if there are none.");
  m.def("to_fragments", &to_fragments, py::arg("ptx"), py::arg("operand"), py::arg("matrix"),
        py::kw_only(), py::arg("sparsity_selector") = 0, py::arg("byte_id_a") = 0,
        py::arg("thread_id_a") = 0, py::arg("byte_id_b") = 0, py::arg("thread_id_b") = 0,
        "The 32 lanes' registers (32 x registers per lane, uint32 or uint64) that hold an "
        "operand's matrix; operand is a, b, c, d, metadata, scale_a or scale_b.");
  m.def("from_fragments", &from_fragments, py::arg("ptx"), py::arg("operand"), py::arg("registers"),
        py::kw_only(), py::arg("sparsity_selector") = 0, py::arg("byte_id_a") = 0,
        py::arg("thread_id_a") = 0, py::arg("byte_id_b") = 0, py::arg("thread_id_b") = 0,
        "The matrix that the lanes' registers of an operand hold.");
  m.def("mma_fragments", &mma_fragments, py::arg("ptx"), py::kw_only(), py::arg("a"), py::arg("b"),
        py::arg("c"), py::arg("e") = py::none(), py::arg("scale_a") = py::none(),
        py::arg("scale_b") = py::none(), py::arg("sparsity_selector") = 0, py::arg("byte_id_a") = 0,
        py::arg("thread_id_a") = 0, py::arg("byte_id_b") = 0, py::arg("thread_id_b") = 0,
        "D's registers from the lanes' source registers, as an instruction executes.");
}
