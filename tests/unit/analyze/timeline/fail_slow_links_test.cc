// Per-link fail-slow (analyze/timeline/fail_slow_links.cc) on synthetic lock-step jobs with a ring
// of send/recv ops that name their peer (support/timeline_synth.h p2p_ring): a slowed link is
// named with both ends; a rank that posts its sends late (a compute straggler) and a healthy run
// name no link.
#include <gtest/gtest.h>

#include "analyze/timeline/result.h"
#include "support/timeline_synth.h"

namespace ncdx::analyze::timeline {
namespace {

using ncdx::testing::SynthSpec;
using ncdx::testing::synth_timeline;

std::vector<Slowdown> links_of(const SynthSpec& s) {
  auto set = synth_timeline(s);
  auto res = analyze_timeline(set, TimelineOptions{});
  std::vector<Slowdown> out;
  for (const auto& d : res.slowdowns)
    if (d.side == "link") out.push_back(d);
  return out;
}

SynthSpec ring(std::uint64_t seed) {
  SynthSpec s;
  s.ranks = 8;
  s.steps = 60;
  s.p2p_ring = true;
  s.seed = seed;
  return s;
}

TEST(LinkSlowdown, NamesTheSlowedLinkFromItsStart) {
  for (std::uint64_t seed : {1, 2, 3, 4, 5}) {
    SynthSpec s = ring(seed);
    s.slow_link = 3;  // 3 -> 4
    s.slow_from = 30;
    s.factor = 1.5;
    auto l = links_of(s);
    ASSERT_EQ(l.size(), 1u) << seed;
    EXPECT_EQ(l[0].rank, 3);
    EXPECT_EQ(l[0].peer, 4);
    EXPECT_EQ(l[0].axis, "p2p");
    // One send or recv per step with that peer: the op index is the step number.
    EXPECT_NEAR(static_cast<double>(l[0].from_step), 30, 2) << seed;
    EXPECT_NEAR(l[0].factor, 1.5, 0.15) << seed;
    EXPECT_TRUE(l[0].lasting);
  }
}

TEST(LinkSlowdown, ASlowRankIsNotASlowLink) {
  for (std::uint64_t seed : {1, 2, 3}) {
    SynthSpec s = ring(seed);
    s.slow_rank = 5;
    s.slow_from = 30;
    s.factor = 1.5;
    EXPECT_TRUE(links_of(s).empty()) << seed;
  }
}

TEST(LinkSlowdown, HealthyAndFabricWideNameNoLink) {
  for (std::uint64_t seed : {1, 2, 3}) {
    EXPECT_TRUE(links_of(ring(seed)).empty()) << seed;
    SynthSpec s = ring(seed);
    s.slow_comm = true;  // every all-reduce slower: not one link
    s.slow_from = 30;
    s.factor = 1.5;
    EXPECT_TRUE(links_of(s).empty()) << seed;
  }
}

TEST(LinkSlowdown, NoPeersNoLinks) {
  SynthSpec s;
  s.slow_comm = true;
  s.slow_from = 30;
  s.factor = 1.5;
  EXPECT_TRUE(links_of(s).empty());
}

}  // namespace
}  // namespace ncdx::analyze::timeline
