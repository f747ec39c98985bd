#include "analyze/fr/pickle_text.h"
#include "core/strings.h"

#include <cerrno>
#include <cstdint>
#include <cstdlib>

namespace ncdx::analyze {
namespace {

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

void append_utf8(std::string& out, std::uint32_t cp) { core::append_utf8(out, cp); }

}  // namespace

bool valid_utf8(std::string_view s) {
  std::size_t i = 0, n = s.size();
  while (i < n) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) { ++i; continue; }
    std::size_t len;
    std::uint32_t cp, min;
    if ((c & 0xE0) == 0xC0) { len = 2; cp = c & 0x1F; min = 0x80; }
    else if ((c & 0xF0) == 0xE0) { len = 3; cp = c & 0x0F; min = 0x800; }
    else if ((c & 0xF8) == 0xF0) { len = 4; cp = c & 0x07; min = 0x10000; }
    else return false;
    if (n - i < len) return false;
    for (std::size_t k = 1; k < len; ++k) {
      unsigned char cc = static_cast<unsigned char>(s[i + k]);
      if ((cc & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (cc & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
    i += len;
  }
  return true;
}

std::optional<__int128> parse_decimal_int128(std::string_view s) {
  std::size_t i = 0;
  bool neg = false;
  if (i < s.size() && (s[i] == '-' || s[i] == '+')) neg = s[i++] == '-';
  if (i == s.size() || s.size() - i > 38) return std::nullopt;  // 38 digits always fit in 127 bits
  __int128 v = 0;
  for (; i < s.size(); ++i) {
    if (s[i] < '0' || s[i] > '9') return std::nullopt;
    v = v * 10 + (s[i] - '0');
  }
  return neg ? -v : v;
}

std::optional<double> parse_python_float(std::string_view s) {
  if (s.empty() || s.size() > 400) return std::nullopt;
  for (char c : s)  // strtod would also take hex floats, which float() does not
    if (c == 'x' || c == 'X' || c == '\0') return std::nullopt;
  std::string buf(s);
  char* end = nullptr;
  errno = 0;
  double v = std::strtod(buf.c_str(), &end);
  if (end != buf.c_str() + buf.size()) return std::nullopt;
  return v;  // ERANGE gives ±inf or 0, as Python does for out-of-range literals
}

bool decode_string_repr(std::string_view q, std::string& out) {
  if (q.size() < 2 || (q.front() != '\'' && q.front() != '"') || q.back() != q.front()) return false;
  std::string_view s = q.substr(1, q.size() - 2);
  out.clear();
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\') { out += s[i]; continue; }
    if (++i == s.size()) return false;  // a trailing lone backslash
    char c = s[i];
    switch (c) {
      case '\n': break;  // line continuation
      case '\\': out += '\\'; break;
      case '\'': out += '\''; break;
      case '"': out += '"'; break;
      case 'a': out += '\a'; break;
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 'n': out += '\n'; break;
      case 'r': out += '\r'; break;
      case 't': out += '\t'; break;
      case 'v': out += '\v'; break;
      case 'x': {
        if (i + 2 >= s.size()) return false;
        int h = hex_value(s[i + 1]), l = hex_value(s[i + 2]);
        if (h < 0 || l < 0) return false;
        out += static_cast<char>(h * 16 + l);
        i += 2;
        break;
      }
      default:
        if (c >= '0' && c <= '7') {  // up to three octal digits
          int v = c - '0';
          for (int k = 0; k < 2 && i + 1 < s.size() && s[i + 1] >= '0' && s[i + 1] <= '7'; ++k)
            v = v * 8 + (s[++i] - '0');
          out += static_cast<char>(v & 0xFF);
        } else {  // unknown escapes stay as written, as in Python
          out += '\\';
          out += c;
        }
    }
  }
  return true;
}

bool decode_raw_unicode_escape(std::string_view in, std::string& out) {
  out.clear();
  std::uint32_t pending_high = 0;  // a high surrogate waiting for its low half
  auto emit = [&](std::uint32_t cp) -> bool {
    if (pending_high) {
      if (cp < 0xDC00 || cp > 0xDFFF) return false;
      append_utf8(out, 0x10000 + ((pending_high - 0xD800) << 10) + (cp - 0xDC00));
      pending_high = 0;
      return true;
    }
    if (cp >= 0xD800 && cp <= 0xDBFF) { pending_high = cp; return true; }
    if (cp >= 0xDC00 && cp <= 0xDFFF) return false;  // a lone low surrogate
    if (cp > 0x10FFFF) return false;
    append_utf8(out, cp);
    return true;
  };
  std::size_t i = 0;
  while (i < in.size()) {
    if (in[i] == '\\') {
      std::size_t run = 0;
      while (i + run < in.size() && in[i + run] == '\\') ++run;
      std::size_t after = i + run;
      bool esc = (run % 2 == 1) && after < in.size() && (in[after] == 'u' || in[after] == 'U');
      std::size_t literal = esc ? run - 1 : run;
      for (std::size_t k = 0; k < literal; ++k)
        if (!emit('\\')) return false;
      i += literal;
      if (!esc) continue;
      std::size_t digits = in[i + 1] == 'u' ? 4 : 8;
      if (in.size() - (i + 2) < digits) return false;
      std::uint32_t cp = 0;
      for (std::size_t k = 0; k < digits; ++k) {
        int h = hex_value(in[i + 2 + k]);
        if (h < 0) return false;
        cp = cp * 16 + static_cast<std::uint32_t>(h);
      }
      if (!emit(cp)) return false;
      i += 2 + digits;
    } else {
      if (!emit(static_cast<unsigned char>(in[i]))) return false;
      ++i;
    }
  }
  return pending_high == 0;
}

}  // namespace ncdx::analyze
