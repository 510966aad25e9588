// Register-level test vectors (JSON Lines, optionally gzip-compressed), in the
// format of tests/data/VECTORS.md. Files are streamed one case at a time.
#pragma once

#include <cstdint>
#include <memory>
#include <ostream>
#include <stdexcept>
#include <string>

#include "tcu/golden.h"
#include "tcu/instr.h"
#include "tcu/layout.h"

namespace tcu {

// A malformed vector file; what() is "FILE:LINE: reason".
class VectorError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct MmaCase {
  std::string id;
  Instr instr;
  WarpOperands operands;
  Fragment d;  // expected destination registers
  std::string file;
  long line = 0;
  std::string where() const { return file + ":" + std::to_string(line); }
};

// Parses one JSON line holding a case; `file` and `line` go into messages.
// Throws as VectorReader::next does.
void parse_case(const std::string& text, const std::string& file, long line, MmaCase* out);

class VectorReader {
 public:
  // Throws VectorError if the file cannot be opened.
  explicit VectorReader(const std::string& path);
  ~VectorReader();
  VectorReader(const VectorReader&) = delete;
  VectorReader& operator=(const VectorReader&) = delete;

  // Reads the next case; false at the end of the file. Throws VectorError for
  // malformed JSON or registers, InstrError/OperandError (with "FILE:LINE: "
  // prefixed) for an illegal instruction or selector.
  bool next(MmaCase* out);
  const std::string& path() const { return path_; }

 private:
  bool read_line(std::string* line);
  std::string path_;
  void* gz_ = nullptr;  // gzFile
  long line_number_ = 0;
  long cases_ = 0;
};

// Writes one case as a JSON line (the d registers given separately, so a
// generator can write what an engine computed).
void write_case(std::ostream& out, const MmaCase& mma_case, const Fragment& d);

std::string format_register(uint64_t value, int bits);

}  // namespace tcu
