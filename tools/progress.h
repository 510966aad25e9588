// A one-line progress display on a terminal: cases done, rate, time left.
// Silent unless stderr is a terminal, and until the work has run for a
// couple of seconds. A run split into child processes (--jobs) passes the
// count between processes through a small file (see ProgressFile).
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace tcu {

class Progress {
 public:
  // total: cases expected, 0 if unknown.
  explicit Progress(uint64_t total, bool enabled = Progress::terminal());
  ~Progress() { clear(); }
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  void advance(uint64_t cases) { set(done_ + cases); }
  void set(uint64_t done);
  // Erases the line (call before printing to a terminal).
  void clear();
  static bool terminal();

 private:
  using Clock = std::chrono::steady_clock;
  uint64_t total_, done_ = 0;
  bool enabled_, shown_ = false;
  Clock::time_point start_, last_draw_;
};

// A child of `run --jobs` writes its count of finished cases into a file
// that the parent polls.
class ProgressFile {
 public:
  explicit ProgressFile(const std::string& path);  // empty: does nothing
  ~ProgressFile();
  ProgressFile(const ProgressFile&) = delete;
  ProgressFile& operator=(const ProgressFile&) = delete;
  void advance(uint64_t cases);
  // The count a child last wrote, 0 if none yet.
  static uint64_t read(const std::string& path);

 private:
  int fd_ = -1;
  uint64_t done_ = 0;
  std::chrono::steady_clock::time_point last_write_;
};

}  // namespace tcu
