// Mechanisms the holdout6 bank exposed (tests/data/triage/incidents/holdout6.jsonl), on minimal
// logs: what a whole pasted report says beyond its lines — the launcher's own traceback, the odd
// operation in a timed-out collective slot, the host that advertised an unreachable address, the
// host a pasted "$ ssh HOST ..." command ran on — and the signatures added with them.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "analyze/triage/shell_host.h"
#include "support/triage_test_util.h"

namespace ncdx::analyze {
namespace {

using ncdx::testing::triage_text;

bool has(const std::vector<std::string>& v, const std::string& x) { return std::find(v.begin(), v.end(), x) != v.end(); }

std::string timeout_line(int rank, int seq, const char* op) {
  return "[rank" + std::to_string(rank) + "]:[E ProcessGroupNCCL.cpp:523] [Rank " + std::to_string(rank) +
         "] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=" + std::to_string(seq) + ", OpType=" + op +
         ", NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600031 milliseconds before timing out.\n";
}

// torchrun prints "ChildFailedError: " and its "=====" rule on the next line; joined, the two read
// as "<X>Error: <detail>", a Python exception. The first piece alone is the launcher's report
// (torch.elastic.child-failed), which outranks it: the agent's traceback is no rank's own error.
TEST(TriageReportContext, TorchrunsWrappedChildFailedErrorIsNoRanksException) {
  std::string log;
  for (int r = 1; r < 4; ++r) log += timeout_line(r, 812, "ALLREDUCE");
  log += "Traceback (most recent call last):\n"
         "  File \"/usr/local/bin/torchrun\", line 8, in <module>\n"
         "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: \n"
         "============================================================\n"
         "train.py FAILED\n";
  auto r = triage_text("a.log", log);
  EXPECT_EQ(r.verdict.klass, "timeout-hang") << r.verdict.id;
  EXPECT_NE(r.verdict.id, "python.exception");
  EXPECT_EQ(r.verdict.culprit.ranks, (std::vector<int>{0}));  // the rank that reported no timeout
}

// Every rank numbers its collectives alike: at one SeqNum, a rank waiting in another operation
// issued a different collective (an extra call on uneven data). A strict minority of 3+ ranks only.
TEST(TriageReportContext, OddOperationAtTheSameSeqNumNamesItsRank) {
  std::string log;
  for (int r = 0; r < 3; ++r) log += timeout_line(r, 4411, "ALLREDUCE");
  log += timeout_line(3, 4411, "ALLGATHER");
  auto r = triage_text("a.log", log);
  EXPECT_EQ(r.verdict.id, "triage.timeout-cascade");
  EXPECT_EQ(r.verdict.culprit.ranks, (std::vector<int>{3}));
  // Two against two: either side could be the odd one, nobody is named for it.
  std::string even = timeout_line(0, 9, "ALLREDUCE") + timeout_line(1, 9, "ALLREDUCE") +
                     timeout_line(2, 9, "BROADCAST") + timeout_line(3, 9, "BROADCAST");
  auto e = triage_text("a.log", even);
  EXPECT_TRUE(e.verdict.culprit.ranks.empty()) << e.verdict.id;
}

// NCCL printed the address as its own on one host ("Bootstrap : Using tailscale0:100.87.3.12<0>");
// another host's connect to it failed: the path between the two is at fault, often the address the
// peer advertises. Both hosts are named; a peer address nobody claims names no host.
TEST(TriageReportContext, FailedConnectNamesTheHostThatAdvertisedTheAddress) {
  const std::string warn =
      "\nws-2:2741:2790 [0] misc/socket.cc:484 NCCL WARN socketStartConnect: Connect to 100.87.3.12<39211> failed : "
      "Network is unreachable\n";
  auto r = triage_text("a.log", "ws-1:3320:3320 [0] NCCL INFO Bootstrap : Using tailscale0:100.87.3.12<0>\n"
                                "ws-2:2741:2741 [0] NCCL INFO Bootstrap : Using enp5s0:192.168.1.22<0>\n" + warn);
  EXPECT_EQ(r.verdict.id, "nccl.socket.connect-failed");
  EXPECT_TRUE(has(r.verdict.culprit.hosts, "ws-1"));
  EXPECT_TRUE(has(r.verdict.culprit.hosts, "ws-2"));
  auto alone = triage_text("a.log", warn);
  EXPECT_EQ(alone.verdict.culprit.hosts, (std::vector<std::string>{"ws-2"}));
}

TEST(TriageReportContext, ShellCommandHost) {
  using triage::shell_command_host;
  EXPECT_FALSE(shell_command_host("ssh node02 dmesg"));  // not a pasted command line
  EXPECT_EQ(shell_command_host("$ ssh node02 'sudo dmesg -T | tail -4'")->host, "node02");
  EXPECT_EQ(shell_command_host("$ ssh -p 2222 -i key root@gpu-7.cluster dmesg")->host, "gpu-7.cluster");
  EXPECT_EQ(shell_command_host("$ kubectl exec -it worker-1 -c pytorch -- nvidia-smi")->host, "worker-1");
  EXPECT_EQ(shell_command_host("$ kubectl debug node/gke-pool-7c1d -it --image=busybox -- dmesg")->host, "gke-pool-7c1d");
  auto logs = shell_command_host("$ kubectl logs pod/trainer-0 --tail 100");
  EXPECT_EQ(logs->host, "trainer-0");
  EXPECT_TRUE(logs->whole);
  EXPECT_EQ(shell_command_host("$ kubectl logs deployment/serve")->host, "");  // several pods
  EXPECT_EQ(shell_command_host("$ srun -w gpu-b2 df -h /dev/shm")->host, "gpu-b2");
  EXPECT_EQ(shell_command_host("$ srun -w gpu-b[1-2] hostname")->host, "");    // a node range
  EXPECT_EQ(shell_command_host("$ torchrun --nproc_per_node 8 train.py")->host, "");
  EXPECT_EQ(shell_command_host("$ NCCL_DEBUG=INFO sudo ssh n3 nvidia-smi")->host, "n3");
}

// The output of a pasted "$ ssh HOST cmd" is that host's, up to the next command line; lines
// with a rank or pid of their own keep theirs.
TEST(TriageReportContext, OutputOfAPastedSshCommandIsThatHosts) {
  const std::string xid =
      "[Tue Sep  2 18:32:05 2025] NVRM: Xid (PCI:0000:3b:00): 48, pid=51203, name=python, An uncorrectable double bit "
      "error (DBE) has been detected on GPU in the framebuffer at partition 6, subpartition 0.\n";
  auto r = triage_text("a.log", "$ ssh node3 'sudo dmesg -T | grep Xid'\n" + xid);
  EXPECT_TRUE(has(r.verdict.culprit.hosts, "node3")) << r.verdict.id;
  auto local = triage_text("a.log", "$ ssh node3 hostname\nnode3\n$ dmesg -T | grep Xid\n" + xid);
  EXPECT_FALSE(has(local.verdict.culprit.hosts, "node3")) << local.verdict.id;
}

// NCCL_P2P_LEVEL set beyond the default (graph/paths.cc "%s set by environment to %s") and a job
// hung in its first collective over P2P on one node: the forced path is the suspect, even when the
// excerpt shows only some ranks' timeouts. Not at the default level, and not once a rank is behind.
TEST(TriageReportContext, HangOverForcedP2pLevel) {
  auto log = [](const char* level) {
    return std::string("srv:10:10 [0] NCCL INFO NCCL_P2P_LEVEL set by environment to ") + level + "\n" +
           "srv:10:11 [3] NCCL INFO Channel 00/0 : 3[3] -> 4[4] via P2P/IPC\n" + timeout_line(0, 1, "BROADCAST") +
           timeout_line(5, 1, "BROADCAST");
  };
  auto r = triage_text("a.log", log("SYS"));
  EXPECT_EQ(r.verdict.id, "triage.p2p-level-forced-hang");
  EXPECT_EQ(r.verdict.klass, "p2p-topology");
  EXPECT_EQ(triage_text("a.log", log("PXB")).verdict.klass, "timeout-hang");
  auto mid_run = triage_text("a.log", std::string("srv:10:10 [0] NCCL INFO NCCL_P2P_LEVEL set by environment to SYS\n") +
                                          "srv:10:11 [3] NCCL INFO Channel 00/0 : 3[3] -> 4[4] via P2P/IPC\n" +
                                          timeout_line(0, 9000, "ALLREDUCE") + timeout_line(5, 9000, "ALLREDUCE"));
  EXPECT_EQ(mid_run.verdict.klass, "timeout-hang");
}

// Signatures added for holdout6 misses, each on its real text.
TEST(TriageReportContext, NewSignatures) {
  ncdx::testing::expect_verdicts({
      {"[rank3]: RuntimeError: received 0 items of ancdata\n", "torch.multiprocessing.fd-passing-failed", "shm-ipc"},
      {"srun: error: Unable to create step for job 88123: More processors requested than permitted\n",
       "slurm.step-request-refused", "config-invalid"},
      {"Failed to initialize NVML: Unknown Error\n", "nvml.container-lost-gpu-access", "config-invalid"},
      {"Failed to initialize NVML: Driver/library version mismatch\n", "nvml.driver-library-mismatch", "version-mismatch"},
      {"worker-3: ssh: connect to host worker-3 port 22: Connection timed out\n", "launcher.ssh-unreachable-node",
       "network-socket"},
      {"[rank5]: OSError: [Errno 122] Disk quota exceeded: '/home/u/ckpt/optimizer.pt'\n", "os.disk-full", "other"},
      {"usage: torchrun [-h] [--nnodes NNODES]\ntorchrun: error: unrecognized arguments: --nproc-per-nod=8\n",
       "launcher.usage-error", "config-invalid"},
      {"gpu-a07:811:902 [0] init.cc:1339 NCCL WARN Detected mixed local Net device counts across ranks (min 7, max 8). "
       "Set NCCL_IGNORE_NET_MISMATCH=1 to continue.\n",
       "nccl.init.net-device-count-skew", "network-ib"},
  });
  auto ssh = triage_text("a.log", "worker-3: ssh: connect to host worker-3 port 22: Connection timed out\n");
  EXPECT_TRUE(has(ssh.verdict.culprit.hosts, "worker-3"));
}

}  // namespace
}  // namespace ncdx::analyze
