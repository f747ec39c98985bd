#include "core/term.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <cstdlib>

#include "core/strings.h"

namespace ncdx::core {
namespace {
int forced_out = -1, forced_err = -1;
}

bool color_enabled(std::FILE* stream) {
  int forced = stream == stderr ? forced_err : forced_out;
  if (forced >= 0) return forced == 1;
  if (std::getenv("NO_COLOR")) return false;
  const char* term = std::getenv("TERM");
  if (term && std::string_view(term) == "dumb") return false;
  return isatty(fileno(stream)) == 1;
}

void force_color(std::FILE* stream, bool on) {
  (stream == stderr ? forced_err : forced_out) = on ? 1 : 0;
}

std::size_t output_columns(std::FILE* stream) {
  if (const char* c = std::getenv("COLUMNS")) {
    if (auto v = parse_int(c); v && *v > 0 && *v < 10000) return static_cast<std::size_t>(*v);
  }
  winsize ws{};
  if (isatty(fileno(stream)) == 1 && ioctl(fileno(stream), TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) return ws.ws_col;
  return 0;
}

std::string paint(std::string_view text, Color c, bool enabled) {
  if (!enabled || c == Color::none) return std::string(text);
  const char* code = "";
  switch (c) {
    case Color::red: code = "\x1b[31m"; break;
    case Color::yellow: code = "\x1b[33m"; break;
    case Color::green: code = "\x1b[32m"; break;
    case Color::blue: code = "\x1b[34m"; break;
    case Color::grey: code = "\x1b[90m"; break;
    case Color::bold: code = "\x1b[1m"; break;
    case Color::none: break;
  }
  return std::string(code) + std::string(text) + "\x1b[0m";
}

}  // namespace ncdx::core
