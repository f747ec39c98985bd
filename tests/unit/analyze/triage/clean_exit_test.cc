// A lost connection whose peer ended without failing (triage/clean_exit.h): the launcher says the
// peer exited 0 (srun reports only the victim's task; the peer node's torchrun agent reached its
// exit barrier), so the lost connection is the early exit's consequence, class timeout-hang. Real
// logs of the fault sweep seed 1200 (tests/data/triage/early_exit/README.md) and the plain torchrun
// console of fixture h-r0001 (seed 1000, world 2, rank 1 left after step 0); the negative cases
// change one line of them.
#include <gtest/gtest.h>

#include "support/test_paths.h"
#include "support/triage_test_util.h"

namespace {

std::string srun_console() { return ncdx::testing::test_data_text("triage/early_exit/s1200-r0106.log"); }

// The srun console with every `from` replaced by `to`, triaged.
ncdx::analyze::TriageResult triage_edited(const std::string& from, const std::string& to) {
  std::string s = srun_console();
  for (auto at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size())) s.replace(at, from.size(), to);
  return ncdx::testing::triage_text("console.log", s);
}

TEST(PeerExitedEarly, PlainSrunReportsOnlyTheVictim) {
  const std::string c = srun_console();
  ASSERT_NE(c.find("Connection closed by peer [198.18.195.2]"), std::string::npos);
  ASSERT_NE(c.find("srun: error: n1: task 0: Exited with exit code 1"), std::string::npos);
  auto r = ncdx::testing::triage_text("console.log", c);
  EXPECT_EQ(r.verdict.id, "triage.peer-exited-early");
  EXPECT_EQ(r.verdict.klass, "timeout-hang");
  EXPECT_TRUE(r.verdict.culprit.ranks.empty()) << "nothing in the log shows which rank left";
  EXPECT_EQ(r.verdict.culprit.hosts, std::vector<std::string>{"198.18.195.2"}) << "the peer the victim names";
  EXPECT_NE(r.verdict.summary.find("rank 0 lost its connection"), std::string::npos) << r.verdict.summary;
  EXPECT_NE(r.verdict.summary.find("srun reported only that task as failed"), std::string::npos) << r.verdict.summary;
  ASSERT_FALSE(r.findings.empty());
  EXPECT_EQ(r.findings.front().id, "gloo.connection-closed-by-peer") << "the victim's line stays, first below";
}

// srun has a line for the peer: it crashed (the crash is the cause), or it exited with an error code
// it did not print (it failed, it did not leave cleanly).
TEST(PeerExitedEarly, NotWhenSrunReportsTheOtherTask) {
  for (const char* line : {"srun: error: n2: task 1: Segmentation fault\n", "srun: error: n2: task 1: Exited with exit code 3\n"}) {
    auto r = ncdx::testing::triage_text("console.log", srun_console() + line);
    EXPECT_NE(r.verdict.id, "triage.peer-exited-early") << line;
  }
}

// A reset is no orderly close: a middlebox or a cut link sends it while the peer lives.
TEST(PeerExitedEarly, NotForAReset) {
  auto r = triage_edited("Connection closed by peer", "Connection reset by peer");
  EXPECT_NE(r.verdict.id, "triage.peer-exited-early");
  EXPECT_NE(r.verdict.klass, "timeout-hang");
}

// Without the launcher's report nothing says how the peer ended: the lost connection stays.
TEST(PeerExitedEarly, NotWithoutTheLaunchersReport) {
  auto r = triage_edited("srun: error: n1: task 0: Exited with exit code 1", "");
  EXPECT_EQ(r.verdict.id, "gloo.connection-closed-by-peer");
  EXPECT_EQ(r.verdict.klass, "network-socket");
}

// A job declared to have two ranks: the peer is the other one.
TEST(PeerExitedEarly, DeclaredTwoRanksNamesTheOther) {
  auto r = ncdx::testing::triage_text("console.log", "WORLD_SIZE=2\n" + srun_console());
  EXPECT_EQ(r.verdict.id, "triage.peer-exited-early");
  EXPECT_EQ(r.verdict.culprit.ranks, std::vector<int>{1});
  EXPECT_NE(r.verdict.summary.find("so the rank that left is rank 1"), std::string::npos) << r.verdict.summary;
}

std::vector<std::string> torchrun_nodes() {
  const std::string d = std::string(NCDX_TEST_DATA) + "/triage/early_exit/";
  return {d + "s1200-r0226-node-h1.log", d + "s1200-r0226-node-h2.log"};
}

TEST(PeerExitedEarly, TorchrunAgentInItsExitBarrier) {
  const std::string h2 = ncdx::testing::test_data_text("triage/early_exit/s1200-r0226-node-h2.log");
  ASSERT_NE(h2.find("Error waiting on exit barrier"), std::string::npos);
  auto r = ncdx::testing::triage_paths(torchrun_nodes());
  EXPECT_EQ(r.verdict.id, "triage.peer-exited-early");
  EXPECT_EQ(r.verdict.klass, "timeout-hang");
  EXPECT_EQ(r.verdict.culprit.hosts, std::vector<std::string>{"198.19.0.2"});
  EXPECT_NE(r.verdict.summary.find("Error waiting on exit barrier"), std::string::npos) << r.verdict.summary;
}

// Rank 0's node alone: nothing tells how its peer ended.
TEST(PeerExitedEarly, TorchrunWithoutTheFinishedNodesLog) {
  auto r = ncdx::testing::triage_paths({torchrun_nodes().front()});
  EXPECT_NE(r.verdict.id, "triage.peer-exited-early");
}

// One torchrun on one host: its failure block lists every worker that exited non-zero or that it
// stopped, and here only rank 0, whose peer has a loopback address (same host, same agent).
TEST(PeerExitedEarly, TorchrunBlockAndALoopbackPeer) {
  const std::string c = ncdx::testing::test_data_text("triage/faults/h-r0001/console.log");
  ASSERT_NE(c.find("Connection closed by peer [127.0.0.1]"), std::string::npos);
  ASSERT_NE(c.find("<NO_OTHER_FAILURES>"), std::string::npos);
  auto r = ncdx::testing::triage_text("console.log", c);
  EXPECT_EQ(r.verdict.id, "triage.peer-exited-early");
  EXPECT_EQ(r.verdict.klass, "timeout-hang");
  EXPECT_TRUE(r.verdict.culprit.ranks.empty());
  EXPECT_NE(r.verdict.summary.find("torchrun's failure block lists only that rank"), std::string::npos)
      << r.verdict.summary;
  // A peer on another host may run under another agent, whose block is not in this log.
  std::string remote = c;
  remote.replace(remote.find("[127.0.0.1]"), 11, "[10.0.0.2]");
  EXPECT_NE(ncdx::testing::triage_text("console.log", remote).verdict.id, "triage.peer-exited-early");
}

}  // namespace
