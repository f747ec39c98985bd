// The fast subset of the timeline accuracy sweep (bench/timeline_sweep.cc runs all of it): the
// first runs of the same generator, small rank counts only, must all be right.
#include <gtest/gtest.h>

#include "analyze/timeline/result.h"
#include "support/timeline_synth.h"

namespace ncdx::analyze::timeline {
namespace {

TEST(TimelineSweep, FastSubsetIsExact) {
  int runs = 0;
  for (int i = 0; runs < 16 && i < 200; ++i) {
    auto spec = ncdx::testing::sweep_spec(i);
    if (spec.ranks > 64) continue;
    ++runs;
    auto set = ncdx::testing::synth_timeline(spec);
    auto r = analyze_timeline(set, {});
    auto o = ncdx::testing::evaluate(spec, r);
    SCOPED_TRACE("run " + std::to_string(i) + ": " + std::to_string(spec.ranks) + " ranks, rank " + std::to_string(spec.slow_rank) +
                 (spec.slow_comm ? " comm" : "") + " x" + std::to_string(spec.factor) + " from " + std::to_string(spec.slow_from));
    if (o.straggler_expected) {
      EXPECT_TRUE(o.straggler_top1);
    }
    EXPECT_FALSE(o.straggler_false);
    if (o.slowdown_expected) {
      EXPECT_TRUE(o.slowdown_found);
    }
    EXPECT_EQ(o.slowdowns_reported, o.slowdowns_correct);
  }
  EXPECT_EQ(runs, 16);
}

}  // namespace
}  // namespace ncdx::analyze::timeline
