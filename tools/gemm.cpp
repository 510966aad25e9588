#include "gemm.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <vector>

#include "coverage.h"
#include "exit_codes.h"
#include "gemm_compare.h"
#include "tcu/gemm_timing.h"
#include "tcu/golden.h"
#include "tcu/layout.h"
#include "tcu/register_file.h"
#include "tcu/values.h"

namespace tcu {
namespace {

constexpr int kMaxDimension = 1 << 16;
constexpr int64_t kMaxInstructions = int64_t(1) << 22;

class Random {
 public:
  explicit Random(uint64_t seed) : state_(seed) {}
  uint64_t next() {  // splitmix64
    uint64_t x = (state_ += 0x9e3779b97f4a7c15ull);
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
  }
  // Uniform in [low, high].
  int between(int low, int high) { return low + int(next() % uint64_t(high - low + 1)); }

 private:
  uint64_t state_;
};

bool is_int4(const Instr& instr) {
  return instr.family == Family::kInt4Dense || instr.family == Family::kInt4Sparse;
}

// How the GEMM maps onto instructions (tcu/gemm_timing.h: its k-steps and
// their slots, the instructions of one k-step).
using Tiling = GemmTiling;

Tiling tiling_of(const GemmOptions& options) {
  return gemm_tiling(options.instr, options.m, options.n, options.k);
}

// The issue order of one k-step: the slots are divided among the warps in
// contiguous shares, and the warps take turns (warp 0's first slot, warp 1's
// first, ..., warp 0's second, ...). warp_of[slot] is the slot's warp.
std::vector<int> issue_order(const Tiling& tiling, int warps, std::vector<int>* warp_of) {
  std::vector<int> first(warps + 1);
  for (int w = 0; w <= warps; ++w) first[w] = int(int64_t(tiling.slots) * w / warps);
  warp_of->assign(tiling.slots, 0);
  std::vector<int> order;
  order.reserve(tiling.slots);
  for (int turn = 0; int(order.size()) < tiling.slots; ++turn)
    for (int w = 0; w < warps; ++w) {
      if (first[w] + turn >= first[w + 1]) continue;
      order.push_back(first[w] + turn);
      (*warp_of)[first[w] + turn] = w;
    }
  return order;
}

// D of one k-step becomes C of the next: a conversion where the types differ
// (a kernel's cvt), exact for the values the generator makes.
uint64_t d_to_c(const Instr& instr, uint64_t d) {
  if (instr.d_type == instr.c_type) return d;
  if (instr.d_type == ElemType::kF16 && instr.c_type == ElemType::kF32) return f16_to_f32(d);
  if (instr.d_type == ElemType::kF32 && instr.c_type == ElemType::kF16)
    return f32_to_f16_rn(uint32_t(d));
  throw std::logic_error("gemm: no conversion from D to C for " + instr.ptx());
}

// What the generator draws for a float family, and when an exact reference
// is possible: every partial sum is a multiple of `resolution` below
// `exact_limit` (where the accumulator type holds all such multiples) as long
// as max_c + k * max_product stays below it.
struct FloatValues {
  int ab_low = 0, ab_high = 0;  // A and B values are ab_step * [low, high]
  double ab_step = 1;
  int c_low = 0, c_high = 0;  // C values are c_step * [low, high]
  double c_step = 1;
  double max_product = 0, exact_limit = 0;
};

FloatValues float_values(const Instr& instr) {
  FloatValues values;
  switch (instr.family) {
    case Family::kE2m1:  // A and B are any e2m1 code
      values = {0, 0, 1, -256, 256, 0.25, 36, std::ldexp(1, 22)};
      break;
    case Family::kF16:
      if (instr.c_type == ElemType::kF16 || instr.d_type == ElemType::kF16)
        values = {-2, 2, 1, -16, 16, 1, 4, 2048};  // integers: f16 holds them to 2048
      else
        values = {-4, 4, 0.5, -256, 256, 0.25, 4, std::ldexp(1, 22)};
      break;
    default:  // f64
      values = {-16, 16, 0.5, -256, 256, 0.25, 64, std::ldexp(1, 51)};
      break;
  }
  return values;
}

bool exact_reference_possible(const Instr& instr, int k) {
  if (is_int4(instr)) return true;
  const FloatValues values = float_values(instr);
  return values.c_high * values.c_step + double(k) * values.max_product <= values.exact_limit;
}

// ---- the problem: A, B, C in matrix order ------------------------------------

struct Problem {
  Instr instr;
  int m = 0, n = 0, k = 0;
  std::vector<uint64_t> a;    // m x k codes (the logical A: zeros where sparse A has none)
  std::vector<uint64_t> b;    // k x n codes
  std::vector<uint64_t> c;    // m x n, c_type bits
  std::vector<uint8_t> meta;  // sparse: m x k/8 nibbles
  uint64_t scale_code = 0;    // e2m1: every scale factor, 1.0
};

uint64_t int32_bits(int64_t value) { return uint64_t(uint32_t(int32_t(value))); }

Problem make_problem(const GemmOptions& options) {
  Problem problem;
  const Instr& instr = options.instr;
  problem.instr = instr;
  problem.m = options.m;
  problem.n = options.n;
  problem.k = options.k;
  const size_t m = size_t(options.m), n = size_t(options.n), k = size_t(options.k);
  Random random(options.seed);
  problem.a.assign(m * k, 0);
  problem.b.assign(k * n, 0);
  problem.c.assign(m * n, 0);
  const FloatValues values = is_int4(instr) ? FloatValues{} : float_values(instr);
  auto draw_ab = [&](ElemType type) -> uint64_t {
    if (type == ElemType::kS4 || type == ElemType::kU4 || type == ElemType::kE2m1)
      return random.next() & 0xf;
    return element_bits(type, values.ab_step * random.between(values.ab_low, values.ab_high));
  };
  if (instr.sparse()) {
    // 2:4 sparsity by pairs: of each chunk of 8 elements (4 pairs) two
    // pairs are kept; the nibble names them (in increasing order for
    // ::ordered_metadata, either order otherwise).
    problem.meta.assign(m * (k / 8), 0);
    for (size_t row = 0; row < m; ++row)
      for (size_t chunk = 0; chunk < k / 8; ++chunk) {
        int first = random.between(0, 3), second = random.between(0, 2);
        if (second >= first) ++second;
        if (instr.ordered_metadata && first > second) std::swap(first, second);
        problem.meta[row * (k / 8) + chunk] = uint8_t(first | second << 2);
        for (int pair : {first, second})
          for (int half = 0; half < 2; ++half)
            problem.a[row * k + chunk * 8 + size_t(2 * pair + half)] = draw_ab(instr.a_type);
      }
  } else {
    for (uint64_t& code : problem.a) code = draw_ab(instr.a_type);
  }
  for (uint64_t& code : problem.b) code = draw_ab(instr.b_type);
  for (uint64_t& bits : problem.c) {
    if (is_int4(instr)) {
      // Mostly small, some near the int32 limits so that .satfinite clamps
      // and the wrapping variants wrap.
      const int64_t margin = random.between(0, 256);
      switch (random.between(0, 3)) {
        case 0:
          bits = int32_bits(INT32_MAX - margin);
          break;
        case 1:
          bits = int32_bits(INT32_MIN + margin);
          break;
        default:
          bits = int32_bits(random.between(-1000, 1000));
      }
    } else {
      bits =
          element_bits(instr.c_type, values.c_step * random.between(values.c_low, values.c_high));
    }
  }
  if (instr.block_scaled()) problem.scale_code = instr.scale_type == ElemType::kUe4m3 ? 0x38 : 127;
  return problem;
}

void expect_shape(const Matrix& matrix, int batches, int rows, int cols, const char* what) {
  if (matrix.batches != batches || matrix.rows != rows || matrix.cols != cols)
    throw std::logic_error(std::string("gemm: unexpected layout shape of ") + what);
}

// The matrix-order operands of one instruction: slot `slot` of k-step
// `step`, C from `acc_c` (m x n, c_type bits).
Operands slot_operands(const Problem& problem, const Tiling& tiling, int slot, int step,
                       const std::vector<uint64_t>& acc_c) {
  const Instr& instr = problem.instr;
  const int tm = instr.shape.m, tn = instr.shape.n, tk = instr.shape.k, batches = tiling.batches;
  auto matrix_for = [&](Operand op) {
    const FragmentLayout& layout = fragment_layout(instr, op);
    return Matrix(layout.batches(), layout.rows(), layout.cols());
  };
  Operands ops;
  ops.a = matrix_for(Operand::kA);
  ops.b = matrix_for(Operand::kB);
  ops.c = matrix_for(Operand::kC);
  expect_shape(ops.a, batches, tm, instr.sparse() ? tk / 2 : tk, "A");
  expect_shape(ops.b, batches, tk, tn, "B");
  expect_shape(ops.c, batches, tm, tn, "C");
  if (instr.sparse()) {
    ops.meta = matrix_for(Operand::kMeta);
    expect_shape(ops.meta, 1, tm, tk / 8, "metadata");
  }
  if (instr.block_scaled()) {
    ops.scale_a = matrix_for(Operand::kScaleA);
    ops.scale_b = matrix_for(Operand::kScaleB);
    std::fill(ops.scale_a.elems.begin(), ops.scale_a.elems.end(), problem.scale_code);
    std::fill(ops.scale_b.elems.begin(), ops.scale_b.elems.end(), problem.scale_code);
  }
  const size_t k = size_t(problem.k), n = size_t(problem.n);
  for (int batch = 0; batch < batches; ++batch) {
    const int tile = tiling.tile_of(slot, batch);
    if (tile < 0) continue;  // padding: zero operands
    const size_t row0 = size_t(tile / tiling.tile_cols) * tm,
                 col0 = size_t(tile % tiling.tile_cols) * tn, k0 = size_t(step) * tk;
    for (int r = 0; r < tm; ++r) {
      const uint64_t* a_row = &problem.a[(row0 + r) * k + k0];
      if (instr.sparse()) {
        for (int chunk = 0; chunk < tk / 8; ++chunk) {
          const unsigned nibble = problem.meta[(row0 + r) * (k / 8) + k0 / 8 + chunk];
          ops.meta.at(0, r, chunk) = nibble;
          for (int kept = 0; kept < 2; ++kept) {
            const int pair = (nibble >> (2 * kept)) & 3;
            for (int half = 0; half < 2; ++half)
              ops.a.at(batch, r, 4 * chunk + 2 * kept + half) = a_row[8 * chunk + 2 * pair + half];
          }
        }
      } else {
        for (int col = 0; col < tk; ++col) ops.a.at(batch, r, col) = a_row[col];
      }
      for (int col = 0; col < tn; ++col)
        ops.c.at(batch, r, col) = acc_c[(row0 + r) * n + col0 + col];
    }
    for (int row = 0; row < tk; ++row)
      for (int col = 0; col < tn; ++col)
        ops.b.at(batch, row, col) = problem.b[(k0 + row) * n + col0 + col];
  }
  return ops;
}

WarpOperands to_registers(const Instr& instr, const Operands& ops) {
  WarpOperands warp;
  warp.a = fragment_layout(instr, Operand::kA).scatter(ops.a);
  warp.b = fragment_layout(instr, Operand::kB).scatter(ops.b);
  warp.c = fragment_layout(instr, Operand::kC).scatter(ops.c);
  if (instr.sparse()) warp.e = fragment_layout(instr, Operand::kMeta).scatter(ops.meta);
  if (instr.block_scaled()) {
    warp.scale_a = fragment_layout(instr, Operand::kScaleA).scatter(ops.scale_a);
    warp.scale_b = fragment_layout(instr, Operand::kScaleB).scatter(ops.scale_b);
  }
  return warp;
}

// Writes a slot's D tiles (matrix order, d_type bits) into acc_d and,
// converted, into acc_c.
void scatter_d(const Problem& problem, const Tiling& tiling, int slot, const Matrix& d,
               std::vector<uint64_t>* acc_d, std::vector<uint64_t>* acc_c) {
  const Instr& instr = problem.instr;
  const int tm = instr.shape.m, tn = instr.shape.n;
  for (int batch = 0; batch < tiling.batches; ++batch) {
    const int tile = tiling.tile_of(slot, batch);
    if (tile < 0) continue;
    const size_t row0 = size_t(tile / tiling.tile_cols) * tm,
                 col0 = size_t(tile % tiling.tile_cols) * tn;
    for (int r = 0; r < tm; ++r)
      for (int col = 0; col < tn; ++col) {
        const size_t at = (row0 + r) * size_t(problem.n) + col0 + col;
        (*acc_d)[at] = d.at(batch, r, col);
        (*acc_c)[at] = d_to_c(instr, d.at(batch, r, col));
      }
  }
}

// ---- the reference ------------------------------------------------------------

// Integers: exact int64 products; each k-step's C + dot wraps modulo 2^32 or,
// with .satfinite, is clamped to the int32 range, as the instruction defines.
std::vector<uint64_t> int_reference(const Problem& problem) {
  const Instr& instr = problem.instr;
  const bool a_signed = instr.a_type == ElemType::kS4, b_signed = instr.b_type == ElemType::kS4;
  const size_t m = size_t(problem.m), n = size_t(problem.n), k = size_t(problem.k);
  const size_t step_k = size_t(instr.shape.k);
  std::vector<uint64_t> d(m * n);
  std::vector<int64_t> b_values(k * n);
  for (size_t i = 0; i < k * n; ++i) b_values[i] = int4_value(problem.b[i], b_signed);
  std::vector<int64_t> a_row(k);
  for (size_t row = 0; row < m; ++row) {
    for (size_t kk = 0; kk < k; ++kk) a_row[kk] = int4_value(problem.a[row * k + kk], a_signed);
    for (size_t col = 0; col < n; ++col) {
      int64_t acc = int32_t(uint32_t(problem.c[row * n + col]));
      for (size_t k0 = 0; k0 < k; k0 += step_k) {
        int64_t dot = 0;
        for (size_t kk = k0; kk < k0 + step_k; ++kk) dot += a_row[kk] * b_values[kk * n + col];
        acc += dot;
        if (instr.satfinite)
          acc = std::clamp<int64_t>(acc, INT32_MIN, INT32_MAX);
        else
          acc = int32_t(uint32_t(uint64_t(acc)));
      }
      d[row * n + col] = int32_bits(acc);
    }
  }
  return d;
}

// Floats with values chosen so that every partial sum is exact: C + A*B in
// double, in any order.
std::vector<double> exact_float_reference(const Problem& problem) {
  const Instr& instr = problem.instr;
  const size_t m = size_t(problem.m), n = size_t(problem.n), k = size_t(problem.k);
  std::vector<double> b_values(k * n);
  for (size_t i = 0; i < k * n; ++i) b_values[i] = element_value(instr.b_type, problem.b[i]);
  std::vector<double> d(m * n);
  std::vector<double> a_row(k);
  for (size_t row = 0; row < m; ++row) {
    for (size_t kk = 0; kk < k; ++kk)
      a_row[kk] = element_value(instr.a_type, problem.a[row * k + kk]);
    for (size_t col = 0; col < n; ++col) {
      double sum = element_value(instr.c_type, problem.c[row * n + col]);
      for (size_t kk = 0; kk < k; ++kk) sum += a_row[kk] * b_values[kk * n + col];
      d[row * n + col] = sum;
    }
  }
  return d;
}

// The golden model's order: golden_mma per tile, chained over the k-steps.
std::vector<uint64_t> golden_chain_reference(const Problem& problem, const Tiling& tiling) {
  std::vector<uint64_t> acc_c = problem.c, acc_d(problem.c.size());
  for (int step = 0; step < tiling.k_steps; ++step) {
    const std::vector<uint64_t> c_of_step = acc_c;
    for (int slot = 0; slot < tiling.slots; ++slot) {
      const Matrix d =
          golden_mma(problem.instr, slot_operands(problem, tiling, slot, step, c_of_step));
      scatter_d(problem, tiling, slot, d, &acc_d, &acc_c);
    }
  }
  return acc_d;
}

std::string format_element(ElemType type, uint64_t bits) {
  char text[64];
  if (type == ElemType::kS32) {
    std::snprintf(text, sizeof text, "%d", int32_t(uint32_t(bits)));
  } else {
    const int hex_digits = elem_bits(type) / 4;
    std::snprintf(text, sizeof text, "%.17g (0x%0*llx)", element_value(type, bits), hex_digits,
                  static_cast<unsigned long long>(bits));
  }
  return text;
}

std::string percent(double fraction) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f%%", 100 * fraction);
  return text;
}

// The GEMM through the engine: one stream per k-step, D of a k-step C of
// the next.
struct GemmRun {
  std::vector<uint64_t> d;  // the final D, row-major
  uint64_t cycles = 0;
  double engine_seconds = 0;
  std::vector<std::string> engine_errors;
};

GemmRun execute_gemm(Engine& engine, const GemmOptions& options, const Tiling& tiling,
                     const Problem& problem, const std::vector<int>& order,
                     const std::vector<int>& warp_of) {
  const Instr& instr = options.instr;
  GemmRun run;
  std::vector<uint64_t> acc_c = problem.c;
  run.d.resize(problem.c.size());
  const FragmentLayout& d_layout = fragment_layout(instr, Operand::kD);
  std::optional<CoverageSampler> sampler;
  if (options.coverage) sampler.emplace(options.coverage);
  for (int step = 0; step < tiling.k_steps; ++step) {
    std::vector<StreamItem> items;
    items.reserve(order.size());
    for (int slot : order) {
      const int tile = tiling.tile_of(slot, 0);
      items.push_back({instr,
                       to_registers(instr, slot_operands(problem, tiling, slot, step, acc_c)),
                       "k" + std::to_string(step) + ".w" + std::to_string(warp_of[slot]) + ".t" +
                           std::to_string(tile / tiling.tile_cols) + "," +
                           std::to_string(tile % tiling.tile_cols)});
    }
    const uint64_t cycles_before = engine.cycles();
    const auto t0 = std::chrono::steady_clock::now();
    const std::vector<Fragment> results = engine.execute_stream(items);
    run.engine_seconds +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    run.cycles += engine.cycles() - cycles_before;
    for (std::string& error : engine.take_errors()) run.engine_errors.push_back(std::move(error));
    if (results.size() != order.size())
      throw std::logic_error("gemm: the engine returned " + std::to_string(results.size()) +
                             " results for " + std::to_string(order.size()) + " instructions");
    if (sampler) sampler->sample(engine, items);
    for (size_t p = 0; p < order.size(); ++p)
      scatter_d(problem, tiling, order[p], d_layout.gather(results[p]), &run.d, &acc_c);
  }
  return run;
}

// D against an independent reference: the exact product where it can be
// computed, else golden_mma chained over the k-steps.
struct GemmCheck {
  std::string reference;
  bool by_value = false;  // compared by value (exact float product)
  uint64_t passed = 0, failed = 0;
  std::vector<std::string> mismatches;  // the first max_details
};

GemmCheck check_gemm(const GemmOptions& options, const Tiling& tiling, const Problem& problem,
                     const std::vector<int>& warp_of, const std::vector<uint64_t>& d) {
  const Instr& instr = options.instr;
  GemmCheck check;
  std::vector<uint64_t> want_bits;
  std::vector<double> want_values;
  if (is_int4(instr)) {
    check.reference = std::string("exact int64 matrix product, each k-step's sum ") +
                      (instr.satfinite ? "clamped to int32 (.satfinite)" : "wrapped modulo 2^32");
    want_bits = int_reference(problem);
  } else if (exact_reference_possible(instr, options.k)) {
    check.reference =
        "exact matrix product in double (values chosen so that every partial sum is exact in " +
        std::string(to_string(instr.d_type)) + "; zeros compared by value)";
    want_values = exact_float_reference(problem);
  } else {
    check.reference = "golden_mma chained over the k-steps (K too large for exact values)";
    want_bits = golden_chain_reference(problem, tiling);
  }
  check.by_value = !want_values.empty();
  const size_t n = size_t(options.n);
  for (size_t at = 0; at < d.size(); ++at) {
    bool ok;
    std::string expected;
    if (check.by_value) {
      ok = element_value(instr.d_type, d[at]) == want_values[at];
      char text[40];
      std::snprintf(text, sizeof text, "%.17g", want_values[at]);
      expected = text;
    } else {
      ok = d[at] == want_bits[at];
      expected = format_element(instr.d_type, want_bits[at]);
    }
    (ok ? check.passed : check.failed)++;
    if (ok || int(check.mismatches.size()) >= options.max_details) continue;
    const int row = int(at / n), col = int(at % n);
    const int tile = row / instr.shape.m * tiling.tile_cols + col / instr.shape.n;
    check.mismatches.push_back("mismatch: D[" + std::to_string(row) + "][" + std::to_string(col) +
                               "] (tile " + std::to_string(row / instr.shape.m) + "," +
                               std::to_string(col / instr.shape.n) + ", warp " +
                               std::to_string(warp_of[tile / tiling.batches]) + "): expected " +
                               expected + ", got " + format_element(instr.d_type, d[at]));
  }
  return check;
}

// What the summary and the report's details share.
struct GemmFigures {
  const GemmOptions& options;
  const Tiling& tiling;
  GemmCycleEstimate estimate;
  uint64_t measured_cycles;  // 0: not timed (the golden engine)
  double macs, peak;
  bool timed() const { return measured_cycles > 0; }
  // The cycles the estimate leaves to back-pressure (measured minus the rest).
  int64_t unexplained() const {
    return timed() ? int64_t(measured_cycles) - int64_t(estimate.total()) : 0;
  }
};

// The shape, the instructions and MACs, the cycles and utilization if timed.
void print_gemm_shape(std::ostream& out, const GemmFigures& f, const std::string& engine) {
  const GemmOptions& options = f.options;
  const Instr& instr = options.instr;
  char line[256];
  out << "gemm D = A*B + C: M=" << options.m << " N=" << options.n << " K=" << options.k
      << ", seed " << options.seed << "\n"
      << "  " << instr.ptx() << "\n";
  std::snprintf(line, sizeof line,
                "  %d x %d output tiles of %dx%d%s, %d k-step(s) of k=%d, %d warp(s), engine %s\n",
                f.tiling.tile_rows, f.tiling.tile_cols, instr.shape.m, instr.shape.n,
                f.tiling.batches > 1 ? " (four per instruction, one per quad pair)" : "",
                f.tiling.k_steps, instr.shape.k, options.warps, engine.c_str());
  out << line;
  std::snprintf(line, sizeof line, "  %-24s %llu (%d per k-step)\n", "instructions",
                static_cast<unsigned long long>(f.tiling.instructions()), f.tiling.slots);
  out << line;
  std::snprintf(line, sizeof line, "  %-24s %.0f%s\n", "MACs", f.macs,
                instr.sparse() ? " (dense-equivalent; the 2:4 sparse A skips half)" : "");
  out << line;
  if (f.timed()) {
    std::snprintf(line, sizeof line, "  %-24s %llu\n", "cycles",
                  static_cast<unsigned long long>(f.measured_cycles));
    out << line;
    std::snprintf(line, sizeof line, "  %-24s %s of %.0f MACs/cycle\n", "MAC utilization",
                  percent(f.macs / (double(f.measured_cycles) * f.peak)).c_str(), f.peak);
    out << line;
  }
}

// Where the cycles go: the estimate's parts beside the measured cycles.
void print_gemm_estimate(std::ostream& out, const GemmFigures& f) {
  const GemmOptions& options = f.options;
  const GemmCycleEstimate& estimate = f.estimate;
  char line[256];
  const FrontEndConfig& fe = options.front_end;
  out << "  where the cycles go (estimate from model/include/tcu/gemm_timing.h, rf bandwidth "
      << fe.rf_regs_per_cycle << " words/cycle";
  if (const std::string banks = describe_banks(fe); !banks.empty()) out << ", " << banks;
  out << "):\n";
  auto estimate_line = [&](const char* what, uint64_t cycles, const std::string& why) {
    std::snprintf(line, sizeof line, "    %-22s %10llu  %s\n", what,
                  static_cast<unsigned long long>(cycles), why.c_str());
    out << line;
  };
  const std::string per_step = std::to_string(f.tiling.k_steps) + " k-step(s) x ";
  estimate_line("datapath occupancy", estimate.occupancy,
                std::to_string(f.tiling.instructions()) + " instr x " +
                    std::to_string(estimate.occupancy_per_instr));
  estimate_line("operand delivery", estimate.delivery,
                "the first instruction's " + std::to_string(estimate.delivery_per_instr) +
                    " per k-step, later ones' collection or write-back beyond the occupancy");
  estimate_line("pipeline fill/drain", estimate.fill_drain,
                per_step + "(latency " + std::to_string(estimate.latency) + " - occupancy " +
                    std::to_string(estimate.occupancy_per_instr) + " + write-back " +
                    std::to_string(estimate.write_back) + ")");
  estimate_line("engine switches", estimate.switches, "one variant, one engine");
  const int64_t unexplained = f.unexplained();
  if (options.backpressure > 0)
    estimate_line(
        "back-pressure", uint64_t(std::max<int64_t>(0, unexplained)),
        "measured minus the rest (out_ready low " + percent(options.backpressure) + " of cycles)");
  else
    estimate_line("back-pressure", 0, "none");
  std::snprintf(line, sizeof line, "    %-22s %10llu", "estimate",
                static_cast<unsigned long long>(estimate.total()));
  out << line;
  if (f.timed() && options.backpressure == 0) {
    std::snprintf(line, sizeof line, "  (measured %+lld)", static_cast<long long>(unexplained));
    out << line;
  }
  if (f.timed() && options.backpressure > 0) out << "  (without back-pressure)";
  if (!f.timed())
    out << "  (estimated utilization " << percent(f.macs / (double(estimate.total()) * f.peak))
        << ")";
  out << "\n";
}

// The check's lines: the reference, the engine's errors, the mismatches and
// the count; returns the exit code.
int print_gemm_check(std::ostream& out, const GemmCheck& check, const GemmRun& run,
                     const Engine& engine, const Instr& instr) {
  out << "  check: " << check.reference << "\n";
  for (const std::string& error : run.engine_errors) out << "  " << error << "\n";
  for (const std::string& mismatch : check.mismatches) out << "  " << mismatch << "\n";
  if (!run.engine_errors.empty())
    out << run.engine_errors.size() << " engine check(s) failed (timing or scoreboard)\n";
  if (engine.name() == "golden" && !check.by_value && !is_int4(instr))
    out << "note: the golden engine checked against golden_mma is a self-check\n";
  out << check.passed << " of " << run.d.size() << " D elements match, " << check.failed
      << " differ\n";
  return check.failed || !run.engine_errors.empty() ? kExitMismatch : kExitOk;
}

// The report's one variant: D elements passed and failed, cycles, details.
VariantResult gemm_variant(const GemmOptions& options, const Tiling& tiling, const GemmRun& run,
                           const GemmCheck& check) {
  VariantResult variant;
  variant.ptx = options.instr.ptx();
  variant.passed = check.passed;
  variant.failed = check.failed;
  variant.engine_errors = run.engine_errors.size();
  variant.cycles = run.cycles;
  variant.instructions = tiling.instructions();
  variant.seconds = run.engine_seconds;
  variant.details = run.engine_errors;
  variant.details.insert(variant.details.end(), check.mismatches.begin(), check.mismatches.end());
  return variant;
}

// The report's "gemm" details: shape, cycles, utilization, the estimate.
void gemm_details(const GemmFigures& f, const std::string& reference,
                  nlohmann::ordered_json* details) {
  const GemmOptions& options = f.options;
  nlohmann::ordered_json& gemm = *details;
  gemm["m"] = options.m;
  gemm["n"] = options.n;
  gemm["k"] = options.k;
  gemm["warps"] = options.warps;
  gemm["k_steps"] = f.tiling.k_steps;
  gemm["instructions"] = f.tiling.instructions();
  gemm["macs"] = uint64_t(f.macs);
  gemm["peak_macs_per_cycle"] = f.peak;
  if (f.timed()) {
    gemm["cycles"] = f.measured_cycles;
    if (options.backpressure > 0)
      gemm["backpressure_cycles"] = std::max<int64_t>(0, f.unexplained());
    gemm["mac_utilization"] = f.macs / (double(f.measured_cycles) * f.peak);
  }
  gemm["estimate"] = {{"occupancy", f.estimate.occupancy},
                      {"operand_delivery", f.estimate.delivery},
                      {"fill_drain", f.estimate.fill_drain},
                      {"engine_switches", f.estimate.switches},
                      {"total", f.estimate.total()}};
  gemm["reference"] = reference;
}

}  // namespace

std::string gemm_options_error(const GemmOptions& options) {
  const Instr& instr = options.instr;
  const Shape& shape = instr.shape;
  for (auto [name, value, tile, what] : {std::tuple{"--m", options.m, shape.m, "m"},
                                         {"--n", options.n, shape.n, "n"},
                                         {"--k", options.k, shape.k, "k"}}) {
    const std::string given = std::string(name) + " " + std::to_string(value);
    if (value < 1 || value > kMaxDimension)
      return given + ": expected 1 .. " + std::to_string(kMaxDimension);
    if (value % tile != 0)
      return given + ": not a multiple of the instruction's " + what + " (" + std::to_string(tile) +
             ", " + instr.ptx() + ")";
  }
  const Tiling tiling = tiling_of(options);
  if (options.warps < 1) return "--warps " + std::to_string(options.warps) + ": expected >= 1";
  if (options.warps > tiling.slots)
    return "--warps " + std::to_string(options.warps) + ": more warps than the " +
           std::to_string(tiling.slots) + " instruction(s) of a k-step (output tiles per warp)";
  if (!options.estimate_only && tiling.instructions() > kMaxInstructions)
    return "--m/--n/--k: " + std::to_string(tiling.instructions()) +
           " instructions, more than the limit of " + std::to_string(kMaxInstructions);
  if (const std::string why = front_end_config_error(options.front_end); !why.empty())
    return "front-end: " + why;
  return "";
}

int run_gemm(Engine& engine, const GemmOptions& options, std::ostream& out, Report* report,
             nlohmann::ordered_json* details) {
  const auto start = std::chrono::steady_clock::now();
  const Instr& instr = options.instr;
  const Tiling tiling = tiling_of(options);
  const Problem problem = make_problem(options);
  std::vector<int> warp_of;
  const std::vector<int> order = issue_order(tiling, options.warps, &warp_of);
  const std::optional<Activity> activity_before = engine.activity();
  const GemmRun run = execute_gemm(engine, options, tiling, problem, order, warp_of);
  const GemmCheck check = check_gemm(options, tiling, problem, warp_of, run.d);

  const GemmFigures figures{
      options,
      tiling,
      estimate_gemm_cycles(options.datapath, options.front_end, instr, uint64_t(tiling.k_steps),
                           uint64_t(tiling.slots)),
      run.cycles,
      double(options.m) * double(options.n) * double(options.k),
      peak_dense_macs_per_cycle(options.datapath, instr)};
  print_gemm_shape(out, figures, engine.name());
  print_gemm_estimate(out, figures);
  if (!options.compare.empty())
    print_peak_comparison(
        options.datapath, instr,
        figures.macs /
            (double(figures.timed() ? run.cycles : figures.estimate.total()) * figures.peak),
        figures.timed() ? "measured" : "estimate", out, details);
  std::optional<Activity> activity = engine.activity();
  if (activity && activity_before) {
    *activity = *activity - *activity_before;
    activity->router_words = uint64_t(tiling.instructions()) * router_words(instr);
    report->activity = activity;
    report->datapath = options.datapath;
    print_activity(out, *activity, options.datapath, "  ");
  }
  const int exit_code = print_gemm_check(out, check, run, engine, instr);

  report->engine = engine.name();
  report->variants = {gemm_variant(options, tiling, run, check)};
  report->exit_code = exit_code;
  report->wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  gemm_details(figures, check.reference, details);
  return exit_code;
}

int estimate_gemm(const GemmOptions& options, std::ostream& out, nlohmann::ordered_json* details) {
  const Instr& instr = options.instr;
  const Tiling tiling = tiling_of(options);
  const GemmCycleEstimate estimate =
      estimate_gemm_cycles(options.datapath, options.front_end, instr, uint64_t(tiling.k_steps),
                           uint64_t(tiling.slots));
  const double macs = double(options.m) * double(options.n) * double(options.k);
  const double utilization =
      macs / (double(estimate.total()) * peak_dense_macs_per_cycle(options.datapath, instr));
  out << "gemm D = A*B + C: M=" << options.m << " N=" << options.n << " K=" << options.k
      << ", estimate only (nothing run)\n"
      << "  " << instr.ptx() << "\n"
      << "  instructions " << tiling.instructions() << " (" << tiling.slots << " per k-step, "
      << tiling.k_steps << " k-steps)\n"
      << "  estimate " << estimate.total() << " cycles: occupancy " << estimate.occupancy
      << ", operand delivery " << estimate.delivery << ", pipeline fill/drain "
      << estimate.fill_drain << " (model/include/tcu/gemm_timing.h)\n"
      << "  estimated utilization " << percent(utilization) << "\n";
  (*details)["m"] = options.m;
  (*details)["n"] = options.n;
  (*details)["k"] = options.k;
  (*details)["instructions"] = tiling.instructions();
  (*details)["estimate"] = {{"occupancy", estimate.occupancy},
                            {"operand_delivery", estimate.delivery},
                            {"fill_drain", estimate.fill_drain},
                            {"total", estimate.total()}};
  (*details)["estimated_utilization"] = utilization;
  if (!options.compare.empty())
    print_peak_comparison(options.datapath, instr, utilization, "estimate", out, details);
  return kExitOk;
}

}  // namespace tcu
