#include "cli/stderr_filter.h"

#include <cerrno>
#include <cstdio>
#include <string>
#include <unistd.h>

#include "core/term.h"
#include "report/sanitize.h"

namespace ncdx::cli {
namespace {

ssize_t write_sanitised(void*, const char* buf, size_t n) {
  std::string s = report::sanitize_text(std::string_view(buf, n), true);
  std::size_t off = 0;
  while (off < s.size()) {
    auto w = ::write(2, s.data() + off, s.size() - off);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) break;  // stderr gone: nothing sensible left to do
    off += static_cast<std::size_t>(w);
  }
  return static_cast<ssize_t>(n);
}

}  // namespace

void install_stderr_filter() {
  bool color = core::color_enabled(stderr);
  cookie_io_functions_t io{nullptr, write_sanitised, nullptr, nullptr};
  FILE* f = ::fopencookie(nullptr, "w", io);
  if (!f) return;
  ::setvbuf(f, nullptr, _IOLBF, 1 << 16);
  std::fflush(stderr);
  stderr = f;
  core::force_color(stderr, color);  // the cookie stream has no fd for isatty()
}

}  // namespace ncdx::cli
