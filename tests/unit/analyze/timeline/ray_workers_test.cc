// Reading a real ray.timeline() (tests/data/timeline/ray/, Ray 2.60.0, README there): string
// node/worker ids, the function named only by the task::<fn> span, tasks cut into rounds.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <string>

#include "analyze/timeline/read_inputs.h"
#include "analyze/timeline/result.h"
#include "support/test_paths.h"

namespace ncdx::analyze::timeline {
namespace {

const char* kSlowWorker = "worker:d8db07a1a7aa33c8bad8187145341a2610c1ee411a060498c89e8c73";

TraceSet ray_slow_worker() {
  TraceSet set;
  auto st = read_timeline_inputs({std::string(NCDX_TEST_DATA) + "/timeline/ray/ray-2.60.0-slow-worker.json"}, 1, set);
  EXPECT_TRUE(st.is_ok()) << st.message();
  return set;
}

TEST(RayTimeline, WorkersAreNamedByTheirRayIds) {
  TraceSet set = ray_slow_worker();
  ASSERT_EQ(set.ranks.size(), 4u);  // the driver runs no task: not a rank
  int named = 0;
  for (const auto& r : set.ranks) {
    EXPECT_EQ(r.format, "ray");
    EXPECT_EQ(r.rank_from.rfind("ray worker:", 0), 0u) << r.rank_from;
    EXPECT_NE(r.rank_from.find(" on 192.0.2.2"), std::string::npos) << r.rank_from;
    named += r.rank_from.find(kSlowWorker) != std::string::npos;
  }
  EXPECT_EQ(named, 1);
}

TEST(RayTimeline, TasksTakeTheFunctionOfTheirTaskSpanAndFallIntoRounds) {
  TraceSet set = ray_slow_worker();
  auto step = set.strings.find("step");  // cat "task::step"
  ASSERT_TRUE(step);
  std::size_t ops = 0;
  std::map<std::int64_t, int> workers_in_round;
  for (const auto& r : set.ranks) {
    for (const auto& op : r.comm) {
      EXPECT_EQ(op.coll, *step);
      ++workers_in_round[op.seq];
    }
    ops += r.comm.size();
    EXPECT_EQ(r.steps.size(), r.comm.size());
  }
  // 64 tasks; a worker that ran two tasks of one round arrives once, at the end of the second.
  EXPECT_GE(ops, 58u);
  EXPECT_LE(ops, 64u);
  // 16 real rounds. In the first ones Ray ran tasks one after another on the workers already up
  // while the others started, and a task that starts after every earlier one ended opens a round:
  // 21 rounds are found; the later rounds each hold all 4 workers.
  EXPECT_GE(workers_in_round.size(), 16u);
  EXPECT_LE(workers_in_round.size(), 24u);
  int full = 0;
  for (auto [k, n] : workers_in_round) full += n == 4;
  EXPECT_GE(full, 12);
}

TEST(RayTimeline, TheSlowWorkerIsTheStraggler) {
  TraceSet set = ray_slow_worker();
  auto r = analyze_timeline(set, {});
  ASSERT_FALSE(r.stragglers.empty());
  const auto& s = r.stragglers[0];
  EXPECT_TRUE(s.significant);
  ASSERT_GE(s.rank, 0);
  EXPECT_NE(set.ranks[s.rank].rank_from.find(kSlowWorker), std::string::npos) << set.ranks[s.rank].rank_from;
}

}  // namespace
}  // namespace ncdx::analyze::timeline
