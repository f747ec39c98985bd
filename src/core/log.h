#pragma once
// Logging to stderr with levels; stdout is reserved for the report (docs/OUTPUT.md "Streams").
#include <fmt/format.h>

#include <string_view>

namespace ncdx::core::log {

enum class Level { debug = 0, info = 1, warn = 2, error = 3, quiet = 4 };
void set_level(Level l);
Level level();
void write(Level l, std::string_view msg);

template <class... A>
void debug(fmt::format_string<A...> f, A&&... a) {
  if (level() <= Level::debug) write(Level::debug, fmt::format(f, std::forward<A>(a)...));
}
template <class... A>
void info(fmt::format_string<A...> f, A&&... a) {
  if (level() <= Level::info) write(Level::info, fmt::format(f, std::forward<A>(a)...));
}
template <class... A>
void warn(fmt::format_string<A...> f, A&&... a) {
  if (level() <= Level::warn) write(Level::warn, fmt::format(f, std::forward<A>(a)...));
}
template <class... A>
void error(fmt::format_string<A...> f, A&&... a) {
  if (level() <= Level::error) write(Level::error, fmt::format(f, std::forward<A>(a)...));
}

}  // namespace ncdx::core::log
