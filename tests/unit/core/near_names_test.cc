#include "core/near_names.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "core/strings.h"

using namespace ncdx::core;

namespace {

// The textbook full-table Levenshtein distance, the reference the pruned search must agree with.
std::size_t reference_distance(const std::string& a, const std::string& b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i)
    for (std::size_t j = 1; j <= b.size(); ++j)
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
  return d[a.size()][b.size()];
}

std::string random_name(std::mt19937& rng, std::size_t max_len) {
  static const std::string alphabet = "NCL_IBHA0123";  // few letters: many near misses
  std::string s;
  for (std::size_t n = rng() % (max_len + 1); n > 0; --n) s += alphabet[rng() % alphabet.size()];
  return s;
}

}  // namespace

TEST(NearNames, AgreesWithAPlainScan) {
  std::mt19937 rng(12);
  for (int round = 0; round < 50; ++round) {
    std::vector<std::string> names;
    for (int i = 0; i < 40; ++i) names.push_back(random_name(rng, 12));
    for (std::size_t max : {1u, 3u, 4u}) {
      NearNames near(names, max);
      for (int q = 0; q < 40; ++q) {
        std::string word = random_name(rng, 14);
        std::string want;
        std::size_t best = max + 1;
        for (const auto& n : names)
          if (auto d = reference_distance(word, n); d < best) best = d, want = n;
        ASSERT_EQ(near.closest(word), want) << word << " max " << max;
      }
    }
  }
}

TEST(NearNames, BandedDistanceIsExactWithinItsLimit) {
  std::mt19937 rng(7);
  for (int i = 0; i < 2000; ++i) {
    std::string a = random_name(rng, 20), b = random_name(rng, 20);
    std::size_t d = reference_distance(a, b);
    for (std::size_t limit : {0u, 1u, 3u, 8u}) EXPECT_EQ(banded_distance(a, b, limit), std::min(d, limit + 1)) << a << " " << b;
    EXPECT_EQ(edit_distance(a, b), d);
  }
  // Longer than the on-stack rows.
  std::string a(300, 'x'), b = a;
  b[150] = 'y';
  EXPECT_EQ(banded_distance(a, b, 3), 1u);
}

TEST(NearNames, FirstOfEqualDistancesWins) {
  NearNames near({"NCCL_ALGO", "NCCL_PROTO", "NCCL_ALGP"}, 3);
  EXPECT_EQ(near.closest("NCCL_ALGQ"), "NCCL_ALGO");
  EXPECT_EQ(near.closest("NCCL_ALGO"), "NCCL_ALGO");
  EXPECT_EQ(near.closest("SOMETHING_ELSE_ENTIRELY"), "");
}
