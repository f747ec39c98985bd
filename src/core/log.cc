#include "core/log.h"

#include <atomic>
#include <cstdio>
#include <mutex>

#include "core/term.h"

namespace ncdx::core::log {
namespace {
std::atomic<Level> g_level{Level::warn};
std::mutex g_mu;
}  // namespace

void set_level(Level l) { g_level = l; }
Level level() { return g_level; }

void write(Level l, std::string_view msg) {
  static const char* names[] = {"debug", "info", "warning", "error", ""};
  static const Color colors[] = {Color::grey, Color::none, Color::yellow, Color::red, Color::none};
  std::lock_guard lock(g_mu);
  bool c = color_enabled(stderr);
  auto idx = static_cast<int>(l);
  std::fprintf(stderr, "ncdx: %s: %.*s\n", paint(names[idx], colors[idx], c).c_str(),
               static_cast<int>(msg.size()), msg.data());
}

}  // namespace ncdx::core::log
