// analyze_timeline on synthetic lock-step jobs with a known truth (support/timeline_synth.h):
// the straggler, the fail-slow start, group-wide communication slowdowns, clock offsets,
// healthy runs, overlap/idle arithmetic; and the change-point detector alone.
#include <gtest/gtest.h>

#include <random>

#include "analyze/timeline/change_point.h"
#include "analyze/timeline/result.h"
#include "support/timeline_synth.h"

namespace ncdx::analyze::timeline {
namespace {

using ncdx::testing::SynthSpec;
using ncdx::testing::synth_timeline;

TEST(ChangePoint, FindsTheStartOfALastingSlowdown) {
  std::mt19937 rng(3);
  std::normal_distribution<double> g(0, 1);
  std::vector<double> x;
  for (int i = 0; i < 80; ++i) x.push_back(100 * (1 + 0.03 * g(rng)) * (i >= 50 ? 1.15 : 1.0));
  auto cp = find_slowdown(x, 1.10);
  ASSERT_TRUE(cp);
  EXPECT_NEAR(static_cast<double>(cp->at), 50, 2);
  EXPECT_FALSE(cp->back_at);
  EXPECT_NEAR(cp->factor, 1.15, 0.03);
}

TEST(ChangePoint, TransientAndHealthy) {
  std::mt19937 rng(5);
  std::normal_distribution<double> g(0, 1);
  std::vector<double> x, h;
  for (int i = 0; i < 90; ++i) {
    x.push_back(100 * (1 + 0.02 * g(rng)) * (i >= 30 && i < 55 ? 1.4 : 1.0));
    h.push_back(100 * (1 + 0.05 * g(rng)));
  }
  auto cp = find_slowdown(x, 1.10);
  ASSERT_TRUE(cp);
  EXPECT_NEAR(static_cast<double>(cp->at), 30, 2);
  ASSERT_TRUE(cp->back_at);
  EXPECT_NEAR(static_cast<double>(*cp->back_at), 55, 2);
  EXPECT_FALSE(find_slowdown(h, 1.10));
  std::vector<double> spikes(60, 100.0);
  spikes[20] = spikes[40] = 500;  // two outliers are not a slowdown
  EXPECT_FALSE(find_slowdown(spikes, 1.10));
}

TEST(Timeline, NamesTheStragglerAndWhenItSlowed) {
  SynthSpec s;
  s.ranks = 16;
  s.slow_rank = 11;
  s.slow_from = 25;
  s.factor = 1.3;
  auto set = synth_timeline(s);
  auto r = analyze_timeline(set, {});
  ASSERT_FALSE(r.stragglers.empty());
  EXPECT_EQ(r.stragglers[0].rank, 11);
  EXPECT_TRUE(r.stragglers[0].significant);
  EXPECT_EQ(r.instances, 60u);
  ASSERT_EQ(r.slowdowns.size(), 1u);
  EXPECT_EQ(r.slowdowns[0].rank, 11);
  EXPECT_EQ(r.slowdowns[0].side, "compute");
  EXPECT_NEAR(static_cast<double>(r.slowdowns[0].from_step), 25, 2);
  EXPECT_NEAR(r.slowdowns[0].factor, 1.3, 0.05);
  bool window = false;
  for (const auto& w : r.windows) window = window || (w.kind == "straggler" && w.rank == 11);
  EXPECT_TRUE(window);
}

TEST(Timeline, GroupWideCommunicationSlowdownIsOneEntry) {
  SynthSpec s;
  s.ranks = 8;
  s.slow_comm = true;
  s.slow_from = 30;
  s.factor = 1.5;
  auto set = synth_timeline(s);
  auto r = analyze_timeline(set, {});
  ASSERT_EQ(r.slowdowns.size(), 1u);
  EXPECT_EQ(r.slowdowns[0].rank, -1);
  EXPECT_EQ(r.slowdowns[0].side, "comm");
  EXPECT_NEAR(static_cast<double>(r.slowdowns[0].from_step), 30, 2);
  for (const auto& x : r.stragglers) EXPECT_FALSE(x.significant);
}

TEST(Timeline, ClockOffsetsAreAligned) {
  SynthSpec s;
  s.ranks = 8;
  s.slow_rank = 3;
  s.slow_from = 10;
  s.factor = 1.2;
  s.clock_skew_us = 50000;  // ±50 ms: far more than the 4 ms straggler delay
  auto set = synth_timeline(s);
  auto r = analyze_timeline(set, {});
  ASSERT_FALSE(r.stragglers.empty());
  EXPECT_EQ(r.stragglers[0].rank, 3);
  EXPECT_TRUE(r.stragglers[0].significant);
  bool noted = false;
  for (const auto& n : r.notes) noted = noted || n.find("clocks differ") != std::string::npos;
  EXPECT_TRUE(noted);
}

TEST(Timeline, HealthyRunsReportNothing) {
  for (int seed = 1; seed <= 5; ++seed) {
    SynthSpec s;
    s.ranks = 8 << seed;
    s.seed = static_cast<std::uint64_t>(seed);
    auto set = synth_timeline(s);
    auto r = analyze_timeline(set, {});
    EXPECT_TRUE(r.slowdowns.empty()) << "seed " << seed;
    for (const auto& x : r.stragglers) EXPECT_FALSE(x.significant) << "seed " << seed << " rank " << x.rank;
  }
}

TEST(Timeline, OverlapIdleAndHeatmapArithmetic) {
  TraceSet set;
  RankTrace r;
  r.rank = 0;
  r.gpu = true;
  r.comm_source = CommSource::nccl_kernel;
  r.compute = {{0, 400000}, {600000, 1000000}};  // 0.4 ms + 0.4 ms
  CommOp op;
  op.start = 300000;  // 0.3–0.5 ms: 0.1 ms under compute, 0.1 ms alone
  op.end = 500000;
  r.comm.push_back(op);
  r.first = 0;
  r.last = 1000000;
  set.ranks.push_back(r);
  TimelineOptions o;
  o.bucket = 100000;
  auto res = analyze_timeline(set, o);
  ASSERT_EQ(res.ranks.size(), 1u);
  const auto& s = res.ranks[0];
  EXPECT_DOUBLE_EQ(s.span_us, 1000);
  EXPECT_DOUBLE_EQ(s.idle_us, 100);          // 0.5–0.6 ms
  EXPECT_DOUBLE_EQ(*s.overlap_pct, 50);
  EXPECT_DOUBLE_EQ(*s.compute_pct, 80);
  EXPECT_DOUBLE_EQ(*s.non_compute_pct, 10);
  ASSERT_EQ(res.heat.comm_frac[0].size(), 10u);
  EXPECT_FLOAT_EQ(res.heat.comm_frac[0][3], 1.0f);
  EXPECT_FLOAT_EQ(res.heat.comm_frac[0][5], 0.0f);
}

TEST(Timeline, RanksAndWindowOptions) {
  SynthSpec s;
  s.ranks = 8;
  auto set = synth_timeline(s);
  TimelineOptions o;
  o.ranks = {0, 1, 2};
  o.window_from = 100000000;  // 100 ms
  o.window_to = 400000000;
  auto r = analyze_timeline(set, o);
  EXPECT_EQ(r.ranks.size(), 3u);
  EXPECT_LE(r.span_us, 300001);
  EXPECT_LT(r.instances, 60u);
}

}  // namespace
}  // namespace ncdx::analyze::timeline
