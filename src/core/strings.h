#pragma once
// Small string helpers used everywhere; no locale, no allocation where a view will do.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ncdx::core {

std::vector<std::string_view> split(std::string_view s, char sep);
// Words separated by runs of whitespace (no empty words), as a shell or awk splits a line.
std::vector<std::string_view> split_ws(std::string_view s);
// Appends code point cp (≤ U+10FFFF) to out as UTF-8.
void append_utf8(std::string& out, std::uint32_t cp);
std::string_view trim(std::string_view s);
std::string to_lower(std::string_view s);
bool iequals(std::string_view a, std::string_view b);
std::string join(const std::vector<std::string>& parts, std::string_view sep);
std::optional<long long> parse_int(std::string_view s);
std::optional<double> parse_double(std::string_view s);
// Levenshtein distance, for "did you mean" suggestions.
std::size_t edit_distance(std::string_view a, std::string_view b);
// Closest candidate within max_distance, or empty.
std::string closest(std::string_view word, const std::vector<std::string>& candidates,
                    std::size_t max_distance = 3);
// Replaces invalid UTF-8 sequences with '?', so logs with binary junk stay printable JSON.
std::string sanitize_utf8(std::string_view s);
// Number of terminal columns a UTF-8 string takes (code points; good enough for tables).
std::size_t display_width(std::string_view s);
// Splits s into lines of at most `width` columns at spaces; a word wider than a line is cut after
// a separator (. / _ - , : = ;) in the line's last two thirds, else at a code point boundary.
// width 0, or s that fits: one line. Never returns an empty vector.
std::vector<std::string> wrap_text(std::string_view s, std::size_t width);
// "1.5 GiB", "64 MiB" …
std::string human_bytes(double bytes);

}  // namespace ncdx::core
