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

}  // namespace
}  // namespace ncdx::analyze::timeline
