#include "cluster/schedule/round_robin.h"

#include <gtest/gtest.h>

#include <vector>

using namespace ncdx::cluster;

namespace {
// Every unordered pair exactly once, no node twice in a round, N−1 rounds (even) / N (odd).
void check_schedule(int n) {
  auto rounds = round_robin(n);
  ASSERT_EQ(static_cast<int>(rounds.size()), n < 2 ? 0 : (n % 2 == 0 ? n - 1 : n)) << n;
  // Plain counters (no gtest macro per pair: 1024 nodes are half a million pairs).
  std::vector<char> seen(static_cast<std::size_t>(n) * n, 0);
  long long pairs = 0, bad = 0;
  std::vector<int> used(n, -1);
  for (std::size_t r = 0; r < rounds.size(); ++r) {
    bad += static_cast<int>(rounds[r].size()) != n / 2;
    for (const auto& [a, b] : rounds[r]) {
      if (a < 0 || b >= n || a >= b) {
        ++bad;
        continue;
      }
      bad += used[a] == static_cast<int>(r) || used[b] == static_cast<int>(r);  // twice in a round
      used[a] = used[b] = static_cast<int>(r);
      bad += seen[static_cast<std::size_t>(a) * n + b]++ != 0;                      // pair twice
      ++pairs;
    }
  }
  EXPECT_EQ(bad, 0) << "n=" << n;
  EXPECT_EQ(pairs, static_cast<long long>(n) * (n - 1) / 2) << n;
}
}  // namespace

TEST(RoundRobin, EveryPairOnceNoNodeTwicePerRound) {
  for (int n = 0; n <= 33; ++n) check_schedule(n);
  check_schedule(64);
  check_schedule(257);
}

TEST(RoundRobin, ThousandNodes) { check_schedule(1024); }

TEST(RoundRobin, PartnerLookup) {
  auto r = round_robin(4);
  for (const auto& round : r)
    for (const auto& [a, b] : round) {
      EXPECT_EQ(partner_in(round, a), b);
      EXPECT_EQ(partner_in(round, b), a);
    }
  auto odd = round_robin(3);
  int sat_out = 0;
  for (const auto& round : odd)
    for (int k = 0; k < 3; ++k) sat_out += partner_in(round, k) < 0;
  EXPECT_EQ(sat_out, 3);  // each node sits out exactly one of the 3 rounds
}
