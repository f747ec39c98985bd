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

// "tasks 0-1" is one line for several tasks of a node (Slurm's bit_fmt list): each is a task srun
// reported on, with the line's exit code, but none of them is the first failure.
TEST(SrunExits, GroupedTasksLineReportsEachTaskButNoFirst) {
  auto e = read({"srun: error: n1: tasks 0-1: Exited with exit code 1", "srun: error: n2: task 2: Terminated"});
  ASSERT_EQ(e.size(), 3u);
  EXPECT_EQ(e[0].code, 1);
  EXPECT_EQ(e[1].code, 1);
  EXPECT_EQ(e[1].host, "n1");
  EXPECT_TRUE(e[1].by_srun);
  EXPECT_FALSE(e[0].first_failed);
  EXPECT_FALSE(e[2].first_failed);
  EXPECT_EQ(e[2].signal, 15);
}

// A list with ranges ("3-4,7"): srun's stop signal is kept for each; a crash signal on a folded line
// is srun tearing the step down, not a crash of every task.
TEST(SrunExits, GroupedTasksKeepStopSignalsOnly) {
  auto e = read({"srun: error: n2: tasks 3-4,7: Terminated", "srun: error: n3: tasks 8-9: Killed"});
  ASSERT_EQ(e.size(), 5u);
  EXPECT_EQ(e[3].signal, 15);
  EXPECT_EQ(e[4].signal, 15);
  EXPECT_EQ(e[7].signal, 15);
  EXPECT_EQ(e[7].host, "n2");
  EXPECT_EQ(e[8].signal, std::nullopt);
  EXPECT_TRUE(e[9].by_srun);
}

// Hostile lists stop at the first thing that is not an id, and never grow past the bound.
TEST(SrunExits, GroupedTasksHostileListsAreBounded) {
  ExitBlockState st;
  std::map<int, RankExit> exits;
  read_exit_line("srun: error: n1: tasks 0-99999999,5: Terminated", st, exits, 1000);
  read_exit_line("srun: error: n1: tasks 0-5000: Terminated", st, exits, 1000);
  read_exit_line("srun: error: n1: tasks 9-3,x: Terminated", st, exits, 1000);
  EXPECT_EQ(exits.size(), 1000u);
}

}  // namespace
}  // namespace ncdx::analyze
