#include "tcu/instr.h"

#include <algorithm>
#include <iterator>
#include <sstream>

namespace tcu {
namespace {

std::vector<std::string> split_dots(std::string_view text) {
  std::vector<std::string> parts;
  std::string current;
  for (char ch : text) {
    if (ch == '.') {
      parts.push_back(current);
      current.clear();
    } else {
      current.push_back(ch);
    }
  }
  parts.push_back(current);
  return parts;
}

// Walks the '.'-separated qualifiers left to right; every error message says
// which qualifier was wrong and what was expected there.
class Cursor {
 public:
  Cursor(std::string_view text, std::vector<std::string> parts)
      : text_(text), parts_(std::move(parts)) {}

  bool done() const { return pos_ >= parts_.size(); }
  const std::string& peek() const {
    static const std::string kEnd;
    return done() ? kEnd : parts_[pos_];
  }
  bool accept(std::string_view token) {
    if (!done() && parts_[pos_] == token) {
      ++pos_;
      return true;
    }
    return false;
  }
  void expect(std::string_view token, std::string_view why = {}) {
    if (!accept(token)) {
      fail("expected '." + std::string(token) + "'" +
           (why.empty() ? "" : " (" + std::string(why) + ")"));
    }
  }
  // Consumes the next token, which must be one of `choices`; returns its index.
  size_t expect_one_of(std::initializer_list<std::string_view> choices, std::string_view what) {
    return expect_one_of(std::vector<std::string_view>(choices), what);
  }
  size_t expect_one_of(const std::vector<std::string_view>& choices, std::string_view what) {
    size_t index = 0;
    for (auto choice : choices) {
      if (accept(choice)) return index;
      ++index;
    }
    std::string list;
    for (auto choice : choices) {
      if (!list.empty()) list += ", ";
      list += "." + std::string(choice);
    }
    fail("expected " + std::string(what) + " (one of " + list + ")");
  }
  void expect_end() {
    if (!done()) fail("unexpected trailing qualifier");
  }
  // For a combination of individually valid qualifiers that is not legal.
  [[noreturn]] void reject(const std::string& why) const {
    throw InstrError("invalid instruction '" + std::string(text_) + "': " + why);
  }
  [[noreturn]] void fail(const std::string& why) const {
    std::ostringstream message;
    message << "invalid instruction '" << text_ << "': " << why;
    if (done()) {
      message << ", but the instruction ends there";
    } else {
      message << ", found '" << (pos_ == 0 ? "" : ".") << parts_[pos_] << "' (qualifier "
              << pos_ + 1 << ")";
    }
    throw InstrError(message.str());
  }

 private:
  std::string_view text_;
  std::vector<std::string> parts_;
  size_t pos_ = 0;
};

std::string_view trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == ';' ||
                           text.back() == '\n' || text.back() == '\r'))
    text.remove_suffix(1);
  return text;
}

ElemType int_type(size_t index) { return index == 0 ? ElemType::kS4 : ElemType::kU4; }

void parse_int4(Cursor& cur, Instr& in) {
  in.satfinite = cur.accept("satfinite");
  cur.expect("s32", "int4 mma has an .s32 result");
  in.a_type = int_type(cur.expect_one_of({"s4", "u4"}, "the A type"));
  in.b_type = int_type(cur.expect_one_of({"s4", "u4"}, "the B type"));
  cur.expect("s32", "int4 mma has an .s32 accumulator");
  in.c_type = in.d_type = ElemType::kS32;
}

void parse_e2m1(Cursor& cur, Instr& in) {
  in.family = Family::kE2m1;
  in.mxf4nvf4 = cur.expect_one_of({"kind::mxf4", "kind::mxf4nvf4"}, "the block-scaled kind") == 1;
  cur.expect("block_scale", "block-scaled e2m1 mma needs .block_scale");
  if (cur.peek().rfind("scale_vec::", 0) == 0) {
    size_t vec = cur.expect_one_of({"scale_vec::2X", "scale_vec::4X"}, "the scale vector size");
    in.scale_vec = vec == 0 ? ScaleVec::k2X : ScaleVec::k4X;
    in.explicit_scale_vec = true;
    if (in.scale_vec == ScaleVec::k4X && !in.mxf4nvf4)
      cur.reject(".scale_vec::4X needs .kind::mxf4nvf4");
  } else if (in.mxf4nvf4) {
    cur.fail(".kind::mxf4nvf4 needs an explicit .scale_vec::2X or ::4X");
  } else {
    in.scale_vec = ScaleVec::k2X;
  }
  cur.expect("f32", "block-scaled e2m1 mma has an .f32 result");
  cur.expect("e2m1", "the A type of .kind::mxf4/.kind::mxf4nvf4");
  cur.expect("e2m1", "the B type of .kind::mxf4/.kind::mxf4nvf4");
  cur.expect("f32", "block-scaled e2m1 mma has an .f32 accumulator");
  in.a_type = in.b_type = ElemType::kE2m1;
  in.c_type = in.d_type = ElemType::kF32;
  if (in.scale_vec == ScaleVec::k4X) {
    cur.expect("ue4m3", ".scale_vec::4X takes .ue4m3 scales");
    in.scale_type = ElemType::kUe4m3;
  } else {
    cur.expect("ue8m0", ".scale_vec::2X takes .ue8m0 scales");
    in.scale_type = ElemType::kUe8m0;
  }
}

void parse_m8n8k4(Cursor& cur, Instr& in) {
  const std::string& next = cur.peek();
  // The rounding modes' PTX names: the spec's (tcu::kRoundingNames).
  const std::vector<std::string_view> roundings(std::begin(kRoundingNames),
                                                std::end(kRoundingNames));
  bool is_rounding = std::find(roundings.begin(), roundings.end(), next) != roundings.end();
  if (is_rounding || next == "f64") {
    in.family = Family::kF64;
    if (is_rounding) {
      in.rounding = static_cast<Rounding>(cur.expect_one_of(roundings, "rnd"));
      in.explicit_rounding = true;
    }
    for (int i = 0; i < 4; ++i) cur.expect("f64", "m8n8k4 .f64 is all-.f64");
    in.a_type = in.b_type = in.c_type = in.d_type = ElemType::kF64;
    if (in.a_layout != MatrixLayout::kRow || in.b_layout != MatrixLayout::kCol)
      cur.reject("m8n8k4 .f64 takes only .row.col");
    return;
  }
  in.family = Family::kF16;
  size_t dtype = cur.expect_one_of({"f16", "f32"}, "the D type");
  cur.expect("f16", "m8n8k4 takes .f16 A");
  cur.expect("f16", "m8n8k4 takes .f16 B");
  size_t ctype = cur.expect_one_of({"f16", "f32"}, "the C type");
  in.a_type = in.b_type = ElemType::kF16;
  in.d_type = dtype == 0 ? ElemType::kF16 : ElemType::kF32;
  in.c_type = ctype == 0 ? ElemType::kF16 : ElemType::kF32;
  if (in.d_type == ElemType::kF16 && in.c_type == ElemType::kF32)
    cur.reject(".f16 D with .f32 C is not a legal m8n8k4 combination");
}

}  // namespace

Instr parse_ptx(std::string_view raw) {
  std::string_view text = trim(raw);
  Cursor cur(text, split_dots(text));
  Instr in;
  cur.expect("mma", "instructions in scope start with mma");
  bool sparse = false;
  if (cur.accept("sp")) {
    sparse = true;
  } else if (cur.accept("sp::ordered_metadata")) {
    sparse = true;
    in.ordered_metadata = true;
  }
  cur.expect("sync");
  cur.expect("aligned");
  size_t shape = cur.expect_one_of({"m16n8k64", "m8n8k32", "m8n8k4"}, "a shape in scope");
  static const Shape kShapes[] = {{16, 8, 64}, {8, 8, 32}, {8, 8, 4}};
  in.shape = kShapes[shape];
  in.a_layout = static_cast<MatrixLayout>(cur.expect_one_of({"row", "col"}, "the A layout"));
  in.b_layout = static_cast<MatrixLayout>(cur.expect_one_of({"row", "col"}, "the B layout"));

  if (in.shape.k == 4) {
    if (sparse) cur.fail("mma.sp has no m8n8k4 shape");
    parse_m8n8k4(cur, in);
  } else if (in.shape.k == 64 && cur.peek().rfind("kind::", 0) == 0) {
    if (sparse) cur.fail("sparse block-scaled e2m1 is not in scope");
    parse_e2m1(cur, in);
  } else {
    if (sparse && in.shape.k != 64) cur.fail("sparse int4 mma is m16n8k64 only");
    in.family = sparse ? Family::kInt4Sparse : Family::kInt4Dense;
    parse_int4(cur, in);
  }
  cur.expect_end();
  if (in.family != Family::kF16 &&
      (in.a_layout != MatrixLayout::kRow || in.b_layout != MatrixLayout::kCol))
    cur.reject("this shape and type take only .row.col");
  return in;
}

std::string Instr::ptx() const {
  std::string s = "mma";
  if (family == Family::kInt4Sparse) s += ordered_metadata ? ".sp::ordered_metadata" : ".sp";
  s += ".sync.aligned.m" + std::to_string(shape.m) + "n" + std::to_string(shape.n) + "k" +
       std::to_string(shape.k);
  s += a_layout == MatrixLayout::kRow ? ".row" : ".col";
  s += b_layout == MatrixLayout::kRow ? ".row" : ".col";
  auto t = [](ElemType e) { return std::string(".") + to_string(e); };
  switch (family) {
    case Family::kInt4Dense:
    case Family::kInt4Sparse:
      if (satfinite) s += ".satfinite";
      return s + t(d_type) + t(a_type) + t(b_type) + t(c_type);
    case Family::kF16:
      return s + t(d_type) + t(a_type) + t(b_type) + t(c_type);
    case Family::kF64: {
      if (explicit_rounding) s += std::string(".") + to_string(rounding);
      return s + t(d_type) + t(a_type) + t(b_type) + t(c_type);
    }
    case Family::kE2m1:
      s += mxf4nvf4 ? ".kind::mxf4nvf4" : ".kind::mxf4";
      s += ".block_scale";
      if (explicit_scale_vec) s += scale_vec == ScaleVec::k4X ? ".scale_vec::4X" : ".scale_vec::2X";
      return s + t(d_type) + t(a_type) + t(b_type) + t(c_type) + t(scale_type);
  }
  return s;
}

const std::vector<Instr>& all_variants() {
  static const std::vector<Instr> variants = [] {
    std::vector<std::string> spellings;
    const char* kInt[] = {"s4", "u4"};
    for (const char* shape : {"m16n8k64", "m8n8k32"})
      for (const char* sat : {"", ".satfinite"})
        for (const char* a : kInt)
          for (const char* b : kInt)
            spellings.push_back(std::string("mma.sync.aligned.") + shape + ".row.col" + sat +
                                ".s32." + a + "." + b + ".s32");
    for (const char* sp : {"mma.sp", "mma.sp::ordered_metadata"})
      for (const char* sat : {"", ".satfinite"})
        for (const char* a : kInt)
          for (const char* b : kInt)
            spellings.push_back(std::string(sp) + ".sync.aligned.m16n8k64.row.col" + sat + ".s32." +
                                a + "." + b + ".s32");
    const char* kLayouts[] = {"row", "col"};
    const char* kAcc[][2] = {{"f16", "f16"}, {"f32", "f16"}, {"f32", "f32"}};
    for (auto& acc : kAcc)
      for (const char* al : kLayouts)
        for (const char* bl : kLayouts)
          spellings.push_back(std::string("mma.sync.aligned.m8n8k4.") + al + "." + bl + "." +
                              acc[0] + ".f16.f16." + acc[1]);
    for (const char* rnd : {"", ".rn", ".rz", ".rm", ".rp"})
      spellings.push_back(std::string("mma.sync.aligned.m8n8k4.row.col") + rnd +
                          ".f64.f64.f64.f64");
    spellings.push_back(
        "mma.sync.aligned.m16n8k64.row.col.kind::mxf4.block_scale.scale_vec::"
        "2X.f32.e2m1.e2m1.f32.ue8m0");
    spellings.push_back(
        "mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale.scale_"
        "vec::2X.f32.e2m1.e2m1.f32.ue8m0");
    spellings.push_back(
        "mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale.scale_"
        "vec::4X.f32.e2m1.e2m1.f32.ue4m3");
    std::vector<Instr> out;
    for (const auto& s : spellings) out.push_back(parse_ptx(s));
    return out;
  }();
  return variants;
}

int elem_bits(ElemType t) {
  switch (t) {
    case ElemType::kS4:
    case ElemType::kU4:
    case ElemType::kE2m1:
      return 4;
    case ElemType::kUe8m0:
    case ElemType::kUe4m3:
      return 8;
    case ElemType::kF16:
      return 16;
    case ElemType::kF32:
    case ElemType::kS32:
      return 32;
    case ElemType::kF64:
      return 64;
  }
  return 0;
}

}  // namespace tcu
