#pragma once
// The exact fast path for the decimals a trace is made of ("ts": 1700000000190.153, "dur": 12.000):
// std::from_chars was 7 % of `ncdx timeline` in perf. When the digits form an integer m <= 2^53
// and there are k <= 22 digits after the point, m and 10^k are both exact doubles, so m / 10^k is
// one correctly rounded IEEE division: the same double from_chars returns (Clinger's fast path).
// Anything else (exponents, longer mantissas, odd forms) says "not handled" and the caller uses
// from_chars, so results never differ.
#include <cstdint>
#include <string_view>

namespace ncdx::analyze::timeline {

// True and `out` set when `s` is -?digits(.digits)? inside the exact range above.
inline bool decimal_fast(std::string_view s, double& out) {
  static constexpr double kPow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                      1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                      1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
  constexpr std::uint64_t kExact = std::uint64_t{1} << 53;
  std::size_t i = 0, n = s.size();
  bool neg = i < n && s[i] == '-';
  if (neg) ++i;
  std::uint64_t m = 0;
  std::size_t int_digits = 0, frac_digits = 0;
  // m only grows as digits are appended, and 19 digits cannot overflow 64 bits (10^19 < 2^64):
  // up to 19 digits one test of m at the end says what a test after every digit would (perf: the
  // per-digit test was most of this function on 16-digit trace stamps). Longer forms keep it.
  bool short_form = n - i <= 19;  // so at most 19 digits
  for (; i < n && s[i] >= '0' && s[i] <= '9'; ++i, ++int_digits) {
    m = m * 10 + static_cast<unsigned>(s[i] - '0');
    if (!short_form && m > kExact) return false;
  }
  if (int_digits == 0) return false;
  if (i < n && s[i] == '.') {
    ++i;
    for (; i < n && s[i] >= '0' && s[i] <= '9'; ++i, ++frac_digits) {
      m = m * 10 + static_cast<unsigned>(s[i] - '0');
      if (!short_form && (m > kExact || frac_digits >= 22)) return false;
    }
    if (frac_digits == 0) return false;  // "1.": from_chars decides
  }
  if (i != n || m > kExact) return false;  // an exponent or anything else; or not exact
  // An integer (pid, tid, correlation) needs no divide: m / 1.0 is m, and the divide's latency
  // was most of the time left in number() under perf.
  double d = frac_digits == 0 ? static_cast<double>(m) : static_cast<double>(m) / kPow10[frac_digits];
  out = neg ? -d : d;
  return true;
}

}  // namespace ncdx::analyze::timeline
