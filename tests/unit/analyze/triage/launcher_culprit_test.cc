// Culprits that the launcher, the scheduler or PyTorch's heartbeat monitor decide, found by the
// fifth blind bank (tests/data/triage/incidents/holdout5.jsonl): srun's "Out Of Memory" line names
// the task and node the cgroup OOM killer hit; srun's "Node failure on <node>" names the node the
// others lost; a rank whose watchdog got stuck while the others time out is the one they wait for.
// Every line is a real message format (Slurm src/srun/launch.c, src/srun/allocate.c,
// src/plugins/task/cgroup/task_cgroup_memory.c; NCCL src/misc/socket.cc; PyTorch ProcessGroupNCCL.cpp).
#include <gtest/gtest.h>

#include <algorithm>

#include "support/triage_test_util.h"

namespace {

bool has(const std::vector<int>& v, int x) { return std::find(v.begin(), v.end(), x) != v.end(); }
bool has(const std::vector<std::string>& v, const std::string& x) { return std::find(v.begin(), v.end(), x) != v.end(); }

// The peers' NCCL line (src/misc/socket.cc "Net : Connection closed by remote peer %s").
#define NCCL_CLOSED "n1:5512:5629 [3] NCCL WARN Net : Connection closed by remote peer n2<41512>\n"

TEST(LauncherCulprit, SrunOutOfMemoryNamesTaskAndNode) {
  auto r = ncdx::testing::triage_text(
      "job.log",
      "slurmstepd: error: Detected 1 oom_kill event in StepId=81234.0. Some of the step tasks have been OOM Killed.\n"
      "srun: error: n2: task 9: Out Of Memory\n" NCCL_CLOSED "srun: error: n1: tasks 0-7: Aborted (core dumped)\n");
  EXPECT_EQ(r.verdict.klass, "oom");
  EXPECT_TRUE(has(r.verdict.culprit.ranks, 9)) << r.verdict.id;
  EXPECT_EQ(r.verdict.culprit.hosts, std::vector<std::string>{"n2"}) << "the node srun names, not the one tearing down";
}

TEST(LauncherCulprit, SrunNodeFailureOutranksThePeersClosedSockets) {
  auto r = ncdx::testing::triage_text(
      "job.log",
      "srun: error: Node failure on n3\n"
      "slurmstepd: error: *** STEP 5512.0 ON n1 CANCELLED AT 2026-09-14T22:41:19 DUE TO NODE FAILURE, SEE SLURMCTLD "
      "LOG FOR DETAILS ***\n" NCCL_CLOSED);
  EXPECT_EQ(r.verdict.id, "slurm.node-failure");
  EXPECT_EQ(r.verdict.klass, "other");
  EXPECT_EQ(r.verdict.culprit.hosts, std::vector<std::string>{"n3"});
}

// slurmstepd's line alone names only the node that printed the cancellation: class, no culprit host.
TEST(LauncherCulprit, StepCancelledForNodeFailureNamesNoCulpritHost) {
  auto r = ncdx::testing::triage_text(
      "job.log", "slurmstepd: error: *** JOB 5512 ON n1 CANCELLED AT 2026-09-14T22:41:19 DUE TO NODE FAILURE, SEE "
                 "SLURMCTLD LOG FOR DETAILS ***\n");
  EXPECT_EQ(r.verdict.id, "slurm.node-failure");
  EXPECT_FALSE(has(r.verdict.culprit.hosts, "n1"));
}

std::string timeout_line(int r) {
  const std::string n = std::to_string(r);
  std::string s = "[rank";
  s += n;
  s += "]:[E1021 16:44:02.100000 2100";
  s += n;
  s += " ProcessGroupNCCL.cpp:616] [PG ID 0 PG GUID 0(default_pg) Rank ";
  s += n;
  s += "] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=5521, OpType=_ALLGATHER_BASE, "
       "NumelIn=67108864, NumelOut=67108864, Timeout(ms)=900000) ran for 900044 milliseconds before timing out.\n";
  return s;
}

std::string stuck_line(int r) {
  const std::string n = std::to_string(r);
  std::string s = "[rank";
  s += n;
  s += "]:[E1021 16:43:12.009221 2110";
  s += n;
  s += " ProcessGroupNCCL.cpp:1421] [PG ID 0 PG GUID 0(default_pg) Rank ";
  s += n;
  s += "] ProcessGroupNCCL's watchdog got stuck for 480 seconds without making progress in monitoring enqueued "
       "collectives.\n";
  return s;
}

std::string log_of(std::initializer_list<std::string> lines) {
  std::string s;
  for (const auto& l : lines) s += l;
  return s;
}

TEST(LauncherCulprit, StuckWatchdogAmongTimeoutsIsTheRankTheyWaitFor) {
  auto r = ncdx::testing::triage_text("job.log", log_of({timeout_line(0), timeout_line(1), timeout_line(3), stuck_line(2)}));
  EXPECT_EQ(r.verdict.klass, "timeout-hang");
  EXPECT_EQ(r.verdict.culprit.ranks, std::vector<int>{2}) << r.verdict.id << ": " << r.verdict.summary;
}

// Most ranks stuck: a shared hang, no one rank to single out by its watchdog.
TEST(LauncherCulprit, MostRanksStuckSinglesOutNoOne) {
  auto r = ncdx::testing::triage_text("job.log", log_of({timeout_line(0), stuck_line(1), stuck_line(2), stuck_line(3)}));
  EXPECT_EQ(r.verdict.klass, "timeout-hang");
  EXPECT_FALSE(has(r.verdict.culprit.ranks, 1) && has(r.verdict.culprit.ranks, 2) && has(r.verdict.culprit.ranks, 3));
}

}  // namespace
