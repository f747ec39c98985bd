#pragma once
// Word-at-a-time byte scans for the JSON pull reader's hot loops. perf of the timeline bench
// (2026-12-05) put 18 % of the run in a byte-by-byte std::count of newlines (GCC 12 -O2 does not
// vectorise it) and most of scan_string in a memchr call per short key plus a second memchr for
// backslashes. On x86-64 sixteen bytes a step with SSE2 (part of the x86-64 baseline, so no -march
// flag and the release binary still runs on any x86-64); elsewhere eight bytes a step in plain C++
// (SWAR). Exact (no false matches); every load stays inside [p, end): the tails go bytewise.
#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

#if defined(__SSE2__) && defined(__x86_64__)
#include <emmintrin.h>
#define NCDX_BYTE_SCAN_SSE2 1
#endif

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
  std::size_t total = 0, i = 0;
#ifdef NCDX_BYTE_SCAN_SSE2
  // A match compares to 0xFF (-1), so subtracting it counts in each byte lane; a lane holds 255 at
  // most, so every 255 blocks one psadbw adds the sixteen lanes into two 64-bit sums.
  const __m128i pat = _mm_set1_epi8(c);
  while (n - i >= 16) {
    std::size_t blocks = std::min<std::size_t>((n - i) / 16, 255);
    __m128i acc = _mm_setzero_si128();
    for (std::size_t b = 0; b < blocks; ++b, i += 16)
      acc = _mm_sub_epi8(acc, _mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i)), pat));
    __m128i sums = _mm_sad_epu8(acc, _mm_setzero_si128());
    total += static_cast<std::size_t>(_mm_cvtsi128_si64(sums)) +
             static_cast<std::size_t>(_mm_cvtsi128_si64(_mm_unpackhi_epi64(sums, sums)));
  }
#else
  const std::uint64_t pat = kOnes * static_cast<unsigned char>(c);
  // Each match is one high bit; shifted down to 0/1 per byte, one multiply sums the eight bytes
  // (std::popcount is a libgcc call without -mpopcnt: 12 % of the run in perf).
  for (; i + 8 <= n; i += 8) total += static_cast<std::size_t>(((zero_bytes(load(p + i) ^ pat) >> 7) * kOnes) >> 56);
#endif
  for (; i < n; ++i) total += p[i] == c;
  return total;
}

// First byte in [p, end) that is '"' or '\\' (what ends the plain run of a JSON string); end if
// none. The word index of the first match needs little-endian byte order; elsewhere bytewise.
inline const char* find_quote_or_backslash(const char* p, const char* end) {
#ifdef NCDX_BYTE_SCAN_SSE2
  const __m128i q = _mm_set1_epi8('"'), b = _mm_set1_epi8('\\');
  for (; end - p >= 16; p += 16) {
    __m128i w = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    unsigned m = static_cast<unsigned>(_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(w, q), _mm_cmpeq_epi8(w, b))));
    if (m) return p + std::countr_zero(m);
  }
#endif
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

// First byte in [p, end) that is '"', '{', '}', '[' or ']' (where skipping a container must
// stop: a string to jump over or a bracket to count); end if none.
inline const char* find_quote_or_bracket(const char* p, const char* end) {
#ifdef NCDX_BYTE_SCAN_SSE2
  const __m128i q = _mm_set1_epi8('"'), ob = _mm_set1_epi8('{'), cb = _mm_set1_epi8('}'), os = _mm_set1_epi8('['),
                cs = _mm_set1_epi8(']');
  for (; end - p >= 16; p += 16) {
    __m128i w = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    __m128i hit = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(w, q), _mm_cmpeq_epi8(w, ob)),
                               _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(w, cb), _mm_cmpeq_epi8(w, os)), _mm_cmpeq_epi8(w, cs)));
    unsigned m = static_cast<unsigned>(_mm_movemask_epi8(hit));
    if (m) return p + std::countr_zero(m);
  }
#endif
  if constexpr (std::endian::native == std::endian::little) {
    constexpr std::uint64_t q = kOnes * '"', ob = kOnes * '{', cb = kOnes * '}', os = kOnes * '[', cs = kOnes * ']';
    for (; end - p >= 8; p += 8) {
      std::uint64_t w = load(p);
      std::uint64_t m = zero_bytes(w ^ q) | zero_bytes(w ^ ob) | zero_bytes(w ^ cb) | zero_bytes(w ^ os) | zero_bytes(w ^ cs);
      if (m) return p + (std::countr_zero(m) >> 3);
    }
  }
  for (; p < end; ++p)
    if (*p == '"' || *p == '{' || *p == '}' || *p == '[' || *p == ']') return p;
  return end;
}

// Length of the run of number bytes (json_bytes::kNumberByte: 0-9 + - . e E) at p, looking at no
// byte at or past end. The exit of a bytewise loop over a number was a mispredicted branch for
// every number of a trace (perf, 2026-12-06); one 16-byte compare finds the end of most.
inline std::size_t number_run(const char* p, const char* end) {
  const char* s = p;
#ifdef NCDX_BYTE_SCAN_SSE2
  const __m128i lo = _mm_set1_epi8('0'), hi = _mm_set1_epi8('9'), dot = _mm_set1_epi8('.'), minus = _mm_set1_epi8('-'),
                plus = _mm_set1_epi8('+'), e = _mm_set1_epi8('e'), E = _mm_set1_epi8('E');
  for (; end - p >= 16; p += 16) {
    __m128i w = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    // Unsigned '0' <= w <= '9': max(w, '0') == w and min(w, '9') == w.
    __m128i digit = _mm_and_si128(_mm_cmpeq_epi8(_mm_max_epu8(w, lo), w), _mm_cmpeq_epi8(_mm_min_epu8(w, hi), w));
    __m128i other = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(w, dot), _mm_cmpeq_epi8(w, minus)),
                                 _mm_or_si128(_mm_cmpeq_epi8(w, plus), _mm_or_si128(_mm_cmpeq_epi8(w, e), _mm_cmpeq_epi8(w, E))));
    unsigned m = ~static_cast<unsigned>(_mm_movemask_epi8(_mm_or_si128(digit, other))) & 0xFFFFu;
    if (m) return static_cast<std::size_t>(p - s) + static_cast<std::size_t>(std::countr_zero(m));
  }
#endif
  for (; p < end; ++p) {
    char c = *p;
    if (!((c >= '0' && c <= '9') || c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E')) break;
  }
  return static_cast<std::size_t>(p - s);
}

// The first '"' or '\\' in the 16 bytes at p, which the caller guarantees are readable; nullptr if
// none. One step of find_quote_or_backslash, without its loop, for strings that are mostly short.
inline const char* find_quote_or_backslash_16(const char* p) {
#ifdef NCDX_BYTE_SCAN_SSE2
  __m128i w = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  unsigned m = static_cast<unsigned>(
      _mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(w, _mm_set1_epi8('"')), _mm_cmpeq_epi8(w, _mm_set1_epi8('\\')))));
  return m ? p + std::countr_zero(m) : nullptr;
#else
  const char* hit = find_quote_or_backslash(p, p + 16);
  return hit == p + 16 ? nullptr : hit;
#endif
}

}  // namespace ncdx::analyze::timeline::byte_scan
