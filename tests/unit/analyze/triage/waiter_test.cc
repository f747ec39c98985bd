// The waiting side's own timeout names its reporter only by accident (issue #10; analyze/triage/
// waiter.h). Real consoles of the fault bench (tests/data/triage/waiter/README.md: the rank that
// hung printed nothing, mpirun without --tag-output) and, for the cases where the reporter is the
// culprit, the same real lines with what the rule must see added: PyTorch's own OOM text on the
// waiter, WORLD_SIZE in an env dump (the job shown whole), NCCL watchdog lines (ProcessGroupNCCL.cpp's
// "Watchdog caught collective operation timeout" format).
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "support/test_paths.h"
#include "support/triage_test_util.h"

namespace {

std::string read(const std::string& file) { return ncdx::testing::test_data_text("triage/waiter/" + file); }

const std::string kRecvTimeout =
    "RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/unbound_buffer.cc:78] Timed out "
    "waiting 6000ms for recv operation to complete\n";

std::string watchdog(int rank, int seq) {
  const std::string r = std::to_string(rank);
  return "[rank" + r + "]:[E1021 16:44:02.100000 2100" + r + " ProcessGroupNCCL.cpp:616] [PG ID 0 PG GUID 0(default_pg) Rank " +
         r + "] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=" + std::to_string(seq) +
         ", OpType=ALLREDUCE, NumelIn=4096, NumelOut=4096, Timeout(ms)=600000) ran for 600044 milliseconds before "
         "timing out.\n";
}

TEST(Waiter, TwoRankRecvTimeoutNamesNoWaiter) {
  const std::string log = read("s1200-r0204.console.log");
  ASSERT_NE(log.find("Timed out waiting 6000ms"), std::string::npos);
  auto r = ncdx::testing::triage_text("console.log", log);
  EXPECT_EQ(r.verdict.klass, "timeout-hang");
  EXPECT_EQ(r.verdict.id, "gloo.recv-timeout");
  EXPECT_TRUE(r.verdict.culprit.ranks.empty()) << "rank 0 waited; rank 1 (silent) was at fault";
  EXPECT_NE(r.verdict.summary.find("rank 0 timed out waiting for a peer that printed nothing; the culprit is the rank "
                                   "it waited for (not identified)"),
            std::string::npos)
      << r.verdict.summary;
}

// Three ranks shown, all waiting, no size stated: the input cannot tell a job of three from this
// job of four whose rank 3 printed nothing but the application's own "rank 3/4" lines (no launcher
// or library format); the three stay named, the rule does not guess (docs/TRIAGE.md, what is left).
TEST(Waiter, ThreeWaitersWithNoStatedSizeStayNamed) {
  auto r = ncdx::testing::triage_text("console.log", read("s1100-r0204.console.log"));
  EXPECT_EQ(r.verdict.klass, "timeout-hang");
  EXPECT_EQ(r.verdict.culprit.ranks, (std::vector<int>{0, 1, 2}));
}

// Its own error first: the waiter is the cause.
TEST(Waiter, OwnErrorBeforeTheTimeoutKeepsTheReporter) {
  auto r = ncdx::testing::triage_text(
      "console.log", "[rank0]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a "
                     "total capacity of 79.10 GiB of which 1.06 GiB is free.\n[rank0]: " + kRecvTimeout);
  ASSERT_FALSE(r.verdict.culprit.ranks.empty()) << r.verdict.id;
  EXPECT_EQ(r.verdict.culprit.ranks.front(), 0);
}

// The job is shown whole (WORLD_SIZE=2) and both ranks timed out: the one waited for is one of
// them; both stay named. A one-process job (WORLD_SIZE=1) waited for nothing but itself.
TEST(Waiter, WholeJobThatAllWaitedKeepsItsRanks) {
  auto r = ncdx::testing::triage_text("console.log", "WORLD_SIZE=2\n[rank0]: " + kRecvTimeout + "[rank1]: " + kRecvTimeout);
  EXPECT_EQ(r.verdict.klass, "timeout-hang");
  EXPECT_EQ(r.verdict.culprit.ranks, (std::vector<int>{0, 1})) << r.verdict.id << ": " << r.verdict.summary;
  auto one = ncdx::testing::triage_text("console.log", "WORLD_SIZE=1\n[rank0]: " + kRecvTimeout);
  EXPECT_EQ(one.verdict.culprit.ranks, std::vector<int>{0}) << one.verdict.id;
}

// A stated size larger than the ranks that waited: the rank waited for is not among them.
TEST(Waiter, WaitersOfALargerStatedJobAreVictims) {
  auto r = ncdx::testing::triage_text("console.log", "WORLD_SIZE=3\n[rank0]: " + kRecvTimeout + "[rank1]: " + kRecvTimeout);
  EXPECT_EQ(r.verdict.klass, "timeout-hang");
  EXPECT_TRUE(r.verdict.culprit.ranks.empty() || r.verdict.culprit.ranks == std::vector<int>{2})
      << r.verdict.id << ": " << r.verdict.summary;
  EXPECT_EQ(std::count(r.verdict.culprit.ranks.begin(), r.verdict.culprit.ranks.end(), 0), 0);
}

// NCCL's watchdog lines are read by the derived timeout cascade (derived.cc), whose account the
// rule leaves as it is.
TEST(Waiter, WatchdogTimeoutsStayWithTheCascade) {
  auto r = ncdx::testing::triage_text("console.log", watchdog(0, 7) + watchdog(1, 6));
  EXPECT_EQ(r.verdict.id, "triage.timeout-cascade");
  EXPECT_EQ(r.verdict.summary.find("timed out waiting for a peer"), std::string::npos) << r.verdict.summary;
}

}  // namespace
