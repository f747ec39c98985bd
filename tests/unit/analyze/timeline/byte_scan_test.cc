// byte_scan: the word-at-a-time scans (SSE2 on x86-64, SWAR elsewhere) must say exactly what a
// byte loop says, for every length and alignment, tails included (the last 0..15 bytes go
// bytewise). Each buffer is its own heap block of exactly n bytes, so a load past its end is a
// heap overflow that ASan builds (the lead's CI) report.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>

#include "analyze/timeline/byte_scan.h"

namespace ncdx::analyze::timeline {
namespace {

std::string random_bytes(std::size_t n, std::uint64_t& x, const char* alphabet) {
  std::string s(n, ' ');
  std::size_t k = std::char_traits<char>::length(alphabet);
  for (auto& c : s) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    c = alphabet[(x >> 33) % k];
  }
  return s;
}

TEST(ByteScan, CountMatchesAByteLoop) {
  std::uint64_t x = 42;
  // Lengths across the 16-byte blocks and past 255 blocks (the lane-sum flush), every offset.
  for (std::size_t n : {0u, 1u, 7u, 8u, 15u, 16u, 17u, 31u, 33u, 4079u, 4080u, 4081u, 4096u, 9001u}) {
    std::string s = random_bytes(n, x, "ab\n\n\xff\x80");
    for (std::size_t off = 0; off < std::min<std::size_t>(n, 17); ++off) {
      std::size_t len = n - off;
      auto block = std::make_unique<char[]>(len);
      std::memcpy(block.get(), s.data() + off, len);
      std::size_t want = 0;
      for (std::size_t i = 0; i < len; ++i) want += block[i] == '\n';
      ASSERT_EQ(byte_scan::count(block.get(), len, '\n'), want) << n << " " << off;
      std::size_t ff = 0;
      for (std::size_t i = 0; i < len; ++i) ff += block[i] == '\xff';
      ASSERT_EQ(byte_scan::count(block.get(), len, '\xff'), ff) << n << " " << off;
    }
  }
  // Every byte a match for more than 255 blocks: the per-lane counts must be flushed before they wrap.
  std::string nl(16 * 300 + 5, '\n');
  EXPECT_EQ(byte_scan::count(nl.data(), nl.size(), '\n'), nl.size());
}

TEST(ByteScan, FindQuoteOrBackslashAtEveryPosition) {
  for (std::size_t n = 0; n <= 40; ++n) {
    for (std::size_t at = 0; at <= n; ++at) {  // at == n: none in the block
      for (char hit : {'"', '\\'}) {
        auto block = std::make_unique<char[]>(n);
        std::memset(block.get(), 'a', n);
        if (at < n) block[at] = hit;
        if (at + 1 < n) block[n - 1] = '"';  // a later match must not win
        const char* r = byte_scan::find_quote_or_backslash(block.get(), block.get() + n);
        ASSERT_EQ(r - block.get(), static_cast<std::ptrdiff_t>(at)) << n << " " << at;
      }
    }
  }
  // Bytes that differ from '"' (0x22) or '\\' (0x5C) in one bit, or only in the high bit.
  std::string near = "\x23\x20\x02\xa2\x5d\x5e\x1c\xdc\x7c aaaaaaaaaaaaaaaaaaaaaaaa";
  EXPECT_EQ(byte_scan::find_quote_or_backslash(near.data(), near.data() + near.size()), near.data() + near.size());
}

// Calls f(block, len) for each tail of s from offsets 0..17, each in a heap block of its exact length.
template <class F>
void each_tail(const std::string& s, F f) {
  for (std::size_t off = 0; off <= std::min<std::size_t>(s.size(), 17); ++off) {
    std::size_t len = s.size() - off;
    auto block = std::make_unique<char[]>(len);
    std::memcpy(block.get(), s.data() + off, len);
    f(block.get(), len);
  }
}

TEST(ByteScan, FindQuoteOrBracketMatchesAByteLoop) {
  std::uint64_t x = 7;
  for (std::size_t n = 0; n <= 70; ++n) {
    std::string s = random_bytes(n, x, "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\"{}[]\\:, \x22\x7a\x7c\xfb\xdb");
    each_tail(s, [&](const char* p, std::size_t len) {
      std::size_t want = 0;
      while (want < len && std::string_view("\"{}[]").find(p[want]) == std::string_view::npos) ++want;
      ASSERT_EQ(byte_scan::find_quote_or_bracket(p, p + len) - p, static_cast<std::ptrdiff_t>(want)) << n << " " << len;
    });
  }
}

TEST(ByteScan, NumberRunMatchesAByteLoop) {
  std::uint64_t x = 9;
  auto is_num = [](char c) { return (c >= '0' && c <= '9') || c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E'; };
  for (std::size_t n = 0; n <= 70; ++n) {
    // Mostly number bytes, so runs are long; the neighbours of each class ('/' ':' ',' 'd' 'f' 'D'
    // 'F' '*') and high bytes must end a run.
    std::string s = random_bytes(n, x, "0123456789012345678901234567890123456789.-+eE/:,dfDF*\xb0\xb9 ");
    each_tail(s, [&](const char* p, std::size_t len) {
      std::size_t want = 0;
      while (want < len && is_num(p[want])) ++want;
      ASSERT_EQ(byte_scan::number_run(p, p + len), want) << n << " " << len;
    });
  }
  std::string digits(40, '7');
  EXPECT_EQ(byte_scan::number_run(digits.data(), digits.data() + digits.size()), 40u);
}

}  // namespace
}  // namespace ncdx::analyze::timeline
