// Derived findings that read the shape of a job rather than one line: where they fire and, as much,
// where they must not (each boundary is a real report that would otherwise be misread).
#include <gtest/gtest.h>

#include <string>

#include "support/triage_test_util.h"

namespace {

using ncdx::testing::triage_text;

const char* kP2pInit =
    "ws:10233:10309 [0] NCCL INFO Channel 00/0 : 0[1000] -> 1[2000] via P2P/IPC\n"
    "ws:10234:10310 [1] NCCL INFO Channel 00/0 : 1[2000] -> 0[1000] via P2P/IPC\n"
    "ws:10233:10309 [0] NCCL INFO comm 0x55f0 rank 0 nranks 2 cudaDev 0 busId 1000 - Init COMPLETE\n"
    "ws:10234:10310 [1] NCCL INFO comm 0x5630 rank 1 nranks 2 cudaDev 1 busId 2000 - Init COMPLETE\n";

std::string timeout(int rank, int seq) {
  return "[E ProcessGroupNCCL.cpp:821] [Rank " + std::to_string(rank) +
         "] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=" + std::to_string(seq) +
         ", OpType=ALLREDUCE, Timeout(ms)=1800000) ran for 1806152 milliseconds before timing out.\n";
}

// incident nccl-rtx4090-p2p-hang: both GPUs of one host finished init and hang in the first
// all-reduce over P2P; nothing on the ranks' side explains it.
TEST(TriageShape, FirstCollectiveHangOverP2pOnOneNode) {
  auto r = triage_text("a.log", std::string(kP2pInit) + timeout(1, 1) + timeout(0, 1));
  EXPECT_EQ(r.verdict.id, "triage.p2p-first-collective-hang");
  EXPECT_EQ(r.verdict.klass, "p2p-topology");
  EXPECT_EQ(r.verdict.culprit.hosts, (std::vector<std::string>{"ws"}));
}

// Mid-run (SeqNum 5000) the same shape is a straggler or a diverged rank, not the P2P path.
TEST(TriageShape, MidRunHangIsNotBlamedOnP2p) {
  auto r = triage_text("a.log", std::string(kP2pInit) + timeout(1, 5000) + timeout(0, 5000));
  EXPECT_EQ(r.verdict.klass, "timeout-hang");
}

// One rank does not report the timeout: it is elsewhere (incident single-node-first-barrier-rank-conditional).
TEST(TriageShape, ARankNotWaitingKeepsItATimeout) {
  auto r = triage_text("a.log", std::string(kP2pInit) + timeout(1, 1));
  EXPECT_EQ(r.verdict.klass, "timeout-hang");
}

// Across nodes (a NET transport) the first-collective hang has other explanations.
TEST(TriageShape, NetTransportIsNotOneNode) {
  auto r = triage_text("a.log",
                       std::string(kP2pInit) +
                           "ws:10233:10309 [0] NCCL INFO Channel 00/0 : 1[0] -> 2[0] [send] via NET/IB/0/GDRDMA\n" +
                           timeout(1, 1) + timeout(0, 1));
  EXPECT_NE(r.verdict.klass, "p2p-topology");
}

const char* kHeader = "# nThread 1 nGpus 1 minBytes 8 maxBytes 134217728 step: 2(factor) warmup iters: 5 iters: 20\n";

// incident nccl-tests-built-without-mpi-under-mpirun: two processes, each its own rank 0.
TEST(TriageShape, NcclTestsWithoutMpi) {
  auto r = triage_text("a.log", std::string(kHeader) +
                                    "#  Rank  0 Group  0 Pid   4011 on      node1 device  0 [0x07] NVIDIA A100\n" + kHeader +
                                    "#  Rank  0 Group  0 Pid   4012 on      node1 device  0 [0x07] NVIDIA A100\n");
  EXPECT_EQ(r.verdict.id, "triage.nccl-tests-without-mpi");
  EXPECT_EQ(r.verdict.klass, "config-invalid");
}

// A real MPI run lists ranks above 0 (one pid per rank); one process with -g 8 lists 0..7 under one pid.
TEST(TriageShape, NcclTestsWithMpiOrThreadsIsFine) {
  auto mpi = triage_text("a.log", std::string(kHeader) +
                                      "#  Rank  0 Group  0 Pid   4011 on      node1 device  0 [0x07] NVIDIA A100\n"
                                      "#  Rank  1 Group  0 Pid   4012 on      node1 device  1 [0x0f] NVIDIA A100\n");
  EXPECT_EQ(mpi.verdict.klass, "none");
  auto one = triage_text("a.log", std::string(kHeader) +
                                      "#  Rank  0 Group  0 Pid   4011 on      node1 device  0 [0x07] NVIDIA A100\n");
  EXPECT_EQ(one.verdict.klass, "none");
}

}  // namespace
