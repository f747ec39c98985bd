#pragma once
// Terminal facts: colours only on a TTY and never with NO_COLOR (docs/OUTPUT.md "Streams").
#include <cstdio>
#include <string>
#include <string_view>

namespace ncdx::core {

enum class Color { none, red, yellow, green, blue, grey, bold };

bool color_enabled(std::FILE* stream);
// Forces colour off (tests, --no-color) or on (--color=always).
void force_color(std::FILE* stream, bool on);
std::string paint(std::string_view text, Color c, bool enabled);
// Columns a text report may use on `stream`: $COLUMNS when it is a positive number (a user's or a
// test's choice, as for ls(1)), else the terminal's width (TIOCGWINSZ) when the stream is a TTY,
// else 0 = no limit (piped or redirected output keeps every line whole for grep and files).
std::size_t output_columns(std::FILE* stream);

}  // namespace ncdx::core
