// Host attribution across nodes (issue #10: "ranks across hosts, so host attribution is tested
// too"). The texts are cut from real runs of the fault bench across network-namespace hosts
// (bench/faults/faults.py, launcher torchrun-netns: one torchrun per host, each host's console in
// its own file, as collected from the nodes); the full runs are fixtures g-* in
// tests/data/triage/faults/.
#include <gtest/gtest.h>

#include <sstream>
#include <utility>

#include "support/triage_test_util.h"

namespace {

using Files = std::vector<std::pair<std::string, std::string>>;

ncdx::analyze::TriageResult triage_files(const Files& files) {
  ncdx::analyze::Scanner s(ncdx::testing::signatures());
  for (const auto& [name, text] : files) {
    auto f = s.add_file(name, ncdx::analyze::hints_from_path(name));
    std::istringstream in(text);
    std::string line;
    long long n = 0;
    while (std::getline(in, line)) s.feed(f, ++n, line);
  }
  return ncdx::analyze::correlate(s.finish(), ncdx::testing::signatures(), {});
}

std::string block(const std::string& host, const std::vector<std::pair<int, std::string>>& entries,
                  const std::string& time = "2026-12-05_21:45:33") {
  // torchrun's ChildFailedError block: the first entry is the root cause, the rest under Failures.
  std::string out = "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: \n"
                    "============================================================\n"
                    "/work/job.py FAILED\n------------------------------------------------------------\nFailures:\n";
  auto entry = [&](int i, int rank, const std::string& exit) {
    return "[" + std::to_string(i) + "]:\n  time      : " + time + "\n  host      : " + host +
           "\n  rank      : " + std::to_string(rank) + " (local_rank: " + std::to_string(rank % 2) +
           ")\n  exitcode  : " + exit + "\n  error_file: <N/A>\n";
  };
  if (entries.size() == 1) out += "  <NO_OTHER_FAILURES>\n";
  for (std::size_t i = 1; i < entries.size(); ++i) out += entry(static_cast<int>(i), entries[i].first, entries[i].second);
  out += "------------------------------------------------------------\nRoot Cause (first observed failure):\n" +
         entry(0, entries[0].first, entries[0].second) + "============================================================\n";
  return out;
}

// The rank's own error has a rank prefix and no host; its node's torchrun block says where it ran.
// The culprit is that rank on that host, and the rank table carries every rank's host.
TEST(TriageHosts, TheCulpritRankGetsItsHostFromItsNodesFailureBlock) {
  const std::string oom = "[rank3]: RuntimeError: DefaultCPUAllocator: can't allocate memory: you tried to allocate "
                          "4294967296 bytes. Error code 12 (Cannot allocate memory)\n";
  const std::string timeout = "[rank%]: RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/"
                              "unbound_buffer.cc:78] Timed out waiting 6000ms for recv operation to complete\n";
  auto waited = [&](int r) {
    std::string t = timeout;
    t.replace(t.find('%'), 1, std::to_string(r));
    return t;
  };
  auto r = triage_files({{"node-n1.log", waited(0) + waited(1) + block("n1", {{0, "1 (pid: 11)"}, {1, "1 (pid: 12)"}})},
                         {"node-n2.log", waited(2) + oom + block("n2", {{3, "1 (pid: 21)"}, {2, "1 (pid: 22)"}})}});
  EXPECT_EQ(r.verdict.klass, "oom");
  EXPECT_EQ(r.verdict.culprit.ranks, (std::vector<int>{3}));
  EXPECT_EQ(r.verdict.culprit.hosts, (std::vector<std::string>{"n2"}));
  ASSERT_TRUE(r.ranks.count(0) && r.ranks.count(3));
  EXPECT_EQ(r.ranks.at(0).host.value_or("?"), "n1");
  EXPECT_EQ(r.ranks.at(3).host.value_or("?"), "n2");
}

// A host is named only when every culprit rank's host is known: a rank without one would make the
// named host look like the whole answer.
TEST(TriageHosts, NoHostWhenACulpritRanksHostIsUnknown) {
  auto r = ncdx::testing::triage_text("console.log",
                       "[rank1]: ValueError: batch 2 has no labels\n"
                       "[rank0]: RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:561] "
                       "Connection closed by peer [198.19.0.2]:40343. This is typically caused by a remote worker crashing.\n");
  EXPECT_EQ(r.verdict.culprit.ranks, (std::vector<int>{1}));
  EXPECT_TRUE(r.verdict.culprit.hosts.empty()) << r.verdict.culprit.hosts.front();
}

// torchrun on two nodes, 2 workers each: rank 1 (node n1) left the job early with status 0 and
// printed nothing; its peers' connections closed. Node n1's block lists rank 0 only, node n2's lists
// ranks 2 (its error) and 3 (SIGTERMed by its agent). Rank 3 is silent too, but its node's block
// lists it: it did not exit 0, its agent stopped it. Rank 1 is the one that left.
TEST(TriageHosts, ARankMissingFromItsOwnNodesBlockExitedZero) {
  const std::string closed = "]: RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:561] "
                             "Connection closed by peer [198.19.0.1]:21212. This is typically caused by a remote "
                             "worker crashing. Check the logs of the remote worker before reporting an error.\n";
  auto r = triage_files(
      {{"node-n1.log", "rank 1: no more data, done\n[rank0" + closed + block("n1", {{0, "1 (pid: 20948)"}})},
       {"node-n2.log", "[rank2" + closed +
                           "W1205 21:45:33.361000 20850 torch/distributed/elastic/multiprocessing/api.py:1028] Sending "
                           "process 20951 closing signal SIGTERM\n" +
                           block("n2", {{2, "1 (pid: 20949)"}, {3, "-15 (pid: 20951)  (SIGTERM)"}})}});
  EXPECT_EQ(r.verdict.klass, "timeout-hang") << r.verdict.id;
  EXPECT_EQ(r.verdict.culprit.ranks, (std::vector<int>{1})) << r.verdict.summary;
  EXPECT_EQ(r.verdict.culprit.hosts, (std::vector<std::string>{"n1"}));
}

// The same, but node n2 has no block in the input (its log was not collected): with one node's
// block the workers per node cannot be told, so a silent rank outside it is not called one that
// exited 0 (it may belong to the missing node).
TEST(TriageHosts, WithoutEveryNodesBlockNoRankIsSaidToHaveExitedZero) {
  const std::string closed = "]: RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:561] "
                             "Connection closed by peer [198.19.0.1]:21212. This is typically caused by a remote "
                             "worker crashing.\n";
  auto r = triage_files({{"node-n2.log", "[rank2" + closed + block("n2", {{2, "1 (pid: 1)"}, {3, "-15 (pid: 2)  (SIGTERM)"}})}});
  for (int x : r.verdict.culprit.ranks) EXPECT_NE(x, 3) << "rank 3 was stopped by its agent: " << r.verdict.summary;
}

}  // namespace

namespace {

// The agent of a node whose workers all finished waits on the store for the other agents (its
// exit barrier); when the store's node finished first, the wait loses the store, and torchrun logs
// that and goes on (torch/distributed/elastic/agent/server/api.py _exit_barrier). Cut from a
// healthy run of the bench (torchrun-netns, fault straggler: every rank printed "done").
const std::string kBarrier =
    "rank 3: done\n"
    "[W1205 21:50:21.636528419 TCPStore.cpp:138] [c10d] recvValueWithTimeout failed on SocketImpl(fd=3, "
    "addr=[::601c:7faf:397f:0]:37219, remote=[fdff:ffff:fc7f:0:750:69af:397f:0]:25801): Failed to recv, got 0 "
    "bytes. Connection was likely closed. Did the remote server shutdown or crash?\n"
    "E1205 21:50:21.912000 29017 torch/distributed/elastic/agent/server/api.py:1007] Error waiting on exit "
    "barrier. Elapsed: 0.01729559898376465 seconds\n"
    "E1205 21:50:21.912000 29017 torch/distributed/elastic/agent/server/api.py:1007] Traceback (most recent call "
    "last):\n"
    "E1205 21:50:21.912000 29017 torch/distributed/elastic/agent/server/api.py:1007]     store.wait([last_member_key])\n"
    "E1205 21:50:21.912000 29017 torch/distributed/elastic/agent/server/api.py:1007] "
    "torch.distributed.DistNetworkError: Failed to recv, got 0 bytes. Connection was likely closed. Did the remote "
    "server shutdown or crash?\n";

TEST(TriageAcrossNodes, AStoreLostInTheExitBarrierAfterSuccessIsNoFailure) {
  auto r = triage_files({{"node-n1.log", "rank 0: done\nrank 1: done\n"}, {"node-n2.log", kBarrier}});
  EXPECT_EQ(r.verdict.klass, "none") << r.verdict.id << ": " << r.verdict.summary;
}

// Another node's real failure stays the verdict (the barrier's store loss is only set aside).
TEST(TriageAcrossNodes, TheExitBarrierHidesNoOtherNodesFailure) {
  auto r = triage_files({{"node-n1.log", "[rank0]: ValueError: batch 2 has no labels\n" +
                                             block("n1", {{0, "1 (pid: 11)"}})},
                         {"node-n2.log", kBarrier}});
  EXPECT_EQ(r.verdict.klass, "other") << r.verdict.id;
  EXPECT_EQ(r.verdict.culprit.ranks, (std::vector<int>{0}));
}

// The same store loss without the agent's exit-barrier line is a lost store, as before.
TEST(TriageAcrossNodes, AStoreLostOutsideTheExitBarrierStaysAFailure) {
  std::string t = kBarrier;
  t.erase(t.find("E1205 21:50:21.912000 29017 torch/distributed/elastic/agent/server/api.py:1007] Error waiting"),
          std::string("E1205 21:50:21.912000 29017 torch/distributed/elastic/agent/server/api.py:1007] Error waiting on "
                      "exit barrier. Elapsed: 0.01729559898376465 seconds\n").size());
  auto r = triage_files({{"node-n2.log", t}});
  EXPECT_EQ(r.verdict.klass, "network-socket") << r.verdict.id;
}

}  // namespace

// torchrun-netns, world 2 (fixture g-r0024): rank 1 on n2 slept in its step; rank 0 timed out
// waiting and exited, and rank 1 woke 54 s later to "Connection closed by peer". Each node's
// torchrun prints its own "first observed failure", so no launcher says who failed first: the
// entries' times do. The rank that lost its connection after every other rank had timed out was
// not in the collective they waited in.
namespace {
const char* kRecvTimeout0 =
    "[rank0]: RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/unbound_buffer.cc:78] "
    "Timed out waiting 6000ms for recv operation to complete\n";
const char* kClosed1 =
    "[rank1]: RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:561] Connection "
    "closed by peer [198.19.0.1]:52101. This is typically caused by a remote worker crashing.\n";
}  // namespace

TEST(TriageAcrossNodes, TheRankThatLostItsConnectionAfterTheOthersTimedOutIsTheLateOne) {
  auto r = triage_files({{"node-n1.log", std::string(kRecvTimeout0) + block("n1", {{0, "1 (pid: 11)"}}, "2026-12-05_21:46:27")},
                         {"node-n2.log", std::string(kClosed1) + block("n2", {{1, "1 (pid: 21)"}}, "2026-12-05_21:47:21")}});
  EXPECT_EQ(r.verdict.klass, "timeout-hang");
  EXPECT_EQ(r.verdict.culprit.ranks, (std::vector<int>{1}));
  EXPECT_EQ(r.verdict.culprit.hosts, (std::vector<std::string>{"n2"}));
}

// The same lines with the closed connection timed *before* the timeout: rank 1 did not outlast the
// waiters, so the late-rank rule must not name it.
TEST(TriageAcrossNodes, AConnectionLostBeforeTheTimeoutIsNotTheLateRank) {
  auto r = triage_files({{"node-n1.log", std::string(kRecvTimeout0) + block("n1", {{0, "1 (pid: 11)"}}, "2026-12-05_21:47:21")},
                         {"node-n2.log", std::string(kClosed1) + block("n2", {{1, "1 (pid: 21)"}}, "2026-12-05_21:46:27")}});
  EXPECT_EQ(r.verdict.summary.find("lost its connection only after"), std::string::npos) << r.verdict.summary;
}

// mpirun across hosts (fixture g-r0002): rank 2 raised; Open MPI's tags and the exception name no
// host, but both ring neighbours print the address of the peer that closed on them. That address
// is where rank 2 ran.
namespace {
std::string closed_by(int rank, const std::string& addr) {
  return "[1," + std::to_string(rank) + "]<stderr>:[rank" + std::to_string(rank) +
         "]: RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:561] Connection closed "
         "by peer [" + addr + "]:59088. This is typically caused by a remote worker crashing.\n";
}
const char* kRank2Raised = "[1,2]<stderr>:[rank2]: ValueError: batch 2 has no labels\n";
}  // namespace

TEST(TriageHosts, TheVictimsNameTheAddressOfTheRankThatLeft) {
  auto r = ncdx::testing::triage_text("console.log", std::string(kRank2Raised) + closed_by(1, "198.19.0.3") +
                                                         closed_by(3, "198.19.0.3"));
  EXPECT_EQ(r.verdict.culprit.ranks, (std::vector<int>{2}));
  EXPECT_EQ(r.verdict.culprit.hosts, (std::vector<std::string>{"198.19.0.3"}));
}

// Victims that name two different peers (the cascade reached a second rank, or the lines are of
// another failure) name no host; neither does a single victim in a job of three or more.
TEST(TriageHosts, NoHostFromVictimsThatDisagreeOrFromOneOfMany) {
  auto two = ncdx::testing::triage_text("console.log", std::string(kRank2Raised) + closed_by(1, "198.19.0.3") +
                                                           closed_by(3, "198.19.0.4"));
  EXPECT_EQ(two.verdict.culprit.ranks, (std::vector<int>{2}));
  EXPECT_TRUE(two.verdict.culprit.hosts.empty()) << two.verdict.culprit.hosts.front();
  auto one = ncdx::testing::triage_text("console.log", std::string(kRank2Raised) + closed_by(1, "198.19.0.3") +
                                                           "[1,3]<stdout>:rank 3 step 1 loss 2.500\n");
  EXPECT_EQ(one.verdict.culprit.ranks, (std::vector<int>{2}));
  EXPECT_TRUE(one.verdict.culprit.hosts.empty()) << one.verdict.culprit.hosts.front();
}
