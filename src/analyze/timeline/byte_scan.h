#pragma once
// Word-at-a-time (SWAR) byte scans for the JSON pull reader's hot loops. perf of the timeline
// bench (2026-12-05) put 18 % of the run in a byte-by-byte std::count of newlines (GCC 12 -O2 does
// not vectorise it) and most of scan_string in a memchr call per short key plus a second memchr
// for backslashes. Eight bytes per step, exact (no false matches), plain C++ (no intrinsics).
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace ncdx::analyze::timeline::byte_scan {

constexpr std::uint64_t kOnes = 0x0101010101010101ull;
constexpr std::uint64_t kLow7 = 0x7F7F7F7F7F7F7F7Full;

// High bit set in each byte of w that is zero, and only there (the carry-free form: no false
// positives, unlike the classic (x - 1) & ~x trick, so it can be counted as well as searched).
inline std::uint64_t zero_bytes(std::uint64_t w) { return ~(((w & kLow7) + kLow7) | w | kLow7); }

inline std::uint64_t load(const char* p) {
  std::uint64_t w;
  std::memcpy(&w, p, 8);
  return w;
}

// Number of bytes equal to c in [p, p + n).
inline std::size_t count(const char* p, std::size_t n, char c) {
  const std::uint64_t pat = kOnes * static_cast<unsigned char>(c);
  std::size_t total = 0, i = 0;
  // Each match is one high bit; shifted down to 0/1 per byte, one multiply sums the eight bytes
  // (std::popcount is a libgcc call without -mpopcnt: 12 % of the run in perf).
  for (; i + 8 <= n; i += 8) total += static_cast<std::size_t>(((zero_bytes(load(p + i) ^ pat) >> 7) * kOnes) >> 56);
  for (; i < n; ++i) total += p[i] == c;
  return total;
}

// First byte in [p, end) that is '"' or '\\' (what ends the plain run of a JSON string); end if
// none. The word index of the first match needs little-endian byte order; elsewhere bytewise.
inline const char* find_quote_or_backslash(const char* p, const char* end) {
  if constexpr (std::endian::native == std::endian::little) {
    constexpr std::uint64_t q = kOnes * '"', b = kOnes * '\\';
    for (; end - p >= 8; p += 8) {
      std::uint64_t w = load(p);
      std::uint64_t m = zero_bytes(w ^ q) | zero_bytes(w ^ b);
      if (m) return p + (std::countr_zero(m) >> 3);
    }
  }
  for (; p < end; ++p)
    if (*p == '"' || *p == '\\') return p;
  return end;
}

}  // namespace ncdx::analyze::timeline::byte_scan
