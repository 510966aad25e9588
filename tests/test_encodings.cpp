// The format table and its encoding classes (tcu/encodings.h): the table
// against the RTL package's (rtl/tcu_pkg.sv), the classes against the C
// library's classification (f32, f64), the model's decoders (f16, e2m1,
// int4) and the OCP MX formats' stated codes (ue8m0, ue4m3), and every
// class's encodings classified back into it.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <cstdlib>
#include <fstream>
#include <map>
#include <random>
#include <regex>
#include <sstream>
#include <stdexcept>

#include "tcu/encodings.h"
#include "tcu/golden.h"
#include "tcu/values.h"

namespace {

using tcu::ElemType;

const std::string& klass(ElemType type, uint64_t raw) {
  return tcu::encoding_class_name(type, raw);
}

// rtl/tcu_pkg.sv: $TCU_PKG_SV (CTest names the checkout's), else the
// working directory's rtl/tcu_pkg.sv (run from the checkout).
std::string read_package() {
  const char* given = std::getenv("TCU_PKG_SV");
  const std::string path = given && *given ? given : "rtl/tcu_pkg.sv";
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot read (set TCU_PKG_SV, or run from the checkout)");
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// One column of the package's format table: FP_<NAME> = {32'dX, ...} (or
// 1'bX), listed from the highest format index.
std::vector<uint64_t> column(const std::string& pkg, const std::string& name) {
  const std::regex line(name + R"(\s*=\s*\{([^}]*)\})");
  std::smatch m;
  if (!std::regex_search(pkg, m, line)) return {};
  std::vector<uint64_t> values;
  const std::regex value(R"(\d+'[db](\d+))");
  const std::string list = m[1];
  for (auto it = std::sregex_iterator(list.begin(), list.end(), value);
       it != std::sregex_iterator(); ++it)
    values.push_back(
        std::stoull((*it)[1], nullptr, (*it)[0].str().find('b') != std::string::npos ? 2 : 10));
  std::reverse(values.begin(), values.end());  // index order
  return values;
}

uint64_t scalar(const std::string& pkg, const std::string& name) {
  const std::regex line(name + R"(\s*=\s*(?:\d+'h)?([0-9a-fA-F_]+)\s*;)");
  std::smatch m;
  if (!std::regex_search(pkg, m, line)) return ~uint64_t{0};
  std::string digits = m[1];
  digits.erase(std::remove(digits.begin(), digits.end(), '_'), digits.end());
  return std::stoull(digits, nullptr, m[0].str().find("'h") != std::string::npos ? 16 : 10);
}

// Every disagreement between the model's table and the package's.
std::vector<std::string> table_disagreements(const std::string& pkg) {
  std::vector<std::string> out;
  // fp_format_e: NAME = 3'dN.
  std::map<std::string, int> index;
  const std::regex entry(R"(\b(FP32|FP64|FP16|E2M1|UE8M0|UE4M3)\s*=\s*3'd(\d))");
  for (auto it = std::sregex_iterator(pkg.begin(), pkg.end(), entry); it != std::sregex_iterator();
       ++it)
    index[(*it)[1]] = std::stoi((*it)[2]);
  const std::map<std::string, ElemType> types = {
      {"FP32", ElemType::kF32},  {"FP64", ElemType::kF64},    {"FP16", ElemType::kF16},
      {"E2M1", ElemType::kE2m1}, {"UE8M0", ElemType::kUe8m0}, {"UE4M3", ElemType::kUe4m3}};
  const auto exp = column(pkg, "FP_EXP_BITS"), man = column(pkg, "FP_MAN_BITS");
  const auto bias = column(pkg, "FP_BIAS"), sign = column(pkg, "FP_HAS_SIGN");
  const auto special = column(pkg, "FP_HAS_SPECIAL");
  if (index.size() != types.size()) out.push_back("fp_format_e: not every format found");
  for (const auto& entry_index : index) {
    const std::string& name = entry_index.first;
    const int i = entry_index.second;
    const tcu::NumberFormat& f = tcu::number_format(types.at(name));
    auto at = [&](const std::vector<uint64_t>& col) {
      return size_t(i) < col.size() ? int64_t(col[size_t(i)]) : -1;
    };
    auto check = [&](const char* field, int64_t rtl, int64_t model) {
      if (rtl != model)
        out.push_back(name + " " + field + ": RTL " + std::to_string(rtl) + ", model " +
                      std::to_string(model));
    };
    check("exp_bits", at(exp), f.exp_bits);
    check("man_bits", at(man), f.man_bits);
    check("bias", at(bias), f.bias);
    check("has_sign", at(sign), f.has_sign);
    check("has_special", at(special), f.nan != tcu::NanCode::kNone);
    check("fp_width", at(exp) + at(man) + at(sign), f.width);
  }
  auto check_int = [&](const char* name, ElemType type) {
    if (int64_t(scalar(pkg, name)) != tcu::number_format(type).width)
      out.push_back(std::string(name) + " differs from " + tcu::to_string(type) +
                    "'s width");
  };
  check_int("INT4_BITS", ElemType::kS4);
  check_int("INT4_BITS", ElemType::kU4);
  check_int("INT32_BITS", ElemType::kS32);
  // The NaNs the datapath writes are NaNs of the table's formats.
  const std::pair<const char*, ElemType> nans[] = {{"F32_CANONICAL_NAN", ElemType::kF32},
                                                   {"F16_CANONICAL_NAN", ElemType::kF16},
                                                   {"F64_DEFAULT_NAN", ElemType::kF64}};
  for (const auto& [name, type] : nans)
    if (klass(type, scalar(pkg, name)) != "qnan")
      out.push_back(std::string(name) + " is not a quiet NaN");
  return out;
}

}  // namespace

TEST_CASE("encodings: the format table is the RTL package's", "[encodings]") {
  const std::string pkg = read_package();
  REQUIRE(!pkg.empty());
  const auto disagreements = table_disagreements(pkg);
  for (const std::string& d : disagreements) UNSCOPED_INFO(d);
  CHECK(disagreements.empty());
  // Planted: a package whose ue4m3 bias is 8, or whose f16 NaN is signalling.
  std::string planted = pkg;
  const std::string bias_row = "FP_BIAS     = {32'd7,";
  REQUIRE(planted.find(bias_row) != std::string::npos);
  planted.replace(planted.find(bias_row), bias_row.size(), "FP_BIAS     = {32'd8,");
  const auto found = table_disagreements(planted);
  REQUIRE(found.size() == 1);
  CHECK(found[0] == "UE4M3 bias: RTL 8, model 7");
  planted = std::regex_replace(pkg, std::regex("16'h7fff"), "16'h7dff");
  CHECK(table_disagreements(planted) ==
        std::vector<std::string>{"F16_CANONICAL_NAN is not a quiet NaN"});
}

TEST_CASE("encodings: every class's encodings classify back into it", "[encodings]") {
  std::mt19937_64 rng(3);
  for (const tcu::NumberFormat& f : tcu::number_formats()) {
    const auto& names = tcu::encoding_classes(f.type);
    REQUIRE(names.size() >= 3);
    for (int cls = 0; cls < int(names.size()); ++cls)
      for (int i = 0; i < 200; ++i) {
        const uint64_t v = tcu::encoding_of_class(f.type, cls, rng());
        INFO(tcu::to_string(f.type) << " " << names[size_t(cls)] << " 0x" << std::hex << v);
        CHECK(tcu::classify_encoding(f.type, v) == cls);
        if (f.container < 64) CHECK((v >> f.container) == 0);
      }
    // Bits above the container are not looked at.
    if (f.container < 64)
      CHECK(tcu::classify_encoding(f.type, uint64_t{1} << f.container) ==
            tcu::classify_encoding(f.type, 0));
  }
}

TEST_CASE("encodings: f32 and f64 classes agree with fpclassify", "[encodings]") {
  std::mt19937_64 rng(5);
  // fpclassify of the value in its own type (an f32 subnormal is a normal
  // double).
  auto expect = [](int fpclass, bool negative, bool largest) -> std::string {
    switch (fpclass) {
      case FP_ZERO:
        return negative ? "neg_zero" : "pos_zero";
      case FP_SUBNORMAL:
        return "subnormal";
      case FP_INFINITE:
        return negative ? "neg_inf" : "pos_inf";
      case FP_NAN:
        return "nan";
      default:
        return largest ? "largest" : "normal";
    }
  };
  for (int i = 0; i < 20000; ++i) {
    const ElemType type = i % 2 ? ElemType::kF32 : ElemType::kF64;
    const auto& names = tcu::encoding_classes(type);
    uint64_t bits =
        i % 4 < 2 ? tcu::encoding_of_class(type, int(rng() % names.size()), rng()) : rng();
    double v;
    bool largest;
    int fpclass;
    if (type == ElemType::kF32) {
      bits &= 0xffffffff;
      float x;
      const uint32_t word = uint32_t(bits);
      std::memcpy(&x, &word, 4);
      v = x;
      fpclass = std::fpclassify(x);
      largest = std::fabs(x) == FLT_MAX;
    } else {
      std::memcpy(&v, &bits, 8);
      fpclass = std::fpclassify(v);
      largest = std::fabs(v) == DBL_MAX;
    }
    std::string got = klass(type, bits);
    if (got == "qnan" || got == "snan") got = "nan";
    INFO(std::hex << bits);
    CHECK(got == expect(fpclass, std::signbit(v), largest));
  }
}

TEST_CASE("encodings: f16, e2m1, s4 and u4 classes agree with the model's decoders",
          "[encodings]") {
  for (uint64_t h = 0; h < 0x10000; ++h) {
    const double v = tcu::element_value(ElemType::kF16, h);
    const std::string& got = klass(ElemType::kF16, h);
    const double a = std::fabs(v);
    std::string want = std::isnan(v)   ? ((h >> 9) & 1 ? "qnan" : "snan")
                       : std::isinf(v) ? (v < 0 ? "neg_inf" : "pos_inf")
                       : v == 0        ? (std::signbit(v) ? "neg_zero" : "pos_zero")
                       : a < 0x1p-14   ? "subnormal"
                       : a == 65504    ? "largest"
                                       : "normal";
    INFO(std::hex << h);
    CHECK(got == want);
  }
  for (uint64_t code = 0; code < 16; ++code) {
    const int halves = tcu::e2m1_halves(code);
    const std::string want = halves == 0              ? (code & 8 ? "neg_zero" : "pos_zero")
                             : std::abs(halves) == 1  ? "subnormal"
                             : std::abs(halves) == 12 ? "largest"
                                                      : "normal";
    CHECK(klass(ElemType::kE2m1, code) == want);
    const int s = tcu::int4_value(code, true), u = tcu::int4_value(code, false);
    CHECK(klass(ElemType::kS4, code) == (s == 0    ? "zero"
                                         : s == 7  ? "max"
                                         : s == -8 ? "min"
                                         : s > 0   ? "positive"
                                                   : "negative"));
    CHECK(klass(ElemType::kU4, code) == (u == 0 ? "zero" : u == 15 ? "max" : "positive"));
  }
}

TEST_CASE("encodings: ue8m0 and ue4m3 bytes as the OCP MX formats state them", "[encodings]") {
  // ue8m0: 2^(byte - 127), 0xff NaN. ue4m3 (read through abs(): bit 7
  // ignored): 0x00 zero, 0x01-0x07 subnormal, 0x7e = 448 the largest, 0x7f
  // NaN.
  for (uint64_t byte = 0; byte < 256; ++byte) {
    CHECK(klass(ElemType::kUe8m0, byte) == (byte == 0      ? "min"
                                            : byte == 0xfe ? "largest"
                                            : byte == 0xff ? "nan"
                                                           : "normal"));
    CHECK(klass(ElemType::kUe4m3, byte) == (byte >= 0x80   ? "ignored_bits"
                                            : byte == 0    ? "zero"
                                            : byte < 8     ? "subnormal"
                                            : byte == 0x7e ? "largest"
                                            : byte == 0x7f ? "nan"
                                                           : "normal"));
  }
  CHECK(tcu::encoding_classes(ElemType::kS32) ==
        std::vector<std::string>{"zero", "positive", "negative", "max", "min"});
  CHECK(klass(ElemType::kS32, 0x80000000u) == "min");
  CHECK(klass(ElemType::kS32, 0x7fffffffu) == "max");
  CHECK(klass(ElemType::kS32, 0xffffffffu) == "negative");
}
