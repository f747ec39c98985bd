// Mechanisms the holdout8 bank exposed (tests/data/triage/incidents/holdout8.jsonl), on minimal
// logs with the real producers' texts: the layout of a healthy NCCL RAS report, the node address a
// RAS report gives, a network warning on a one-node job, the peer several hosts fail towards, a
// process killed for memory against its peers' network errors, the pod `kubectl describe` reports
// on, a script's own "[rankN] " prefix, and the signatures added with them.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "analyze/triage/shell_host.h"
#include "support/triage_test_util.h"

namespace ncdx::analyze {
namespace {

using ncdx::testing::triage_text;

bool has(const std::vector<std::string>& v, const std::string& x) { return std::find(v.begin(), v.end(), x) != v.end(); }

// The RAS client's text report (NVIDIA/nccl src/ras/client_support.cc, 2.24+): its section headings
// and the communicator table's header are printed whatever the job's state.
const std::string kRasHead =
    "NCCL version 2.27.3+cuda12.9 compiled with CUDA 12.9\n"
    "Communicators... (0.00s)\n"
    "=============\n"
    "\n"
    "Group     Comms     Nodes     Ranks     Ranks     Ranks    Status  Errors\n"
    "    #  in group  per comm  per node  per comm  in group\n"
    "    0         1         2         8        16        16   RUNNING      OK\n"
    "\n"
    "Errors\n"
    "======\n"
    "\n"
    "Warnings\n"
    "========\n"
    "\n";

TEST(TriageHoldout8, HealthyRasReportIsNoFailure) {
  auto ok = triage_text("a.log", kRasHead);
  EXPECT_EQ(ok.verdict.klass, "none") << ok.verdict.id;
}

// The rank behind the others: RAS names it with the address of its node; the rest of the log
// (srun's task line) names the same node by its host name. Both are the culprit's.
TEST(TriageHoldout8, RasNodeAddressIsNamedBesideTheHostName) {
  auto r = triage_text("a.log", kRasHead +
                                    "#0-0 (9d3c6b2e1f08a475) MISMATCH\n"
                                    "  Communicator ranks have different AllReduce operation counts\n"
                                    "  15 ranks have launched up to operation 48213\n"
                                    "  Rank 13 has launched up to operation 48212 -- GPU 5 managed by process 80412 on "
                                    "node 10.12.0.22\n"
                                    "srun: error: gpu-n22: task 13: Terminated\n");
  ASSERT_EQ(r.verdict.culprit.ranks, (std::vector<int>{13})) << r.verdict.id;
  EXPECT_TRUE(has(r.verdict.culprit.hosts, "10.12.0.22"));
}

// NCCL listed a libvirt bridge among its socket interfaces (NCCL 2.19 net_socket.cc INFO), but every
// channel of the job runs over SHM inside the node: no data used that interface. With a NET/Socket
// channel the warning stands.
TEST(TriageHoldout8, NetworkWarningOnAOneNodeJobIsAnObservation) {
  const std::string pick = "ws:3101:3290 [0] NCCL INFO NET/Socket : Using [0]enp6s0:192.168.1.40<0> [1]virbr0:192.168.122.1<0>\n";
  auto shm = triage_text("a.log", pick + "ws:3101:3290 [0] NCCL INFO Channel 00 : 0[0] -> 1[1] via SHM/direct/direct\n");
  EXPECT_EQ(shm.verdict.klass, "none") << shm.verdict.id;
  auto net = triage_text("a.log", pick + "ws:3101:3290 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] [send] via NET/Socket/1\n");
  EXPECT_EQ(net.verdict.klass, "network-socket") << net.verdict.id;
}

// NCCL 2.27+ names the address a bootstrap connect gave up on (misc/socket.cc socketConnectCheck).
// Two hosts that fail towards one address share that peer: a network transport's peer is always
// another node, so the address is named even when no line shows it as a host's own. One reporter
// alone leaves the link (reporter and address) as it was.
TEST(TriageHoldout8, ConnectFailuresOfTwoHostsNameTheirSharedPeer) {
  const std::string warn = " [0] NCCL WARN socketPollConnect: connect to 10.0.2.77<43151> returned Connection timed out, "
                           "exceeded error retry count after 35 attempts\n";
  auto two = triage_text("a.log", "ip-10-0-2-141:22418:22531" + warn + "ip-10-0-2-140:1201:1290" + warn);
  EXPECT_EQ(two.verdict.id, "nccl.socket.connect-failed");
  EXPECT_EQ(two.verdict.culprit.hosts, (std::vector<std::string>{"10.0.2.77"}));
  auto one = triage_text("a.log", "ip-10-0-2-141:22418:22531" + warn);
  EXPECT_EQ(one.verdict.culprit.hosts, (std::vector<std::string>{"ip-10-0-2-141"}));
  EXPECT_EQ(one.verdict.culprit.component, "link to 10.0.2.77");
}

// NCCL 2.24+ ibv_modify_qp failure (misc/ibvwrap.cc ibvModifyQpLog) names the remote RoCE GID; an
// IPv4-mapped GID is the remote node's address. Reported from three hosts, it is their shared peer.
TEST(TriageHoldout8, QpFailuresOfSeveralHostsNameTheRemoteNode) {
  std::string log;
  for (const char* h : {"llm-worker-0", "llm-worker-1", "llm-worker-3"})
    log += std::string(h) + ":703:760 [3] NCCL WARN Call to ibv_modify_qp failed with 110 Connection timed out, on dev "
           "mlx5_3:1, curr state INIT, next state RTR, local GID index 3, local GID ::ffff:10.20.1.14, remote GID "
           "::ffff:10.20.1.16\n";
  auto qp = triage_text("a.log", log);
  EXPECT_EQ(qp.verdict.id, "nccl.ib.modify-qp-failed");
  EXPECT_EQ(qp.verdict.culprit.hosts, (std::vector<std::string>{"10.20.1.16"}));
  // A GID NCCL could not read ("N/A") names nothing.
  auto na = triage_text("a.log",
                        "n1:703:760 [3] NCCL WARN Call to ibv_modify_qp failed with 110 Connection timed out, on dev "
                        "mlx5_3:1, curr state INIT, next state RTR, local GID index 3, local GID N/A, remote GID N/A\n"
                        "n2:703:760 [3] NCCL WARN Call to ibv_modify_qp failed with 110 Connection timed out, on dev "
                        "mlx5_3:1, curr state INIT, next state RTR, local GID index 3, local GID N/A, remote GID N/A\n");
  EXPECT_FALSE(has(na.verdict.culprit.hosts, "N/A"));
}

// A worker pod killed at its memory limit (kubectl describe pod: "Reason: OOMKilled") and the
// master's IB completion error towards it: the kill is the cause, on the pod described.
TEST(TriageHoldout8, KillForMemoryOutranksThePeersNetworkError) {
  auto r = triage_text("a.log",
                       "NET/IB : Got completion from peer 10.244.3.17<46513> with status=12 opcode=0 len=0 vendor err 129 "
                       "(Send)\n"
                       "$ kubectl describe pod bert-large-worker-1 -n ml\n"
                       "Name:             bert-large-worker-1\n"
                       "    State:          Terminated\n"
                       "      Reason:       OOMKilled\n"
                       "      Exit Code:    137\n");
  EXPECT_EQ(r.verdict.klass, "oom") << r.verdict.id;
  EXPECT_TRUE(has(r.verdict.culprit.hosts, "bert-large-worker-1"));
  // Without the kill the IB error is the verdict.
  auto ib = triage_text("a.log",
                        "NET/IB : Got completion from peer 10.244.3.17<46513> with status=12 opcode=0 len=0 vendor err "
                        "129 (Send)\n");
  EXPECT_EQ(ib.verdict.klass, "network-ib") << ib.verdict.id;
}

TEST(TriageHoldout8, KubectlDescribeNamesItsPod) {
  using triage::shell_command_host;
  EXPECT_EQ(shell_command_host("$ kubectl describe pod bert-large-worker-1 -n ml")->host, "bert-large-worker-1");
  EXPECT_EQ(shell_command_host("$ kubectl describe -n ml pod/w-2")->host, "w-2");
  EXPECT_EQ(shell_command_host("$ kubectl describe node gpu-pool-3")->host, "gpu-pool-3");
  EXPECT_EQ(shell_command_host("$ kubectl describe pods -l job=sft")->host, "");  // several pods
}

// A training script's own "[rank6] step ..." lines make rank 6 part of the job: it is the rank
// that did not report the timeout all others report.
TEST(TriageHoldout8, ScriptRankPrefixMakesTheSilentRankKnown) {
  std::string log;
  for (int r = 0; r < 4; ++r) log += "[rank" + std::to_string(r) + "] step 3011 loss 1.22\n";
  for (int r = 0; r < 3; ++r)
    log += "[rank" + std::to_string(r) + "]:[E0402 09:33:50.120331981 ProcessGroupNCCL.cpp:616] [PG ID 0 PG GUID "
           "0(default_pg) Rank " + std::to_string(r) + "] Watchdog caught collective operation timeout: "
           "WorkNCCL(SeqNum=6024, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=1800000) ran for 1800090 "
           "milliseconds before timing out.\n";
  auto r = triage_text("a.log", log);
  EXPECT_EQ(r.verdict.culprit.ranks, (std::vector<int>{3})) << r.verdict.id;
}

// Signatures added or corrected for holdout8 misses, each on its producer's text.
TEST(TriageHoldout8, NewSignatures) {
  ncdx::testing::expect_verdicts({
      // Horovod prints the request type upper case (horovod/common/message.cc RequestType_Name).
      {"[1,3]<stderr>:tensorflow.python.framework.errors_impl.FailedPreconditionError: Mismatched ALLREDUCE tensor "
       "shapes: One rank sent a tensor of shape [512, 100], but another rank sent a tensor of shape [512, 10].\n",
       "horovod.mismatched-tensors", "data-mismatch"},
      {"RuntimeError: Mismatched operations: One rank did an ALLREDUCE, but another rank did an ALLGATHER.\n",
       "horovod.mismatched-tensors", "data-mismatch"},
      // torchtitan torchtitan/distributed/parallel_dims.py _validate.
      {"[rank0]:AssertionError: Invalid parallel dims: dp_replicate(1) * dp_shard(4) * cp(1) * tp(4) * pp(1) != "
       "WORLD_SIZE(8)\n",
       "parallel.world-size-not-divisible", "config-invalid"},
  });
}

}  // namespace
}  // namespace ncdx::analyze
