// clean_line(): one pass over a line that needs_cleaning() flagged, copying what a reader of the
// terminal or the issue page saw. Escape sequences per ECMA-48 (CSI: ESC [ params intermediates
// final; OSC: ESC ] ... BEL or ESC \), entities per HTML5 (only the few scrapers emit).
#include "analyze/logs/line_clean.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "analyze/logs/text_scan.h"

namespace ncdx::analyze {
namespace {

// Skips a CSI body starting at s[i] (just after "ESC [" or "^[["); returns the index after its
// final byte, or npos when it is not a well-formed CSI (then nothing is dropped).
std::size_t skip_csi(std::string_view s, std::size_t i) {
  std::size_t j = i;
  while (j < s.size() && j - i < 32 && static_cast<unsigned char>(s[j]) >= 0x30 && static_cast<unsigned char>(s[j]) <= 0x3f) ++j;
  while (j < s.size() && j - i < 32 && static_cast<unsigned char>(s[j]) >= 0x20 && static_cast<unsigned char>(s[j]) <= 0x2f) ++j;
  if (j < s.size() && static_cast<unsigned char>(s[j]) >= 0x40 && static_cast<unsigned char>(s[j]) <= 0x7e) return j + 1;
  return std::string_view::npos;
}

// Bytes of an escape sequence starting at s[i] == ESC (at least 1: a lone ESC is dropped too).
std::size_t escape_length(std::string_view s, std::size_t i) {
  if (i + 1 >= s.size()) return 1;
  char k = s[i + 1];
  if (k == '[') {
    std::size_t e = skip_csi(s, i + 2);
    return e == std::string_view::npos ? 2 : e - i;
  }
  if (k == ']') {  // OSC (terminal title, hyperlinks): up to BEL or ST
    for (std::size_t j = i + 2; j < s.size() && j - i < 512; ++j) {
      if (s[j] == '\a') return j + 1 - i;
      if (s[j] == 0x1b && j + 1 < s.size() && s[j + 1] == '\\') return j + 2 - i;
    }
    return 2;
  }
  if (k == '(' || k == ')') return i + 2 < s.size() ? 3 : 2;  // charset designation "ESC ( B"
  return 2;  // two-byte escapes (ESC =, ESC >, ESC 7 ...)
}

void append_utf8(std::string& out, unsigned long cp) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

// An HTML entity at s[i] == '&': appends its text and returns its length, or 0 when it is not one.
std::size_t decode_entity(std::string_view s, std::size_t i, std::string& out) {
  static constexpr std::pair<std::string_view, char> kNamed[] = {
      {"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'}, {"&quot;", '"'}, {"&apos;", '\''}, {"&nbsp;", ' '}};
  std::string_view rest = s.substr(i, 12);
  for (const auto& [name, ch] : kNamed)
    if (rest.substr(0, name.size()) == name) {
      out.push_back(ch);
      return name.size();
    }
  if (rest.size() < 4 || rest[1] != '#') return 0;
  std::size_t j = 2;
  bool hex = rest[j] == 'x' || rest[j] == 'X';
  if (hex) ++j;
  unsigned long cp = 0;
  std::size_t digits = 0;
  for (; j < rest.size() && digits < 7; ++j, ++digits) {
    char c = rest[j];
    if (scan::is_digit(c)) cp = cp * (hex ? 16 : 10) + static_cast<unsigned long>(c - '0');
    else if (hex && c >= 'a' && c <= 'f') cp = cp * 16 + static_cast<unsigned long>(c - 'a' + 10);
    else if (hex && c >= 'A' && c <= 'F') cp = cp * 16 + static_cast<unsigned long>(c - 'A' + 10);
    else break;
  }
  if (digits == 0 || j >= rest.size() || rest[j] != ';' || cp == 0 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
    return 0;
  if (cp == 0xA0) cp = ' ';
  if (cp == 0x1b || cp == '\r' || cp == '\n') return 0;  // would change the line's structure
  append_utf8(out, cp);
  return j + 1;
}

// A space-like, invisible or typographic character at s[i] (a UTF-8 lead byte): appends its ASCII
// stand-in (nothing for zero-width ones) and returns its length; 0 when it is another character.
std::size_t unicode_blank(std::string_view s, std::size_t i, std::string& out) {
  auto b = [&](std::size_t k) { return i + k < s.size() ? static_cast<unsigned char>(s[i + k]) : 0u; };
  unsigned c0 = b(0), c1 = b(1), c2 = b(2);
  if (c0 == 0xC2 && c1 == 0xA0) {  // U+00A0 no-break space
    out.push_back(' ');
    return 2;
  }
  if (c0 == 0xEF && c1 == 0xBB && c2 == 0xBF) return 3;  // U+FEFF byte-order mark / ZWNBSP
  if (c0 == 0xE3 && c1 == 0x80 && c2 == 0x80) {         // U+3000 ideographic space
    out.push_back(' ');
    return 3;
  }
  if (c0 != 0xE2) return 0;
  if (c1 == 0x80) {
    if (c2 >= 0x80 && c2 <= 0x8A) { out.push_back(' '); return 3; }  // U+2000..200A en/em/thin spaces
    if (c2 >= 0x8B && c2 <= 0x8F) return 3;                          // U+200B..200F zero-width, marks
    if (c2 == 0xAF) { out.push_back(' '); return 3; }                // U+202F narrow no-break space
    if (c2 == 0x98 || c2 == 0x99) { out.push_back('\''); return 3; }  // ‘ ’
    if (c2 == 0x9C || c2 == 0x9D) { out.push_back('"'); return 3; }   // “ ”
    return 0;
  }
  if (c1 == 0x81 && c2 == 0xA0) return 3;  // U+2060 word joiner
  return 0;
}

}  // namespace

bool needs_cleaning(std::string_view line) {
  const char* p = line.data();
  std::size_t n = line.size(), i = 0;
#if defined(__SSE2__)
  const __m128i esc = _mm_set1_epi8(0x1b), amp = _mm_set1_epi8('&'), caret = _mm_set1_epi8('^'),
                cr = _mm_set1_epi8('\r');
  auto block = [&](std::size_t at) {
    __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + at));
    __m128i hit = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, esc), _mm_cmpeq_epi8(v, amp)),
                               _mm_or_si128(_mm_cmpeq_epi8(v, caret), _mm_cmpeq_epi8(v, cr)));
    // movemask of v itself is the high bit of every byte: a non-ASCII one.
    return _mm_movemask_epi8(_mm_or_si128(hit, v)) != 0;
  };
  if (n >= 16) {
    for (; i + 16 <= n; i += 16)
      if (block(i)) return true;
    return i < n && block(n - 16);  // the tail, as one block overlapping the last
  }
#endif
  unsigned acc = 0;
  for (; i < n; ++i) {
    const auto c = static_cast<unsigned char>(p[i]);
    acc |= (c == 0x1b) | (c == '&') | (c == '^') | (c == '\r') | (c >> 7);
  }
  return acc != 0;
}

std::string_view clean_line(std::string_view line, std::string& buf) {
  buf.clear();
  buf.reserve(line.size());
  for (std::size_t i = 0; i < line.size();) {
    const char c = line[i];
    const auto u = static_cast<unsigned char>(c);
    if (c == 0x1b) {
      i += escape_length(line, i);
      continue;
    }
    if (c == '^' && i + 2 < line.size() && line[i + 1] == '[' && line[i + 2] == '[') {  // cat -v "^[[0m"
      std::size_t e = skip_csi(line, i + 3);
      if (e != std::string_view::npos) {
        i = e;
        continue;
      }
    }
    if (c == '&') {
      if (std::size_t n = decode_entity(line, i, buf)) {
        i += n;
        continue;
      }
    }
    if (u >= 0x80) {
      if (std::size_t n = unicode_blank(line, i, buf)) {
        i += n;
        continue;
      }
    }
    buf.push_back(c);
    ++i;
  }
  return buf;
}

bool is_placeholder(std::string_view v) {
  if (v.empty()) return true;
  const char f = v.front();
  // Hot path (every NCCL line's host): a real name starts with a letter or digit that no
  // placeholder below starts with.
  if (!may_be_placeholder(f)) return false;
  if (f == '*') return true;
  // "<hostname>", "[REDACTED]", "{ip}": a bracketed word (an IPv6 "[fe80::1]" is not one).
  if ((f == '<' && v.back() == '>') || (f == '[' && v.back() == ']') || (f == '{' && v.back() == '}')) {
    bool word = v.size() > 2;
    for (char c : v.substr(1, v.size() - 2)) word = word && (scan::is_alpha(c) || c == '_' || c == '-' || c == ' ');
    return word;
  }
  if (f == 'x' || f == 'X') {  // "xxx.xxx.xxx.xxx", "XXXX", "x.x.x.x"
    for (char c : v)
      if (c != 'x' && c != 'X' && c != '.' && c != '-' && c != ':') return false;
    return true;
  }
  static constexpr std::string_view kWords[] = {"PRIVATE_IP", "REDACTED", "HOSTNAME", "HOST",   "IP",
                                                "IP_ADDRESS", "MASKED",   "hidden",   "hostname", "redacted"};
  for (auto w : kWords)
    if (v == w) return true;
  return false;
}

}  // namespace ncdx::analyze
