#include "core/progress.h"

#include <cstdio>
#include <unistd.h>

namespace ncdx::core {

Progress::Progress(std::string label, std::uint64_t total)
    : label_(std::move(label)), total_(total), enabled_(isatty(fileno(stderr)) == 1) {}

Progress::~Progress() { finish(); }

void Progress::update(std::uint64_t done) {
  if (!enabled_) return;
  auto now = std::chrono::steady_clock::now();
  if (drawn_ && now - last_ < std::chrono::milliseconds(100)) return;  // keep redraws cheap
  last_ = now;
  drawn_ = true;
  double pct = total_ ? 100.0 * static_cast<double>(done) / static_cast<double>(total_) : 0.0;
  std::fprintf(stderr, "\r%s %5.1f%%", label_.c_str(), pct);
  std::fflush(stderr);
}

void Progress::finish() {
  if (enabled_ && drawn_) {
    std::fprintf(stderr, "\r\x1b[K");
    std::fflush(stderr);
    drawn_ = false;
  }
}

}  // namespace ncdx::core
