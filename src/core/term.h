#pragma once
// Terminal facts: colours only on a TTY and never with NO_COLOR (DESIGN.md "Stdout").
#include <cstdio>
#include <string>
#include <string_view>

namespace ncdx::core {

enum class Color { none, red, yellow, green, blue, grey, bold };

bool color_enabled(std::FILE* stream);
// Forces colour off (tests, --no-color) or on (--color=always).
void force_color(std::FILE* stream, bool on);
std::string paint(std::string_view text, Color c, bool enabled);

}  // namespace ncdx::core
