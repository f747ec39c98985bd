#include "report/sanitize.h"

#include <algorithm>
#include <array>
#include <cstdio>

namespace ncdx::report {
namespace {

// Length of the UTF-8 sequence at s[i] and its code point; 0 when not valid UTF-8 (overlong,
// surrogate, truncated, > U+10FFFF).
std::size_t utf8_at(std::string_view s, std::size_t i, char32_t& cp) {
  auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[i + k]); };
  unsigned char c = b(0);
  std::size_t n = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
  if (n == 0 || i + n > s.size()) return 0;
  cp = n == 1 ? c : n == 2 ? (c & 0x1F) : n == 3 ? (c & 0x0F) : (c & 0x07);
  for (std::size_t k = 1; k < n; ++k) {
    if ((b(k) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (b(k) & 0x3F);
  }
  static constexpr std::array<char32_t, 5> min{0, 0, 0x80, 0x800, 0x10000};
  if (cp < min[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return n;
}

void hex(std::string& out, unsigned char c) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "\\x%02x", c);
  out += buf;
}

bool is_bidi_control(char32_t cp) { return (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069); }

// The SGR sequences core/term.cc paints, and nothing else.
std::size_t our_sgr_at(std::string_view s, std::size_t i) {
  static constexpr std::string_view ours[] = {"\x1b[0m", "\x1b[1m", "\x1b[31m", "\x1b[32m",
                                              "\x1b[33m", "\x1b[34m", "\x1b[90m"};
  for (auto o : ours)
    if (s.substr(i, o.size()) == o) return o.size();
  return 0;
}

// Appends the escaped form of s[i...] (one character) and returns how many bytes it used.
std::size_t escape_one(std::string& out, std::string_view s, std::size_t i, bool keep_lines) {
  unsigned char c = static_cast<unsigned char>(s[i]);
  if (c < 0x20 || c == 0x7F) {
    if (keep_lines && (c == '\n' || c == '\t')) out.push_back(static_cast<char>(c));
    else if (c == '\n') out += "\\n";
    else if (c == '\t') out += "\\t";
    else if (c == '\r') out += "\\r";
    else if (c == 0x1B) out += "\\e";
    else hex(out, c);
    return 1;
  }
  if (c < 0x80) {
    out.push_back(static_cast<char>(c));
    return 1;
  }
  char32_t cp = 0;
  std::size_t n = utf8_at(s, i, cp);
  if (n == 0) {
    hex(out, c);
    return 1;
  }
  if ((cp >= 0x80 && cp <= 0x9F) || is_bidi_control(cp)) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "\\u{%x}", static_cast<unsigned>(cp));
    out += buf;
  } else {
    out.append(s.substr(i, n));
  }
  return n;
}

// Cuts s to at most cap bytes of output on a character boundary, then "…(N bytes)".
std::string capped(std::string_view s, std::size_t cap, bool keep_lines, bool keep_color) {
  std::string out;
  out.reserve(std::min(s.size(), cap) + 16);
  std::size_t i = 0;
  while (i < s.size()) {
    if (out.size() >= cap) {
      out += "…(" + std::to_string(s.size()) + " bytes)";
      return out;
    }
    if (keep_color && s.substr(i, 4) == "\r\x1b[K") {  // our progress line clearing itself
      out.append(s.substr(i, 4));
      i += 4;
      continue;
    }
    if (keep_color && s[i] == '\x1b') {
      if (auto n = our_sgr_at(s, i)) {
        out.append(s.substr(i, n));
        i += n;
        continue;
      }
    }
    i += escape_one(out, s, i, keep_lines);
  }
  return out;
}

}  // namespace

std::string sanitize(std::string_view s, std::size_t cap) { return capped(s, cap, false, false); }

std::string sanitize_text(std::string_view text, bool keep_color) {
  std::string out;
  out.reserve(text.size());
  std::size_t i = 0;
  while (i < text.size()) {
    auto nl = text.find('\n', i);
    auto line = text.substr(i, nl == std::string_view::npos ? std::string_view::npos : nl - i);
    out += capped(line, kDisplayLineCap, true, keep_color);
    if (nl == std::string_view::npos) break;
    out.push_back('\n');
    i = nl + 1;
  }
  return out;
}

SanitizedOut::SanitizedOut(std::ostream& out, bool keep_color) : std::ostream(nullptr), buf_(out, keep_color) {
  rdbuf(&buf_);
}

SanitizedOut::~SanitizedOut() { buf_.drain(true); }

void SanitizedOut::Buf::drain(bool all) {
  std::size_t end = pending_.size();
  if (!all) {
    end = pending_.rfind('\n');
    if (end == std::string::npos) return;
    ++end;  // through the newline
  }
  if (end == 0) return;
  out_ << sanitize_text(std::string_view(pending_).substr(0, end), color_);
  pending_.erase(0, end);
}

SanitizedOut::Buf::int_type SanitizedOut::Buf::overflow(int_type c) {
  if (!traits_type::eq_int_type(c, traits_type::eof())) {
    char ch = traits_type::to_char_type(c);
    xsputn(&ch, 1);
  }
  return traits_type::not_eof(c);
}

std::streamsize SanitizedOut::Buf::xsputn(const char* s, std::streamsize n) {
  pending_.append(s, static_cast<std::size_t>(n));
  if (pending_.size() >= (64u << 10)) drain(false);  // whole lines out, a partial one kept
  return n;
}

}  // namespace ncdx::report

