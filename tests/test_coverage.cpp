// The functional coverage model (tcu/coverage.h): hand-built operands hit
// exactly the bins they should, and no neighbour (each case also checks a
// bin it must not hit, so a classifier that hits everything fails); the
// waiver file and the JSON merge refuse bad input naming the file and line.
#include <catch2/catch.hpp>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>

#include "coverage.h"
#include "tcu/coverage.h"
#include "tcu/golden.h"
#include "tcu/layout.h"

namespace {

uint64_t hits(const tcu::FunctionalCoverage& coverage, const tcu::Instr& instr,
              const std::string& name) {
  for (const tcu::CoverageBin& bin : coverage.bins())
    if (bin.group == instr.ptx() && bin.name == name) return bin.hits;
  FAIL("no bin " << name << " for " << instr.ptx());
  return 0;
}

// Operands of `instr` whose every A, B and C element is the bit pattern
// `a`, `b`, `c` (matrix order, laid out by the instruction's layouts).
tcu::WarpOperands uniform(const tcu::Instr& instr, uint64_t a, uint64_t b, uint64_t c) {
  tcu::WarpOperands warp;
  auto fill = [&](tcu::Operand op, uint64_t value) {
    const tcu::FragmentLayout& layout = tcu::fragment_layout(instr, op);
    tcu::Matrix m(layout.batches(), layout.rows(), layout.cols());
    for (uint64_t& e : m.elems) e = value;
    return layout.scatter(m);
  };
  warp.a = fill(tcu::Operand::kA, a);
  warp.b = fill(tcu::Operand::kB, b);
  warp.c = fill(tcu::Operand::kC, c);
  return warp;
}

uint64_t bits_of(double value) {
  uint64_t bits;
  std::memcpy(&bits, &value, 8);
  return bits;
}

}  // namespace

TEST_CASE("int4: C near the int32 limits wraps or clamps as the variant says", "[coverage]") {
  const tcu::Instr wrap = tcu::parse_ptx("mma.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32");
  const tcu::Instr clamp =
      tcu::parse_ptx("mma.sync.aligned.m16n8k64.row.col.satfinite.s32.s4.s4.s32");
  tcu::FunctionalCoverage coverage;
  // 7 * 7 * 64 = 3136 above INT32_MAX - 10.
  coverage.sample(wrap, uniform(wrap, 7, 7, 0x7ffffff5u));
  coverage.sample(clamp, uniform(clamp, 7, 7, 0x7ffffff5u));
  CHECK(hits(coverage, wrap, "d.wrap_high") == 1);
  CHECK(hits(coverage, wrap, "d.wrap_low") == 0);
  CHECK(hits(coverage, wrap, "d.in_range") == 0);
  CHECK(hits(coverage, clamp, "d.clamp_high") == 1);
  CHECK(hits(coverage, clamp, "d.clamp_low") == 0);
  CHECK(hits(coverage, wrap, "a.max") == 1);
  CHECK(hits(coverage, wrap, "a.min") == 0);
  CHECK(hits(coverage, wrap, "c.max") == 0);  // 0x7ffffff5 is not INT32_MAX
  // -8 * 7 * 64 below INT32_MIN + 10.
  coverage.sample(clamp, uniform(clamp, 8, 7, 0x8000000au));
  CHECK(hits(coverage, clamp, "d.clamp_low") == 1);
  CHECK(hits(coverage, clamp, "a.min") == 1);
  coverage.sample(wrap, uniform(wrap, 0, 0, 0x7fffffffu));
  CHECK(hits(coverage, wrap, "d.in_range") == 1);
  CHECK(hits(coverage, wrap, "c.max") == 1);
  CHECK(hits(coverage, wrap, "a.zero") == 1);
}

TEST_CASE("f64: overflow and cancellation are told apart", "[coverage]") {
  const tcu::Instr f64 = tcu::parse_ptx("mma.sync.aligned.m8n8k4.row.col.rn.f64.f64.f64.f64");
  auto uniform_f64 = [&](double a, double b, double c) {
    return uniform(f64, bits_of(a), bits_of(b), bits_of(c));
  };
  tcu::FunctionalCoverage coverage;
  coverage.sample(f64, uniform_f64(1e300, 1e300, 0.0));  // finite operands, infinite sums
  CHECK(hits(coverage, f64, "d.overflow") == 1);
  CHECK(hits(coverage, f64, "d.inf") == 1);
  CHECK(hits(coverage, f64, "d.cancel_pos_zero") == 0);
  coverage.sample(f64, uniform_f64(1.0, 1.0, -4.0));  // 4 * 1 - 4 = +0 in .rn
  CHECK(hits(coverage, f64, "d.cancel_pos_zero") == 1);
  CHECK(hits(coverage, f64, "d.cancel_neg_zero") == 0);
  CHECK(hits(coverage, f64, "d.inexact_zero") == 0);  // an exact zero
  // 2^-600 * 2^-600 = 2^-1200 rounds to +0 four times: a zero from a
  // nonzero exact value (the cancellation bin counts it too).
  coverage.sample(f64, uniform_f64(0x1p-600, 0x1p-600, 0.0));
  CHECK(hits(coverage, f64, "d.inexact_zero") == 1);
  CHECK(hits(coverage, f64, "d.cancel_pos_zero") == 2);
  CHECK(hits(coverage, f64, "d.overflow") == 1);
  const double inf = std::numeric_limits<double>::infinity();
  coverage.sample(f64, uniform_f64(inf, 1.0, 0.0));  // infinite operand: inf, not overflow
  CHECK(hits(coverage, f64, "d.inf") == 2);
  CHECK(hits(coverage, f64, "d.overflow") == 1);
  CHECK(hits(coverage, f64, "a.pos_inf") == 1);
}

TEST_CASE("every variant has bins; the stream has the family pairs", "[coverage]") {
  tcu::FunctionalCoverage coverage;
  size_t stream = 0;
  for (const tcu::CoverageBin& bin : coverage.bins()) stream += bin.group == "stream";
  CHECK(stream == 25);
  for (const tcu::Instr& instr : tcu::all_variants())
    CHECK(tcu::coverage_bin_names(instr).size() >= 9);  // u4 x u4 m8n8k32: the fewest
  const tcu::Instr sparse =
      tcu::parse_ptx("mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32");
  size_t meta = 0;
  for (const auto& [name, kind] : tcu::coverage_bin_names(sparse)) meta += kind == "metadata";
  CHECK(meta == 6 + 2);  // the six ordered 2:4 patterns and both selectors
}

TEST_CASE("waivers and merged parts: bad input names the file and line", "[coverage]") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / "tcu_test_coverage";
  fs::create_directories(dir);
  tcu::FunctionalCoverage coverage;
  auto write = [&](const char* name, const std::string& text) {
    std::ofstream(dir / name) << text;
    return (dir / name).string();
  };
  const std::string good = write("good.txt", "# comment\n\n* | d.overflow | cannot happen here\n");
  tcu::apply_waivers(good, &coverage);
  size_t waived = 0;
  for (const tcu::CoverageBin& bin : coverage.bins()) waived += !bin.waiver.empty();
  CHECK(waived > 0);
  const std::string no_bin = write("nobin.txt", "\n* | d.no_such_bin | why\n");
  CHECK_THROWS_WITH(tcu::apply_waivers(no_bin, &coverage),
                    Catch::Contains("nobin.txt:2") && Catch::Contains("d.no_such_bin"));
  const std::string no_reason = write("noreason.txt", "* | d.overflow |\n");
  CHECK_THROWS_WITH(tcu::apply_waivers(no_reason, &coverage),
                    Catch::Contains("noreason.txt:1") && Catch::Contains("reason"));
  const std::string json = (dir / "functional.json").string();
  tcu::write_functional_json(json, coverage);
  tcu::FunctionalCoverage merged;
  tcu::add_functional_json(json, &merged);
  const std::string bad = write("bad.json", "{\"bins\": [{\"group\": \"x\", \"name\": \"y\", "
                                            "\"hits\": 1}]}");
  CHECK_THROWS_WITH(tcu::add_functional_json(bad, &merged),
                    Catch::Contains("bad.json") && Catch::Contains("not a bin"));
  fs::remove_all(dir);
}
