// Two-rank jobs whose lines read the same whichever rank is at fault (triage/pair.h,
// store_rendezvous.h store_pair): the verdict names both ranks and says so. Real consoles of the
// fault sweep seed 1100 (tests/data/triage/pair/README.md lists each run and its truth).
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "support/test_paths.h"
#include "support/triage_test_util.h"

namespace {

std::string fixture(const std::string& file) { return ncdx::testing::test_data_text("triage/pair/" + file); }

void replace_all(std::string& s, const std::string& from, const std::string& to) {
  for (auto at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size())) s.replace(at, from.size(), to);
}

const std::vector<int> kBoth{0, 1};

// Plain srun, rank 1 had the wrong port: no line carries a rank except srun's own
// ("srun: error: n1: task 0: Exited with exit code 1"), which make the job's two ranks.
TEST(TwoRankStore, PlainSrunNamesBothRanksFromSrunsLines) {
  const std::string c = fixture("s1100-r0118.log");
  ASSERT_NE(c.find("1/2 clients joined"), std::string::npos);
  ASSERT_NE(c.find("srun: error: n1: task 0: Exited with exit code 1"), std::string::npos);
  auto r = ncdx::testing::triage_text("console.log", c);
  EXPECT_EQ(r.verdict.id, "triage.store-endpoint-pair");
  EXPECT_EQ(r.verdict.klass, "config-invalid");
  EXPECT_EQ(r.verdict.culprit.ranks, kBoth);
  EXPECT_NE(r.verdict.summary.find("Ranks 0 and 1 disagree about where the c10d store is"), std::string::npos)
      << r.verdict.summary;
  EXPECT_NE(r.verdict.summary.find("either may be it"), std::string::npos) << r.verdict.summary;
  ASSERT_TRUE(r.verdict.culprit.component);
  EXPECT_NE(r.verdict.culprit.component->find("198.18.135.1:24457"), std::string::npos);
}

// Without srun's task lines nothing shows that a rank 1 exists: the client is not made up.
TEST(TwoRankStore, NoSecondRankNoPair) {
  std::string c = fixture("s1100-r0118.log");
  replace_all(c, "srun: error:", "srun: note:");
  auto r = ncdx::testing::triage_text("console.log", c);
  EXPECT_NE(r.verdict.id, "triage.store-endpoint-pair");
}

// mpirun --tag-output, rank 0 (the server) had the wrong port: the client's lines carry rank 1,
// which the verdict used to name alone (a victim).
TEST(TwoRankStore, TaggedLinesNameTheServerToo) {
  auto r = ncdx::testing::triage_text("console.log", fixture("s1100-r0223.log"));
  EXPECT_EQ(r.verdict.id, "triage.store-endpoint-pair");
  EXPECT_EQ(r.verdict.culprit.ranks, kBoth);
}

// Four ranks (plain mpirun): the clients that reached the store outvote the one that did not; the
// odd endpoint is named as before and no pair is made of it.
TEST(TwoRankStore, MoreRanksKeepTheOddEndpoint) {
  auto r = ncdx::testing::triage_text("console.log", fixture("s1100-r0208.log"));
  EXPECT_EQ(r.verdict.id, "triage.store-endpoint-mismatch");
  EXPECT_EQ(r.verdict.culprit.component.value_or(""), "store client connecting to 127.0.0.1:42241");
}

// Rank 0 in broadcast, rank 1 in all_reduce: rank 1 times out, exits, and rank 0 reads
// "Connection closed by peer". The closure is the timeout's cascade: timeout-hang, both ranks.
TEST(TwoRankTimeout, ClosedAfterThePeersTimeoutIsTheHang) {
  for (const char* name : {"s1100-r0140.log", "s1100-r0215.log"}) {
    const std::string c = fixture(name);
    ASSERT_NE(c.find("Connection closed by peer"), std::string::npos) << name;
    ASSERT_NE(c.find("Timed out waiting 6000ms for recv operation"), std::string::npos) << name;
    auto r = ncdx::testing::triage_text("console.log", c);
    EXPECT_EQ(r.verdict.id, "triage.pair-timeout") << name;
    EXPECT_EQ(r.verdict.klass, "timeout-hang") << name;
    EXPECT_EQ(r.verdict.culprit.ranks, kBoth) << name;
    EXPECT_NE(r.verdict.summary.find("rank 1 timed out in a collective waiting for rank 0"), std::string::npos)
        << r.verdict.summary;
  }
}

// A reset is not an orderly close (a middlebox or a cut link can send it while the peer lives):
// the same console with gloo's read error instead stays a lost connection.
TEST(TwoRankTimeout, AResetIsNotTheTimeoutsCascade) {
  std::string c = fixture("s1100-r0140.log");
  replace_all(c, "Connection closed by peer [127.0.0.1]:4485", "Read error [127.0.0.1]:4485: Connection reset by peer");
  auto r = ncdx::testing::triage_text("console.log", c);
  EXPECT_NE(r.verdict.id, "triage.pair-timeout");
  EXPECT_EQ(r.verdict.klass, "network-socket") << r.verdict.id;
}

// A real crash stays the crash: the rank that lost its connection had its own error first.
TEST(TwoRankTimeout, AnOwnErrorIsTheCause) {
  std::string c = fixture("s1100-r0140.log");
  replace_all(c, "[rank0]: RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:561]",
              "[rank0]: ValueError: bad batch\n[rank0]: RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/"
              "transport/tcp/pair.cc:561]");
  auto r = ncdx::testing::triage_text("console.log", c);
  EXPECT_NE(r.verdict.id, "triage.pair-timeout");
}

// Both ranks timed out (nobody lost a connection): not this rule.
TEST(TwoRankTimeout, NeedsTheLostConnection) {
  std::string c = fixture("s1100-r0140.log");
  replace_all(c, "[rank0]: RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:561] "
                 "Connection closed by peer [127.0.0.1]:4485.",
              "[rank0]: RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/unbound_buffer.cc:129] "
              "Timed out waiting 6000ms for send operation to complete.");
  auto r = ncdx::testing::triage_text("console.log", c);
  EXPECT_NE(r.verdict.id, "triage.pair-timeout");
}

// Two fingerprints that differ: the collective mismatch names both ranks, in words.
TEST(TwoRankMismatch, BothRanksInWords) {
  auto r = ncdx::testing::triage_text("console.log", fixture("s1100-r0011.log"));
  EXPECT_EQ(r.verdict.klass, "data-mismatch");
  EXPECT_EQ(r.verdict.culprit.ranks, kBoth);
  EXPECT_NE(r.verdict.summary.find("Ranks 0 and 1 disagree about the collective they run"), std::string::npos)
      << r.verdict.summary;
}

}  // namespace
