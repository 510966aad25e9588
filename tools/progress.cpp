#include "progress.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

namespace tcu {
namespace {

constexpr auto kQuietStart = std::chrono::seconds(2);
constexpr auto kRedrawEvery = std::chrono::milliseconds(250);

std::string format_duration(double seconds) {
  const long s = long(seconds + 0.5);
  char text[32];
  if (s >= 3600)
    std::snprintf(text, sizeof text, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
  else
    std::snprintf(text, sizeof text, "%ld:%02ld", s / 60, s % 60);
  return text;
}

}  // namespace

bool Progress::terminal() { return isatty(STDERR_FILENO) == 1; }

Progress::Progress(uint64_t total, bool enabled)
    : total_(total), enabled_(enabled), start_(Clock::now()), last_draw_(start_) {}

void Progress::set(uint64_t done) {
  done_ = done;
  if (!enabled_) return;
  const auto now = Clock::now();
  if (now - start_ < kQuietStart || now - last_draw_ < kRedrawEvery) return;
  last_draw_ = now;
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  const double rate = double(done_) / elapsed;
  char line[160];
  if (total_ > 0) {
    const std::string left =
        rate > 0 && done_ <= total_ ? format_duration(double(total_ - done_) / rate) : "?";
    std::snprintf(line, sizeof line, "%llu/%llu cases (%.0f%%)  %.0f/s  %s left",
                  static_cast<unsigned long long>(done_), static_cast<unsigned long long>(total_),
                  100.0 * double(done_) / double(total_), rate, left.c_str());
  } else {
    std::snprintf(line, sizeof line, "%llu cases  %.0f/s", static_cast<unsigned long long>(done_),
                  rate);
  }
  std::fprintf(stderr, "\r\033[K%s", line);
  std::fflush(stderr);
  shown_ = true;
}

void Progress::clear() {
  if (!shown_) return;
  std::fprintf(stderr, "\r\033[K");
  std::fflush(stderr);
  shown_ = false;
  last_draw_ = Clock::time_point();  // redraw at the next update
}

ProgressFile::ProgressFile(const std::string& path) {
  if (!path.empty()) fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
}

ProgressFile::~ProgressFile() {
  if (fd_ >= 0) ::close(fd_);
}

void ProgressFile::advance(uint64_t cases) {
  done_ += cases;
  if (fd_ < 0) return;
  const auto now = std::chrono::steady_clock::now();
  if (now - last_write_ < std::chrono::milliseconds(200)) return;
  last_write_ = now;
  char text[24];
  const int n =
      std::snprintf(text, sizeof text, "%20llu\n", static_cast<unsigned long long>(done_));
  if (::pwrite(fd_, text, size_t(n), 0) < 0) {
    ::close(fd_);  // progress is a nicety; stop on error
    fd_ = -1;
  }
}

uint64_t ProgressFile::read(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY);
  if (fd < 0) return 0;
  char text[24] = {};
  const ssize_t n = ::pread(fd, text, sizeof text - 1, 0);
  ::close(fd);
  return n > 0 ? std::strtoull(text, nullptr, 10) : 0;
}

}  // namespace tcu
