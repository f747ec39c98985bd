// srun's task exit lines, as Slurm 22.05's srun printed them in the fault bench (bench/faults,
// launchers srun and srun-k, scripts/slurm-cluster.sh): the exit code or the signal of each task,
// its node, and which task failed first.
#include "analyze/triage/exits.h"

#include <gtest/gtest.h>

namespace ncdx::analyze {
namespace {

std::map<int, RankExit> read(const std::vector<std::string>& lines) {
  ExitBlockState st;
  std::map<int, RankExit> exits;
  for (const auto& l : lines) read_exit_line(l, st, exits);
  return exits;
}

// srun-k (--kill-on-bad-exit=1): task 0 raised, srun then SIGTERMed task 1.
TEST(SrunExits, KillOnBadExitTeardown) {
  auto e = read({"srun: error: n1: task 0: Exited with exit code 1",
                 "srun: launch/slurm: _step_signal: Terminating StepId=2.0", "srun: error: n2: task 1: Terminated",
                 "srun: Force Terminated StepId=2.0"});
  ASSERT_EQ(e.size(), 2u);
  EXPECT_EQ(e[0].code, 1);
  EXPECT_TRUE(e[0].first_failed);
  EXPECT_EQ(e[0].host, "n1");
  EXPECT_EQ(e[1].signal, 15);
  EXPECT_FALSE(e[1].first_failed);
  EXPECT_EQ(e[1].host, "n2");
}

// Plain srun: the killed task is reported first, its victims' exit codes after.
TEST(SrunExits, SignalsByName) {
  auto e = read({"srun: error: n2: task 2: Killed", "srun: error: n1: task 0: Exited with exit code 1",
                 "srun: error: n1: task 1: Segmentation fault (core dumped)", "srun: error: n2: task 3: Aborted",
                 "srun: error: n2: task 4: Bus error"});
  EXPECT_EQ(e[2].signal, 9);
  EXPECT_TRUE(e[2].first_failed);
  EXPECT_FALSE(e[0].first_failed);
  EXPECT_EQ(e[0].signal, std::nullopt);
  EXPECT_EQ(e[1].signal, 11);
  EXPECT_EQ(e[3].signal, 6);
  EXPECT_EQ(e[4].signal, 7);
}

// "tasks 0-1" is one line for several tasks of a node: no one rank, but the first line is taken.
TEST(SrunExits, GroupedTasksLineIsNoRankButComesFirst) {
  auto e = read({"srun: error: n1: tasks 0-1: Exited with exit code 1", "srun: error: n2: task 2: Terminated"});
  ASSERT_EQ(e.size(), 1u);
  EXPECT_FALSE(e[2].first_failed);
  EXPECT_EQ(e[2].signal, 15);
}

}  // namespace
}  // namespace ncdx::analyze
