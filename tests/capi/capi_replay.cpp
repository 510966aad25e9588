// Replays vector files (tests/data/*.jsonl.gz, format tests/data/VECTORS.md)
// through the C API alone: the only header of this project it includes is
// tcu_golden.h, and it links only libtcu_golden. The checks are `tcu
// replay`'s: every destination register of every case.
//
//   capi_replay [--flip-expected CASE] FILE...
//
// --flip-expected CASE flips bit 0 of lane 0's first expected D register of
// the CASE-th case (0-based, over all files): the planted fault that proves
// the comparison can fail. Exit 0 when every case passes, 1 on a mismatch,
// 2 on unreadable or malformed input (FILE:LINE: reason).
#include <zlib.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "tcu_golden.h"

namespace {

struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Instr {
  tcu_instr* handle = nullptr;
  Instr() = default;
  Instr(const Instr&) = delete;
  Instr& operator=(const Instr&) = delete;
  ~Instr() { tcu_instr_free(handle); }
};

uint64_t parse_register(const nlohmann::json& value, int bits, const std::string& what) {
  if (!value.is_string()) throw InputError(what + ": not a string");
  const std::string text = value.get<std::string>();
  const size_t digits = size_t(bits / 4);
  if (text.size() != digits + 2 || text.compare(0, 2, "0x") != 0)
    throw InputError(what + ": \"" + text + "\" is not 0x and " + std::to_string(digits) +
                     " hex digits");
  char* end = nullptr;
  const unsigned long long v = std::strtoull(text.c_str() + 2, &end, 16);
  if (*end != '\0') throw InputError(what + ": \"" + text + "\" is not hexadecimal");
  return v;
}

// An operand's registers: key -> 32 lanes of regs_per_lane registers; or
// (per_lane_scalar) 32 strings, one register a lane.
std::vector<uint64_t> read_operand(const nlohmann::json& c, const char* key, const tcu_instr* instr,
                                   int operand, bool per_lane_scalar) {
  const int regs = tcu_operand_regs(instr, operand), bits = tcu_operand_reg_bits(instr, operand);
  if (!c.contains(key)) throw InputError(std::string("no \"") + key + "\"");
  const nlohmann::json& lanes = c[key];
  if (!lanes.is_array() || lanes.size() != 32)
    throw InputError(std::string("\"") + key + "\": not an array of 32 lanes");
  std::vector<uint64_t> out(size_t(32 * regs));
  for (int lane = 0; lane < 32; ++lane) {
    const std::string where = std::string(key) + " lane " + std::to_string(lane);
    if (per_lane_scalar) {
      out[size_t(lane)] = parse_register(lanes[size_t(lane)], bits, where);
      continue;
    }
    const nlohmann::json& r = lanes[size_t(lane)];
    if (!r.is_array() || int(r.size()) != regs)
      throw InputError(where + ": not " + std::to_string(regs) + " registers");
    for (int reg = 0; reg < regs; ++reg)
      out[size_t(lane * regs + reg)] =
          parse_register(r[size_t(reg)], bits, where + " register " + std::to_string(reg));
  }
  return out;
}

int integer(const nlohmann::json& c, const char* key) {
  if (!c.contains(key)) return 0;
  if (!c[key].is_number_integer()) throw InputError(std::string("\"") + key + "\": not an integer");
  return c[key].get<int>();
}

struct Tally {
  int order = 0;
  long passed = 0, failed = 0;
};

struct Replay {
  long flip_case = -1;
  long case_index = 0, passed = 0, failed = 0, details = 0;
  std::map<std::string, Instr> instrs;

  const tcu_instr* instr_of(const std::string& ptx) {
    Instr& instr = instrs[ptx];
    if (!instr.handle && tcu_instr_parse(ptx.c_str(), &instr.handle) != TCU_OK) {
      instrs.erase(ptx);
      throw InputError(tcu_last_error());
    }
    return instr.handle;
  }

  // One case; returns whether it passed.
  bool run_case(const nlohmann::json& c, const std::string& where, std::string* variant) {
    if (!c.is_object()) throw InputError("not a JSON object");
    if (!c.contains("ptx") || !c["ptx"].is_string()) throw InputError("no \"ptx\" string");
    const tcu_instr* instr = instr_of(c["ptx"].get<std::string>());
    *variant = tcu_instr_ptx(instr);
    const std::string id =
        c.contains("id") && c["id"].is_string() ? c["id"].get<std::string>() : "?";
    tcu_instr_info info;
    tcu_instr_get_info(instr, &info);
    const auto a = read_operand(c, "a", instr, TCU_OPERAND_A, false);
    const auto b = read_operand(c, "b", instr, TCU_OPERAND_B, false);
    const auto cc = read_operand(c, "c", instr, TCU_OPERAND_C, false);
    auto want = read_operand(c, "d", instr, TCU_OPERAND_D, false);
    std::vector<uint64_t> e, scale_a, scale_b;
    tcu_warp_regs regs{};
    if (info.family == TCU_FAMILY_INT4_SPARSE) {
      e = read_operand(c, "e", instr, TCU_OPERAND_META, true);
      regs.e = e.data();
      regs.selectors.sparsity = integer(c, "sel");
    }
    if (info.family == TCU_FAMILY_E2M1) {
      scale_a = read_operand(c, "scale_a", instr, TCU_OPERAND_SCALE_A, true);
      scale_b = read_operand(c, "scale_b", instr, TCU_OPERAND_SCALE_B, true);
      regs.scale_a = scale_a.data();
      regs.scale_b = scale_b.data();
      regs.selectors.byte_id_a = integer(c, "byte_id_a");
      regs.selectors.thread_id_a = integer(c, "thread_id_a");
      regs.selectors.byte_id_b = integer(c, "byte_id_b");
      regs.selectors.thread_id_b = integer(c, "thread_id_b");
    }
    regs.a = a.data();
    regs.b = b.data();
    regs.c = cc.data();
    if (case_index++ == flip_case) want[0] ^= 1;
    std::vector<uint64_t> have(want.size());
    if (tcu_status s = tcu_execute(instr, &regs, have.data(), have.size()); s != TCU_OK)
      throw InputError(std::string("case ") + id + ": " + tcu_status_name(s) + ": " +
                       tcu_last_error());
    const int per_lane = tcu_operand_regs(instr, TCU_OPERAND_D);
    const int digits = tcu_operand_reg_bits(instr, TCU_OPERAND_D) / 4;
    bool ok = true;
    for (size_t i = 0; i < want.size(); ++i) {
      if (want[i] == have[i]) continue;
      ok = false;
      if (details++ < 5) {
        char line[128];
        std::snprintf(line, sizeof line, "lane %d d[%d]: expected 0x%0*llx, got 0x%0*llx",
                      int(i) / per_lane, int(i) % per_lane, digits, (unsigned long long)want[i],
                      digits, (unsigned long long)have[i]);
        std::cout << "  mismatch: " << *variant << " case " << id << " (" << where << ") " << line
                  << "\n";
      }
    }
    return ok;
  }

  void run_file(const std::string& path) {
    gzFile gz = gzopen(path.c_str(), "rb");
    if (!gz) throw InputError(path + ": cannot open");
    std::unique_ptr<gzFile_s, int (*)(gzFile)> closer(gz, gzclose);
    std::map<std::string, Tally> tallies;
    std::string line;
    long line_number = 0;
    char buffer[1 << 16];
    bool more = true;
    while (more) {
      line.clear();
      for (;;) {
        if (!gzgets(gz, buffer, sizeof buffer)) {
          more = false;
          break;
        }
        line += buffer;
        if (!line.empty() && line.back() == '\n') break;
      }
      if (line.empty()) break;
      ++line_number;
      if (line.find_first_not_of(" \t\r\n") == std::string::npos) continue;
      const std::string where = path + ":" + std::to_string(line_number);
      std::string variant;
      bool ok;
      try {
        ok = run_case(nlohmann::json::parse(line), where, &variant);
      } catch (const nlohmann::json::exception& e) {
        throw InputError(where + ": " + e.what());
      } catch (const InputError& e) {
        throw InputError(where + ": " + e.what());
      }
      Tally& t = tallies[variant];
      if (t.order == 0) t.order = int(tallies.size());
      (ok ? t.passed : t.failed)++;
      (ok ? passed : failed)++;
    }
    std::vector<std::pair<int, std::string>> order;
    for (const auto& [variant, t] : tallies) order.push_back({t.order, variant});
    std::sort(order.begin(), order.end());
    std::cout << path << "\n";
    for (const auto& [_, variant] : order) {
      const Tally& t = tallies[variant];
      std::cout << "  " << variant << ": " << t.passed << " passed"
                << (t.failed ? ", " + std::to_string(t.failed) + " FAILED" : "") << "\n";
    }
  }
};

}  // namespace

int main(int argc, char** argv) {
  Replay replay;
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--flip-expected" && i + 1 < argc) {
      replay.flip_case = std::atol(argv[++i]);
    } else if (!arg.empty() && arg[0] == '-') {
      std::cerr << "usage: capi_replay [--flip-expected CASE] FILE...\n";
      return 2;
    } else {
      files.push_back(arg);
    }
  }
  if (files.empty()) {
    std::cerr << "usage: capi_replay [--flip-expected CASE] FILE...\n";
    return 2;
  }
  std::cout << "tcu golden model " << tcu_golden_version() << " through the C API\n";
  try {
    for (const std::string& file : files) replay.run_file(file);
  } catch (const InputError& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 2;
  }
  std::cout << replay.passed << " passed, " << replay.failed << " failed\n";
  return replay.failed ? 1 : 0;
}
