// The culprit by elimination in a two-rank job (triage/elimination.cc): one rank lost its only peer
// and the other shows nothing, so the other left first. The console is what a plain torchrun
// printed for a real fault-bench run (tests/data/triage/faults/h-r0001: world 2, rank 1 left
// early with status 0 and printed nothing with a rank prefix); only the world-size line in front
// differs between the cases, in the forms triage reads (an env dump's WORLD_SIZE=2, NCCL's init
// line "nranks 2"). Without such a line the culprit stays undecidable (h-r0001's known_miss.txt).
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "support/test_paths.h"
#include "support/triage_test_util.h"

namespace {

std::string fixture_console() {
  std::ifstream in(std::string(NCDX_TEST_DATA) + "/triage/faults/h-r0001/console.log");
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(Elimination, FixtureHoldsTheLostPeerLine) {
  const std::string c = fixture_console();
  ASSERT_NE(c.find("Connection closed by peer [127.0.0.1]"), std::string::npos);
  auto r = ncdx::testing::triage_text("console.log", c);
  EXPECT_TRUE(r.verdict.culprit.ranks.empty()) << "nothing shows rank 1 exists: undecidable";
}

TEST(Elimination, WorldSizeTwoFromAnEnvDumpNamesTheOtherRank) {
  auto r = ncdx::testing::triage_text("console.log", "WORLD_SIZE=2\n" + fixture_console());
  EXPECT_EQ(r.verdict.id, "triage.waited-for-rank");
  EXPECT_EQ(r.verdict.culprit.ranks, std::vector<int>{1});
  EXPECT_LE(r.verdict.confidence, 0.5);
  EXPECT_NE(r.verdict.summary.find("rank 0 lost its only peer"), std::string::npos) << r.verdict.summary;
  EXPECT_NE(r.verdict.summary.find("WORLD_SIZE 2"), std::string::npos) << r.verdict.summary;
  ASSERT_FALSE(r.findings.empty());
  EXPECT_EQ(r.findings.front().id, "gloo.connection-closed-by-peer") << "the victim's line stays, first below";
}

TEST(Elimination, TorchrunRendezvousResultGivesTheWorldSize) {
  // torch/distributed/elastic/agent/server/api.py logs the rendezvous result at INFO.
  auto r = ncdx::testing::triage_text(
      "console.log",
      "I1206 01:42:19.312000 26273 torch/distributed/elastic/agent/server/api.py:525]   global_world_sizes=[2, 2]\n" +
          fixture_console());
  EXPECT_EQ(r.verdict.culprit.ranks, std::vector<int>{1});
}

TEST(Elimination, OtherWorldSizeVariablesDoNotCount) {
  auto r = ncdx::testing::triage_text("console.log", "LOCAL_WORLD_SIZE=2\nGROUP_WORLD_SIZE=2\n" + fixture_console());
  EXPECT_TRUE(r.verdict.culprit.ranks.empty());
}

TEST(Elimination, NoGuessBeyondTwoRanks) {
  auto r = ncdx::testing::triage_text("console.log", "WORLD_SIZE=3\n" + fixture_console());
  EXPECT_TRUE(r.verdict.culprit.ranks.empty()) << "rank 1 or rank 2 could have left";
}

TEST(Elimination, DisagreeingSizesDeclareNothing) {
  auto r = ncdx::testing::triage_text("console.log", "WORLD_SIZE=2\nWORLD_SIZE=4\n" + fixture_console());
  EXPECT_TRUE(r.verdict.culprit.ranks.empty());
}

const char* kLost1 =
    "[rank1]: RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:561] Connection closed "
    "by peer [127.0.0.1]:40211. This is typically caused by a remote worker crashing. Check the logs of the remote "
    "worker before reporting an error. GLHF!\n";
const char* kLost0 =
    "[rank0]: RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:561] Connection closed "
    "by peer [127.0.0.1]:23947. This is typically caused by a remote worker crashing. Check the logs of the remote "
    "worker before reporting an error. GLHF!\n";

TEST(Elimination, VictimRankOneNamesRankZero) {
  auto r = ncdx::testing::triage_text("job.log", std::string("WORLD_SIZE=2\n") + kLost1);
  EXPECT_EQ(r.verdict.culprit.ranks, std::vector<int>{0});
  EXPECT_NE(r.verdict.summary.find("rank 1 lost its only peer, so rank 0 left first"), std::string::npos)
      << r.verdict.summary;
}

TEST(Elimination, BothRanksLostTheirPeerNamesNobody) {
  auto r = ncdx::testing::triage_text("job.log", std::string("WORLD_SIZE=2\n") + kLost0 + kLost1);
  EXPECT_TRUE(r.verdict.culprit.ranks.empty()) << r.verdict.id;
}

TEST(Elimination, OtherRankWithAVictimsErrorOfItsOwnIsNotNamed) {
  // Rank 1 timed out itself (gloo's own timeout): it was waiting too, nothing is eliminated.
  auto r = ncdx::testing::triage_text(
      "job.log", std::string("WORLD_SIZE=2\n") + kLost0 +
                     "[rank1]: RuntimeError: [../third_party/gloo/gloo/transport/tcp/unbound_buffer.cc:81] Timed out "
                     "waiting 6000ms for recv operation to complete\n");
  EXPECT_NE(r.verdict.culprit.ranks, std::vector<int>{1}) << r.verdict.id;
}

TEST(Elimination, NcclNranksTwoIsAWorldSize) {
  // NCCL's init line (src/init.cc, 2.19+) names the process's rank and its communicator's size.
  auto r = ncdx::testing::triage_text(
      "job.log",
      "[rank0]:n1:2345:2400 [0] NCCL INFO ncclCommInitRank comm 0x55d0c0 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId "
      "1b000 commId 0x8f1e4b - Init COMPLETE\n" +
          std::string(kLost0));
  EXPECT_EQ(r.verdict.culprit.ranks, std::vector<int>{1}) << r.verdict.id << " " << r.verdict.summary;
}

}  // namespace
