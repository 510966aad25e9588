#include "tcu/vectors.h"

#include <zlib.h>

#include <cstdio>
#include <nlohmann/json.hpp>

namespace tcu {
namespace {

using nlohmann::json;

[[noreturn]] void fail(const std::string& where, const std::string& why) {
  throw VectorError(where + ": " + why);
}

uint64_t parse_register(const json& value, int bits, const std::string& where,
                        const std::string& what) {
  if (!value.is_string()) fail(where, what + " is not a hex string");
  const std::string& text = value.get_ref<const std::string&>();
  const size_t digits = size_t(bits / 4);
  if (text.size() != digits + 2 || text[0] != '0' || (text[1] != 'x' && text[1] != 'X'))
    fail(where, what + " \"" + text + "\" is not 0x followed by " + std::to_string(digits) +
                    " hex digits (a " + std::to_string(bits) + "-bit register)");
  uint64_t v = 0;
  for (size_t i = 2; i < text.size(); ++i) {
    const char ch = text[i];
    int digit;
    if (ch >= '0' && ch <= '9')
      digit = ch - '0';
    else if (ch >= 'a' && ch <= 'f')
      digit = ch - 'a' + 10;
    else if (ch >= 'A' && ch <= 'F')
      digit = ch - 'A' + 10;
    else
      fail(where, what + " \"" + text + "\" has a non-hex digit '" + ch + "'");
    v = (v << 4) | uint64_t(digit);
  }
  return v;
}

// "a", "b", "c", "d": 32 lanes, each an array of regs_per_lane registers.
Fragment parse_operand(const json& obj, const char* key, const FragmentLayout& layout,
                       const std::string& where) {
  auto it = obj.find(key);
  if (it == obj.end()) fail(where, std::string("missing key \"") + key + "\"");
  if (!it->is_array() || it->size() != kLanes)
    fail(where, std::string("\"") + key + "\" must be an array of 32 lanes, has " +
                    (it->is_array() ? std::to_string(it->size()) : std::string("no array")));
  Fragment f = layout.empty_fragment();
  for (int lane = 0; lane < kLanes; ++lane) {
    const json& regs = (*it)[lane];
    if (!regs.is_array() || int(regs.size()) != layout.regs_per_lane())
      fail(where, std::string("\"") + key + "\" lane " + std::to_string(lane) + " must hold " +
                      std::to_string(layout.regs_per_lane()) + " registers, has " +
                      (regs.is_array() ? std::to_string(regs.size()) : std::string("no array")));
    for (int reg = 0; reg < layout.regs_per_lane(); ++reg)
      f.at(lane, reg) = parse_register(
          regs[reg], layout.reg_bits(), where,
          std::string(key) + "[" + std::to_string(lane) + "][" + std::to_string(reg) + "]");
  }
  return f;
}

// "e", "scale_a", "scale_b": 32 lanes, one 32-bit register each.
Fragment parse_lane_words(const json& obj, const char* key, const std::string& where) {
  auto it = obj.find(key);
  if (it == obj.end()) fail(where, std::string("missing key \"") + key + "\"");
  if (!it->is_array() || it->size() != kLanes)
    fail(where, std::string("\"") + key + "\" must be an array of 32 registers");
  Fragment f;
  f.regs_per_lane = 1;
  f.regs.resize(kLanes);
  for (int lane = 0; lane < kLanes; ++lane)
    f.regs[lane] =
        parse_register((*it)[lane], 32, where, std::string(key) + "[" + std::to_string(lane) + "]");
  return f;
}

int parse_immediate(const json& obj, const char* key, const std::string& where) {
  auto it = obj.find(key);
  if (it == obj.end()) fail(where, std::string("missing key \"") + key + "\"");
  if (!it->is_number_integer()) fail(where, std::string("\"") + key + "\" must be an integer");
  const auto value = it->get<int64_t>();
  if (value < -1000000 || value > 1000000)
    fail(where, std::string("\"") + key + "\" is out of range");
  return static_cast<int>(value);
}

}  // namespace

std::string format_register(uint64_t value, int bits) {
  char buffer[24];
  if (bits == 64)
    std::snprintf(buffer, sizeof buffer, "0x%016llx", static_cast<unsigned long long>(value));
  else
    std::snprintf(buffer, sizeof buffer, "0x%08x", static_cast<unsigned>(value));
  return buffer;
}

void parse_case(const std::string& text, const std::string& file, long line, MmaCase* out) {
  const std::string where = file + ":" + std::to_string(line);
  json obj;
  try {
    obj = json::parse(text);
  } catch (const json::exception& e) {  // parse_error, or out_of_range for huge numbers
    fail(where, std::string("invalid JSON: ") + e.what());
  }
  if (!obj.is_object()) fail(where, "a case must be a JSON object");
  auto id = obj.find("id");
  if (id == obj.end() || !id->is_string()) fail(where, "missing string key \"id\"");
  auto ptx = obj.find("ptx");
  if (ptx == obj.end() || !ptx->is_string()) fail(where, "missing string key \"ptx\"");

  MmaCase& c = *out;
  c.file = file;
  c.line = line;
  c.id = id->get<std::string>();
  try {
    c.instr = parse_ptx(ptx->get_ref<const std::string&>());
  } catch (const InstrError& e) {
    throw InstrError(where + ": " + e.what());
  }
  c.operands = WarpOperands{};
  Selectors& sel = c.operands.selectors;
  if (c.instr.sparse()) {
    sel.sparsity = parse_immediate(obj, "sel", where);
    c.operands.e = parse_lane_words(obj, "e", where);
  }
  if (c.instr.block_scaled()) {
    sel.byte_id_a = parse_immediate(obj, "byte_id_a", where);
    sel.thread_id_a = parse_immediate(obj, "thread_id_a", where);
    sel.byte_id_b = parse_immediate(obj, "byte_id_b", where);
    sel.thread_id_b = parse_immediate(obj, "thread_id_b", where);
    c.operands.scale_a = parse_lane_words(obj, "scale_a", where);
    c.operands.scale_b = parse_lane_words(obj, "scale_b", where);
  }
  try {
    validate_selectors(c.instr, sel);
  } catch (const OperandError& e) {
    throw OperandError(where + ": " + e.what());
  }
  c.operands.a = parse_operand(obj, "a", fragment_layout(c.instr, Operand::kA), where);
  c.operands.b = parse_operand(obj, "b", fragment_layout(c.instr, Operand::kB), where);
  c.operands.c = parse_operand(obj, "c", fragment_layout(c.instr, Operand::kC), where);
  c.d = parse_operand(obj, "d", fragment_layout(c.instr, Operand::kD), where);
}

VectorReader::VectorReader(const std::string& path) : path_(path) {
  gz_ = gzopen(path.c_str(), "rb");
  if (gz_ == nullptr) throw VectorError(path + ": cannot open file");
}

VectorReader::~VectorReader() {
  if (gz_ != nullptr) gzclose(static_cast<gzFile>(gz_));
}

bool VectorReader::read_line(std::string* line) {
  line->clear();
  char buffer[16384];
  auto* gz = static_cast<gzFile>(gz_);
  while (gzgets(gz, buffer, sizeof buffer) != nullptr) {
    line->append(buffer);
    if (!line->empty() && line->back() == '\n') {
      line->pop_back();
      return true;
    }
  }
  int error = 0;
  const char* message = gzerror(gz, &error);
  if (error != Z_OK && error != Z_STREAM_END)
    throw VectorError(path_ + ":" + std::to_string(line_number_ + 1) +
                      ": read error (truncated or corrupt gzip?): " + message);
  return !line->empty();
}

bool VectorReader::next(MmaCase* out) {
  std::string text;
  for (;;) {
    if (!read_line(&text)) {
      if (cases_ == 0) throw VectorError(path_ + ": the file holds no cases");
      return false;
    }
    ++line_number_;
    if (text.find_first_not_of(" \t\r") != std::string::npos) break;
  }
  parse_case(text, path_, line_number_, out);
  ++cases_;
  return true;
}

void write_case(std::ostream& out, const MmaCase& mc, const Fragment& d) {
  const Instr& in = mc.instr;
  auto operand = [&](const Fragment& f, Operand op) {
    const int bits = fragment_layout(in, op).reg_bits();
    json lanes = json::array();
    for (int lane = 0; lane < kLanes; ++lane) {
      json regs = json::array();
      for (int reg = 0; reg < f.regs_per_lane; ++reg)
        regs.push_back(format_register(f.at(lane, reg), bits));
      lanes.push_back(std::move(regs));
    }
    return lanes;
  };
  auto words = [](const Fragment& f) {
    json lanes = json::array();
    for (int lane = 0; lane < kLanes; ++lane) lanes.push_back(format_register(f.regs[lane], 32));
    return lanes;
  };
  json obj = {{"id", mc.id}, {"ptx", in.ptx()}};
  obj["a"] = operand(mc.operands.a, Operand::kA);
  obj["b"] = operand(mc.operands.b, Operand::kB);
  obj["c"] = operand(mc.operands.c, Operand::kC);
  obj["d"] = operand(d, Operand::kD);
  const Selectors& sel = mc.operands.selectors;
  if (in.sparse()) {
    obj["e"] = words(mc.operands.e);
    obj["sel"] = sel.sparsity;
  }
  if (in.block_scaled()) {
    obj["scale_a"] = words(mc.operands.scale_a);
    obj["scale_b"] = words(mc.operands.scale_b);
    obj["byte_id_a"] = sel.byte_id_a;
    obj["thread_id_a"] = sel.thread_id_a;
    obj["byte_id_b"] = sel.byte_id_b;
    obj["thread_id_b"] = sel.thread_id_b;
  }
  out << obj.dump() << '\n';
}

}  // namespace tcu
