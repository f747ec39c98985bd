#include "core/strings.h"

#include "core/near_names.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace ncdx::core {

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  while (true) {
    auto pos = s.find(sep, start);
    if (pos == std::string_view::npos) {
      out.push_back(s.substr(start));
      return out;
    }
    out.push_back(s.substr(start, pos - start));
    start = pos + 1;
  }
}

std::string_view trim(std::string_view s) {
  auto is_space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; };
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

std::string to_lower(std::string_view s) {
  std::string out(s);
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() &&
         std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

std::string join(const std::vector<std::string>& parts, std::string_view sep) {
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i) out += sep;
    out += parts[i];
  }
  return out;
}

std::optional<long long> parse_int(std::string_view s) {
  s = trim(s);
  long long v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size() || s.empty()) return std::nullopt;
  return v;
}

std::optional<double> parse_double(std::string_view s) {
  s = trim(s);
  if (s.empty()) return std::nullopt;
  std::string tmp(s);
  char* end = nullptr;
  double v = std::strtod(tmp.c_str(), &end);
  if (end != tmp.c_str() + tmp.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
  return banded_distance(a, b, std::max(a.size(), b.size()));  // a band as wide as the table
}

std::string closest(std::string_view word, const std::vector<std::string>& candidates,
                    std::size_t max_distance) {
  return std::string(NearNames(candidates, max_distance).closest(word));
}

std::string sanitize_utf8(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  std::size_t i = 0;
  while (i < s.size()) {
    auto c = static_cast<unsigned char>(s[i]);
    std::size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    bool ok = n > 0 && i + n <= s.size();
    for (std::size_t k = 1; ok && k < n; ++k) ok = (static_cast<unsigned char>(s[i + k]) & 0xC0) == 0x80;
    if (ok && n == 1 && c < 0x20 && c != '\t' && c != '\n') ok = false;  // control chars
    if (ok) {
      out.append(s.substr(i, n));
      i += n;
    } else {
      out.push_back('?');
      ++i;
    }
  }
  return out;
}

std::size_t display_width(std::string_view s) {
  std::size_t w = 0;
  for (char c : s)
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++w;
  return w;
}

std::vector<std::string> wrap_text(std::string_view s, std::size_t width) {
  if (width == 0 || display_width(s) <= width) return {std::string(s)};
  std::vector<std::string> lines;
  std::string line;
  std::size_t line_w = 0;
  auto flush = [&] {
    lines.push_back(line);
    line.clear();
    line_w = 0;
  };
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && s[i] == ' ') ++i;
    std::size_t j = s.find(' ', i);
    if (j == std::string_view::npos) j = s.size();
    std::string_view word = s.substr(i, j - i);
    i = j;
    if (word.empty()) break;
    std::size_t ww = display_width(word);
    if (line_w > 0 && line_w + 1 + ww > width) flush();
    if (ww > width) {  // a path, key or URL wider than the line (which is empty here: flushed above)
      std::string_view rest = word;
      while (display_width(rest) > width) {
        // The byte offsets where code point width/3 and code point `width` start.
        std::size_t end = 0, least = 0, cols = 0;
        for (; end < rest.size(); ++end) {
          if ((static_cast<unsigned char>(rest[end]) & 0xC0) == 0x80) continue;
          if (cols == width / 3) least = end;
          if (cols++ == width) break;
        }
        // Cut after the last separator in the line's last two thirds (a key at its dots, a path
        // at its slashes), else at the width.
        std::size_t cut = end;
        for (std::size_t k = end; k > least && k > 0; --k)
          if (std::string_view("./_-,:=;").find(rest[k - 1]) != std::string_view::npos) {
            cut = k;
            break;
          }
        lines.emplace_back(rest.substr(0, cut));
        rest.remove_prefix(cut);
      }
      line = std::string(rest);
      line_w = display_width(rest);
      continue;
    }
    if (line_w > 0) {
      line.push_back(' ');
      ++line_w;
    }
    line.append(word);
    line_w += ww;
  }
  if (!line.empty() || lines.empty()) flush();
  return lines;
}

std::string human_bytes(double bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  int u = 0;
  while (std::fabs(bytes) >= 1024 && u < 5) {
    bytes /= 1024;
    ++u;
  }
  char buf[64];
  if (bytes == std::floor(bytes))
    std::snprintf(buf, sizeof buf, "%.0f %s", bytes, units[u]);
  else
    std::snprintf(buf, sizeof buf, "%.1f %s", bytes, units[u]);
  return buf;
}

std::vector<std::string_view> split_ws(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
    std::size_t j = i;
    while (j < s.size() && !std::isspace(static_cast<unsigned char>(s[j]))) ++j;
    if (j > i) out.push_back(s.substr(i, j - i));
    i = j;
  }
  return out;
}

void append_utf8(std::string& out, std::uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

}  // namespace ncdx::core
