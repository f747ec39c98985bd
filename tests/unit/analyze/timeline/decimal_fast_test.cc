// decimal_fast: whatever it accepts must be the very double std::from_chars gives (bit for bit),
// and it must refuse what its exact range does not cover.
#include <gtest/gtest.h>

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>

#include "analyze/timeline/decimal_fast.h"

namespace ncdx::analyze::timeline {
namespace {

std::uint64_t bits(double d) {
  std::uint64_t b;
  std::memcpy(&b, &d, 8);
  return b;
}

double reference(const std::string& s) {
  double d = 0;
  auto r = std::from_chars(s.data(), s.data() + s.size(), d);
  EXPECT_EQ(r.ptr, s.data() + s.size()) << s;
  return d;
}

TEST(DecimalFast, SameBitsAsFromChars) {
  // Trace-like values (13-digit microsecond stamps with 3 decimals, small durations) and mantissas
  // up to 2^53 with up to 22 decimals, from a fixed-seed generator.
  std::uint64_t x = 0x9E3779B97F4A7C15ull;
  int accepted = 0;
  for (int i = 0; i < 200000; ++i) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    std::uint64_t m = (x >> 11) % ((std::uint64_t{1} << 53) + 1);
    if (i % 3 == 0) m = 1700000000000000ull + (x >> 40);
    int frac = static_cast<int>((x >> 5) % 23);
    std::string digits = std::to_string(m);
    while (static_cast<int>(digits.size()) <= frac) digits.insert(digits.begin(), '0');
    std::string s = frac ? digits.substr(0, digits.size() - frac) + "." + digits.substr(digits.size() - frac) : digits;
    if (i % 2) s = "-" + s;
    double d = 0;
    ASSERT_TRUE(decimal_fast(s, d)) << s;
    ASSERT_EQ(bits(d), bits(reference(s))) << s;
    ++accepted;
  }
  EXPECT_EQ(accepted, 200000);
}

TEST(DecimalFast, RefusesWhatItCannotDoExactly) {
  double d = 0;
  EXPECT_TRUE(decimal_fast("9007199254740992", d));    // 2^53
  EXPECT_FALSE(decimal_fast("9007199254740993", d));   // 2^53 + 1: not an exact double
  EXPECT_TRUE(decimal_fast("0.0000000000000000000001", d));    // 22 decimals
  EXPECT_FALSE(decimal_fast("0.00000000000000000000001", d));  // 23
  for (const char* s : {"1e3", "1.5E-2", "1.", ".5", "-", "", "+1", "1x", "--1", "0x10"}) EXPECT_FALSE(decimal_fast(s, d)) << s;
  // Up to 19 digits the range is tested once at the end (no overflow possible); 20 and more test
  // every digit, so a mantissa that wraps 64 bits is never taken for a small one.
  EXPECT_FALSE(decimal_fast("9999999999999999999", d));     // 19 digits, > 2^53
  EXPECT_FALSE(decimal_fast("-999999999999999999.9", d));
  EXPECT_FALSE(decimal_fast("18446744073709551617", d));    // 2^64 + 1: wraps to 1 unchecked
  EXPECT_FALSE(decimal_fast("1844674407370955161.7", d));   // 20 characters with the point
  EXPECT_TRUE(decimal_fast("000000000000000000001", d));    // 21 digits, m = 1: exact
  EXPECT_EQ(d, 1.0);
  EXPECT_TRUE(decimal_fast("900719925474099.2", d));         // 2^53 with a point, 17 characters
  EXPECT_EQ(d, 900719925474099.2);
  ASSERT_TRUE(decimal_fast("-0.0", d));
  EXPECT_TRUE(std::signbit(d));
}

}  // namespace
}  // namespace ncdx::analyze::timeline
