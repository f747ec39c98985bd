#pragma once
// Tiny hand-written scanners for the line-prefix parser (hot path: no regex, no allocation) and
// the date/time arithmetic it needs (UTC, no locale, no timegm).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace ncdx::analyze::scan {

inline bool is_digit(char c) { return c >= '0' && c <= '9'; }
inline bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
inline bool is_hex(char c) { return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

// A read position over a string_view; every method only advances on success.
struct Cursor {
  std::string_view s;
  std::size_t i = 0;

  bool end() const { return i >= s.size(); }
  char peek(std::size_t k = 0) const { return i + k < s.size() ? s[i + k] : '\0'; }
  bool eat(char c) {
    if (peek() != c || end()) return false;
    ++i;
    return true;
  }
  bool eat(std::string_view w) {
    if (s.substr(i, w.size()) != w) return false;
    i += w.size();
    return true;
  }
  // Unsigned decimal of min..max digits; value saturates to avoid overflow.
  bool num(long long& v, int min_digits = 1, int max_digits = 18) {
    std::size_t j = i;
    long long x = 0;
    // (One bound per digit: this runs several times for every line.)
    const std::size_t lim = max_digits <= 0 ? i : std::min(s.size(), i + static_cast<std::size_t>(max_digits));
    while (j < lim && is_digit(s[j])) {
      x = x * 10 + (s[j] - '0');
      ++j;
    }
    const int n = static_cast<int>(j - i);
    if (n < min_digits) return false;
    v = x;
    i = j;
    return true;
  }
  bool num(int& v, int min_digits = 1, int max_digits = 9) {
    long long x;
    if (!num(x, min_digits, max_digits)) return false;
    v = static_cast<int>(x);
    return true;
  }
  // Skips spaces; returns how many.
  std::size_t spaces() {
    std::size_t j = i;
    while (j < s.size() && s[j] == ' ') ++j;
    std::size_t n = j - i;
    i = j;
    return n;
  }
  std::string_view rest() const { return i < s.size() ? s.substr(i) : std::string_view(); }
};

// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
std::int64_t days_from_civil(int y, int m, int d);

// "hh:mm:ss" with optional ".frac" or ",frac"; seconds since midnight.
bool parse_time_of_day(Cursor& c, double& seconds);

// "YYYY-MM-DD[ T]hh:mm:ss[.frac][Z|+hh:mm|+hhmm]"; epoch seconds, UTC when no zone.
bool parse_iso_datetime(Cursor& c, double& epoch, double& clock);

// A "<file>:<line>" token (no spaces) at the cursor: "ProcessGroupNCCL.cpp:629",
// "transport/net_ib.cc:1695" (the source of NCCL WARN, glog and Python logger lines).
inline bool source_token(Cursor& c, std::string_view& tok) {
  std::size_t start = c.i, j = c.i;
  while (j < c.s.size() && c.s[j] != ' ' && c.s[j] != ']' && c.s[j] != ':') ++j;
  if (j == start || j + 1 >= c.s.size() || c.s[j] != ':' || !is_digit(c.s[j + 1])) return false;
  ++j;
  while (j < c.s.size() && is_digit(c.s[j])) ++j;
  tok = c.s.substr(start, j - start);
  c.i = j;
  return true;
}

// "Jan".."Dec" → 1..12.
int month_from_abbrev(std::string_view s);

}  // namespace ncdx::analyze::scan
