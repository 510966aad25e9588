// Bad vector files: each class of malformed input is reported with the file,
// the line and the reason, never a crash or a silent answer.
#include <zlib.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "tcu/vectors.h"

namespace {

std::string temp_path(const std::string& name) {
  return (std::string(std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp")) + "/tcu_test_" +
         name;
}

std::string write_file(const std::string& name, const std::string& text) {
  const std::string path = temp_path(name);
  std::ofstream(path) << text;
  return path;
}

std::string regs(int lanes, int per_lane, const std::string& value) {
  std::string s = "[";
  for (int l = 0; l < lanes; ++l) {
    s += l ? ",[" : "[";
    for (int r = 0; r < per_lane; ++r) s += (r ? ",\"" : "\"") + value + "\"";
    s += "]";
  }
  return s + "]";
}

std::string words(int lanes, const std::string& value) {
  std::string s = "[";
  for (int l = 0; l < lanes; ++l) s += (l ? ",\"" : "\"") + value + "\"";
  return s + "]";
}

// A valid m8n8k32 case; the pieces can be swapped for broken ones.
std::string int4_case(const std::string& a = regs(32, 1, "0x12345678"),
                      const std::string& ptx = "mma.sync.aligned.m8n8k32.row.col.s32.s4.s4.s32") {
  return "{\"id\":\"x\",\"ptx\":\"" + ptx + "\",\"a\":" + a +
         ",\"b\":" + regs(32, 1, "0x11111111") + ",\"c\":" + regs(32, 2, "0x00000000") +
         ",\"d\":" + regs(32, 2, "0x00000000") + "}";
}

std::string sparse_case(const std::string& e, int sel) {
  return "{\"id\":\"s\",\"ptx\":\"mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.s32."
         "s4.s4.s32\",\"a\":" +
         regs(32, 2, "0x00000000") + ",\"b\":" + regs(32, 2, "0x00000000") +
         ",\"c\":" + regs(32, 4, "0x00000000") + ",\"d\":" + regs(32, 4, "0x00000000") +
         ",\"e\":" + words(32, e) + ",\"sel\":" + std::to_string(sel) + "}";
}

// Reads every case of `text` (written to a file) with the golden model.
void read_all(const std::string& name, const std::string& text) {
  const std::string path = write_file(name, text);
  tcu::VectorReader reader(path);
  tcu::MmaCase c;
  while (reader.next(&c)) tcu::golden_execute(c.instr, c.operands);
}

template <typename Error>
void expect_error(const std::string& name, const std::string& text, const std::string& where,
                  const std::string& reason) {
  INFO(name);
  try {
    read_all(name, text);
    FAIL("no error reported");
  } catch (const Error& e) {
    const std::string what = e.what();
    CHECK_THAT(what, Catch::Contains(temp_path(name) + where));
    CHECK_THAT(what, Catch::Contains(reason));
  }
}

}  // namespace

TEST_CASE("a valid file reads, and blank lines are skipped") {
  CHECK_NOTHROW(read_all("ok.jsonl", int4_case() + "\n\n" + int4_case() + "\n"));
}

TEST_CASE("malformed vector files name file, line and reason") {
  using tcu::VectorError;
  expect_error<VectorError>("empty.jsonl", "", "", "holds no cases");
  expect_error<VectorError>("truncated.jsonl", int4_case() + "\n" + int4_case().substr(0, 120),
                            ":2", "invalid JSON");
  // Found by fuzzing: a number too large for a double is a JSON error too.
  expect_error<VectorError>("overflow.jsonl", "{\"id\":\"x\",\"n\":2e516}\n", ":1", "invalid JSON");
  expect_error<VectorError>("notobject.jsonl", "[1,2]\n", ":1", "JSON object");
  expect_error<VectorError>("noid.jsonl", "{\"ptx\":\"x\"}\n", ":1", "\"id\"");
  expect_error<VectorError>("lanes.jsonl", int4_case(regs(31, 1, "0x00000000")), ":1",
                            "array of 32 lanes, has 31");
  expect_error<VectorError>("regcount.jsonl", int4_case(regs(32, 2, "0x00000000")), ":1",
                            "must hold 1 registers, has 2");
  expect_error<VectorError>("width.jsonl", int4_case(regs(32, 1, "0x0000000000000000")), ":1",
                            "32-bit register");
  expect_error<VectorError>("hex.jsonl", int4_case(regs(32, 1, "0x0000g000")), ":1",
                            "non-hex digit 'g'");
  expect_error<VectorError>("number.jsonl", int4_case("[" + std::string(31 * 4, ' ') + "]"), ":1",
                            "32 lanes");
  {
    // A gzip file cut short mid-stream.
    const std::string path = temp_path("cut.jsonl.gz");
    gzFile gz = gzopen(path.c_str(), "wb");
    for (int i = 0; i < 50; ++i) gzputs(gz, (int4_case() + "\n").c_str());
    gzclose(gz);
    std::ifstream in(path, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::ofstream(path, std::ios::binary) << bytes.substr(0, bytes.size() / 2);
    tcu::VectorReader reader(path);
    tcu::MmaCase c;
    CHECK_THROWS_WITH(
        [&] {
          while (reader.next(&c)) {
          }
        }(),
        Catch::Contains(path + ":") && Catch::Contains("truncated or corrupt gzip"));
  }
  CHECK_THROWS_WITH(tcu::VectorReader("/nonexistent/dir/x.jsonl"),
                    Catch::Contains("/nonexistent/dir/x.jsonl: cannot open"));
}

TEST_CASE("illegal instructions in a vector file name file and line") {
  expect_error<tcu::InstrError>(
      "badptx.jsonl",
      int4_case() + "\n" +
          int4_case(regs(32, 1, "0x00000000"), "mma.sync.aligned.m8n8k32.col.row.s32.s4.s4.s32"),
      ":2", "only .row.col");
  expect_error<tcu::InstrError>("unknown.jsonl",
                                int4_case(regs(32, 1, "0x0"), "mma.sync.aligned.m8n8k16.row.col"),
                                ":1", "a shape in scope");
}

TEST_CASE("invalid sparse metadata and selectors are operand errors") {
  expect_error<tcu::OperandError>("sel.jsonl", sparse_case("0x44444444", 2), ":1",
                                  "sparsity selector 2");
  // 0x44444444 is legal everywhere; 0x44444445 repeats a pair in chunk 0.
  CHECK_NOTHROW(read_all("meta_ok.jsonl", sparse_case("0x44444444", 1)));
  try {
    read_all("meta.jsonl", sparse_case("0x44444445", 0));
    FAIL("invalid metadata accepted");
  } catch (const tcu::OperandError& e) {
    CHECK_THAT(e.what(), Catch::Contains("chunk 0") && Catch::Contains("same element pair"));
  }
  // Unordered indices (second < first) in ::ordered_metadata.
  CHECK_THROWS_WITH(read_all("meta2.jsonl", sparse_case("0x44444441", 1)),
                    Catch::Contains("increasing order"));
}
