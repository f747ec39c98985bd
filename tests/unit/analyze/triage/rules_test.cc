// Correlation rules that go beyond one line: a refinement (another signature reporting the same
// error changes the class), DDP's never-arrived parameter count, the single-node silent exit, and
// observations (severity info) that are reported but never the verdict.
#include <gtest/gtest.h>

#include "support/triage_test_util.h"

namespace ncdx::analyze {
namespace {

using ncdx::testing::triage_text;

// "Bootstrap : no socket interface found" is config-invalid by itself: without NCCL_SOCKET_IFNAME
// NCCL falls back to docker and lo (ncclFindInterfaces, NVIDIA/nccl src/misc/socket.cc), so only a
// setting leaves it no interface — whichever result code carries it (corpus open-r1-multimodal-7:
// ncclInternalError on 2.21.5; marin-7018: ncclInvalidUsage on 2.23+).
TEST(TriageRules, NoSocketInterfaceIsASettingWhateverTheResultCode) {
  for (const char* result : {"invalid usage (run with NCCL_DEBUG=WARN for details)", "internal error"}) {
    std::string log = std::string("[rank0]: torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:2588, ") +
                      result + ", NCCL version 2.21.5\n[rank0]: Last error:\n[rank0]: Bootstrap : no socket interface found\n";
    auto r = triage_text("a.log", log);
    EXPECT_EQ(r.verdict.id, "nccl.socket.no-interface") << result;
    EXPECT_EQ(r.verdict.klass, "config-invalid") << result;
  }
}

// A refinement: another signature reporting the same error nearby, on the same rank, changes the
// class. NCCL_NET=<net> that is "not found" is the network's (network-ib) unless the net plugin
// that provides it failed to load (version-mismatch; here its libfabric dependency is missing).
const char* kForcedNetNotFound = "node1:10:10 [0] net.cc:746 NCCL WARN Error: network AWS Libfabric not found.\n";
const char* kPluginLoadFailed =
    "node1:10:10 [0] NCCL INFO NET/Plugin: Plugin load (libnccl-net.so) returned 2 : libfabric.so.1: cannot open "
    "shared object file: No such file or directory\n";

TEST(TriageRefine, APluginThatFailedToLoadMakesTheMissingNetworkAVersionError) {
  auto r = triage_text("a.log", std::string(kPluginLoadFailed) + kForcedNetNotFound);
  EXPECT_EQ(r.verdict.id, "nccl.net.forced-network-not-found");
  EXPECT_EQ(r.verdict.klass, "version-mismatch");
  EXPECT_EQ(triage_text("a.log", kForcedNetNotFound).verdict.klass, "network-ib");
}

TEST(TriageRefine, FarApartOrOtherRankDoesNotCount) {
  std::string far = kPluginLoadFailed;
  for (int i = 0; i < 12; ++i) far += "node1:10:10 [0] NCCL INFO step " + std::to_string(i) + "\n";
  far += kForcedNetNotFound;
  EXPECT_EQ(triage_text("a.log", far).verdict.klass, "network-ib");
  std::string other = std::string("[rank3]: ") + kPluginLoadFailed + "[rank0]: " + kForcedNetNotFound;
  EXPECT_EQ(triage_text("a.log", other).verdict.klass, "network-ib");
}

TEST(TriageDdp, ZeroParamsFromAPeerIsALinkNotAModelDifference) {
  auto zero = triage_text("a.log",
                          "RuntimeError: DDP expects same model across all ranks, but Rank 5 has 8 params, while "
                          "rank 0 has inconsistent 0 params.\n");
  EXPECT_EQ(zero.verdict.id, "ddp.params-count-never-arrived");
  EXPECT_EQ(zero.verdict.klass, "cuda-hardware");
  EXPECT_EQ(zero.verdict.culprit.ranks, (std::vector<int>{0}));  // no prefix: the named peer
  auto differ = triage_text("a.log",
                            "RuntimeError: DDP expects same model across all ranks, but Rank 3 has 291 params, "
                            "while rank 0 has inconsistent 290 params.\n");
  EXPECT_EQ(differ.verdict.id, "ddp.params-mismatch-across-ranks");
  EXPECT_EQ(differ.verdict.klass, "data-mismatch");
}

// Each rank names the first rank that differs from it: the rank most reports name is the odd one,
// and a rank number is never a host (holdout4 h4-ddp-inconsistent-param-count).
std::string ddp_report(int rank, int params, int peer, int peer_params) {
  return "RuntimeError: DDP expects same model across all ranks, but Rank " + std::to_string(rank) + " has " +
         std::to_string(params) + " params, while rank " + std::to_string(peer) + " has inconsistent " +
         std::to_string(peer_params) + " params.\n";
}

TEST(TriageDdp, TheRankMostReportsNameIsTheOddOneAndNoRankIsAHost) {
  std::string log;
  for (int r : {1, 2, 3}) log += ddp_report(r, 258, 0, 260);
  log += ddp_report(0, 260, 1, 258);
  auto r = triage_text("a.log", log);
  EXPECT_EQ(r.verdict.id, "ddp.params-mismatch-across-ranks");
  EXPECT_EQ(r.verdict.culprit.ranks, (std::vector<int>{0}));
  EXPECT_TRUE(r.verdict.culprit.hosts.empty());
  // Two ranks name each other: either could be the odd one.
  auto two = triage_text("a.log", ddp_report(1, 258, 0, 260) + ddp_report(0, 260, 1, 258));
  EXPECT_EQ(two.verdict.culprit.ranks, (std::vector<int>{0, 1}));
}

// TORCH_NCCL_DESYNC_DEBUG's report names the rank the others waited for; the SIGABRT with which
// each waiting rank's watchdog ends its process is not a crash (torchrun's Root Cause names one).
TEST(TriageCulprits, DesyncReportNamesTheLaggingRankNotTheAbortedWaiter) {
  std::string log;
  for (int r : {0, 1, 3})
    log += "[rank" + std::to_string(r) + "]:[E611 09:23:18.400117 140301 ProcessGroupNCCL.cpp:607] [Rank " +
           std::to_string(r) +
           "] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=88121, OpType=ALLREDUCE, NumelIn=1, "
           "NumelOut=1, Timeout(ms)=1800000) ran for 1800087 milliseconds before timing out.\n";
  log += "[rank0]:[E611 09:23:19.880114 140301 ProcessGroupNCCL.cpp:1163] [Rank 0] \n"
         "\t - To our best knowledge, the lagging/dead/mismatched ranks that caused the desync are:\n"
         "\t     [2] finished collective #88120, but didn't join collective #88121 (count from 1)\n"
         "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: \n"
         "Root Cause (first observed failure):\n[0]:\n  time      : 2024-06-11_09:31:20\n  host      : node1\n"
         "  rank      : 3 (local_rank: 3)\n  exitcode  : -6 (pid: 140304)\n"
         "  traceback : Signal 6 (SIGABRT) received by PID 140304\n";
  auto r = triage_text("a.log", log);
  EXPECT_EQ(r.verdict.klass, "timeout-hang");
  EXPECT_EQ(r.verdict.id, "torch.desync-report.lagging-ranks");
  EXPECT_EQ(r.verdict.culprit.ranks, (std::vector<int>{2}));
}

// Completion errors that two hosts report against one peer address: the peer (the host whose NCCL
// printed that address as its own) is what they share.
TEST(TriageCulprits, APeerSeveralHostsReportAgainstIsTheCulpritHost) {
  const std::string log =
      "a:1:1 [0] NCCL INFO Bootstrap : Using ib0:10.1.0.1<0>\n"
      "b:2:2 [0] NCCL INFO Bootstrap : Using ib0:10.1.0.2<0>\n"
      "c:3:3 [0] NCCL INFO Bootstrap : Using ib0:10.1.0.3<0>\n"
      "a:1:9 [0] NCCL WARN NET/IB : Got completion from peer 10.1.0.3<51433> with status=12 opcode=0 len=0 vendor "
      "err 129 (Send)\n"
      "b:2:9 [0] NCCL WARN NET/IB : Got completion from peer 10.1.0.3<40112> with status=12 opcode=0 len=0 vendor "
      "err 129 (Send)\n";
  auto r = triage_text("a.log", log);
  EXPECT_EQ(r.verdict.klass, "network-ib");
  EXPECT_EQ(r.verdict.culprit.hosts, (std::vector<std::string>{"c"}));
  // One reporter: the link, shown by host name, and the reporter stay.
  auto one = triage_text("a.log", log.substr(0, log.rfind("b:2:9")));
  EXPECT_EQ(one.verdict.culprit.hosts, (std::vector<std::string>{"a"}));
  EXPECT_EQ(one.verdict.culprit.component, "link to c");
}

const char* kMpirunExit =
    "node05:44741:44741 [0] NCCL INFO Launch mode Parallel\n"
    "--------------------------------------------------------------------------\n"
    "mpirun detected that one or more processes exited with non-zero status, thus causing\n"
    "the job to be terminated. The first process to do so was:\n"
    "\n"
    "  Process name: [[11192,1],8]\n"
    "  Exit code:    3\n";

TEST(TriageFallback, SingleNodeSilentExitPointsAtP2P) {
  auto r = triage_text("a.log", kMpirunExit);
  EXPECT_EQ(r.verdict.id, "triage.single-node-silent-exit");
  EXPECT_EQ(r.verdict.klass, "p2p-topology");
  EXPECT_EQ(r.verdict.culprit.ranks, (std::vector<int>{8}));
  EXPECT_EQ(r.verdict.culprit.hosts, (std::vector<std::string>{"node05"}));
  EXPECT_LT(r.verdict.confidence, 0.5);  // an inference, and it says so
  // Observations (a node without IB prints "No device found") do not hide it.
  std::string with_info = std::string("node05:44741:44741 [0] NCCL INFO NET/IB : No device found.\n") + kMpirunExit;
  EXPECT_EQ(triage_text("a.log", with_info).verdict.id, "triage.single-node-silent-exit");
}

TEST(TriageFallback, NotWhenTwoNodesOrACauseIsNamed) {
  std::string two = std::string("node04:100:100 [1] NCCL INFO Launch mode Parallel\n") + kMpirunExit;
  auto r2 = triage_text("a.log", two);
  EXPECT_EQ(r2.verdict.klass, "other") << r2.verdict.id;
  std::string cause = std::string("node05:44741:44741 [0] misc/shmutils.cc:69 NCCL WARN Call to posix_fallocate "
                                  "failed : No space left on device\n") + kMpirunExit;
  EXPECT_EQ(triage_text("a.log", cause).verdict.klass, "shm-ipc");
  std::string no_nccl = kMpirunExit;
  no_nccl.erase(0, no_nccl.find('\n') + 1);  // no NCCL line: nothing says the job was NCCL on one node
  EXPECT_EQ(triage_text("a.log", no_nccl).verdict.klass, "other");
}

TEST(TriageCulprits, NamedRanksReplaceTheWaiterOfASymptom) {
  auto store = triage_text("a.log",
                           "[rank3]: torch.distributed.DistBackendError: [3] is setting up NCCL communicator and "
                           "retrieving ncclUniqueId from [0] via c10d key-value store by key '0', but store->get('0') "
                           "got error: Socket Timeout\n");
  EXPECT_EQ(store.verdict.culprit.ranks, (std::vector<int>{0}));
  auto barrier = triage_text("a.log", "RuntimeError: [Rank 0]: Ranks 1, 3 failed to pass monitoredBarrier in 30000 ms\n");
  EXPECT_EQ(barrier.verdict.klass, "timeout-hang");
  EXPECT_EQ(barrier.verdict.culprit.ranks, (std::vector<int>{1, 3}));
  auto peer = triage_text("a.log",
                          "RuntimeError: Rank 2 successfully reached monitoredBarrier, but received errors while "
                          "waiting for send/recv from rank 0. Please check rank 0 logs for faulty rank.\n");
  EXPECT_EQ(peer.verdict.culprit.ranks, (std::vector<int>{0}));
}

// corpus llamafactory-8549: ranks 1 and 2 report a stuck watchdog; rank 0 (the data dispatcher the
// others wait on) prints nothing. Ranks are numbered from 0, so rank 0 exists and is the suspect.
TEST(TriageCulprits, TheRankThatIsNotWaitingIsTheCulprit) {
  auto r = triage_text("a.log",
                       "[rank2]:[E704 13:48:58.260494728 ProcessGroupNCCL.cpp:1746] [PG ID 0 PG GUID 0(default_pg) "
                       "Rank 2] ProcessGroupNCCL's watchdog got stuck for 480 seconds without making progress in "
                       "monitoring enqueued collectives.\n"
                       "[rank1]:[E704 13:48:58.260509461 ProcessGroupNCCL.cpp:1746] [PG ID 0 PG GUID 0(default_pg) "
                       "Rank 1] ProcessGroupNCCL's watchdog got stuck for 480 seconds without making progress in "
                       "monitoring enqueued collectives.\n");
  EXPECT_EQ(r.verdict.klass, "timeout-hang");
  EXPECT_EQ(r.verdict.culprit.ranks, (std::vector<int>{0}));
}

// A cause that names no rank (nvidia-smi output, a dmesg line) must not inherit the waiting ranks:
// the ranks reporting the timeout are victims. (Regression: the cascade was looked up by a pointer
// taken before the findings were sorted, which then named whatever finding took its slot.)
TEST(TriageCulprits, ARanklessCauseDoesNotBlameTheWaiters) {
  auto r = triage_text("a.log",
                       "[rank5]:[E ProcessGroupNCCL.cpp:474] [Rank 5] Watchdog caught collective operation timeout: "
                       "WorkNCCL(SeqNum=90412, OpType=ALLREDUCE, Timeout(ms)=1800000) ran for 1800418 milliseconds "
                       "before timing out.\n"
                       "[rank2]:[E ProcessGroupNCCL.cpp:474] [Rank 2] Watchdog caught collective operation timeout: "
                       "WorkNCCL(SeqNum=90412, OpType=ALLREDUCE, Timeout(ms)=1800000) ran for 1800422 milliseconds "
                       "before timing out.\n"
                       "Unable to determine the device handle for GPU0000:C1:00.0: Unknown Error\n");
  EXPECT_EQ(r.verdict.klass, "cuda-hardware");
  EXPECT_TRUE(r.verdict.culprit.ranks.empty()) << r.verdict.culprit.ranks.front();
  EXPECT_EQ(r.verdict.culprit.devices, (std::vector<std::string>{"0000:C1:00.0"}));
}

// With the cascade itself the verdict, its culprits are its own suspects, not a victim of another finding.
TEST(TriageCulprits, ACascadeWithoutSuspectsNamesNoVictim) {
  auto r = triage_text("a.log",
                       "[rank3]:[E ProcessGroupNCCL.cpp:563] [Rank 3] Watchdog caught collective operation timeout: "
                       "WorkNCCL(SeqNum=25003, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=1800000) ran for "
                       "1800081 milliseconds before timing out.\n"
                       "[rank6]:[E ProcessGroupNCCL.cpp:563] [Rank 6] Watchdog caught collective operation timeout: "
                       "WorkNCCL(SeqNum=25003, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=1800000) ran for "
                       "1800090 milliseconds before timing out.\n"
                       "[rank3]:[E ProcessGroupNCCL.cpp:577] [Rank 3] Some NCCL operations have failed or timed out. Due "
                       "to the asynchronous nature of CUDA kernels, subsequent GPU operations might run on "
                       "corrupted/incomplete data.\n");
  EXPECT_EQ(r.verdict.klass, "timeout-hang");
  for (int rank : r.verdict.culprit.ranks) EXPECT_TRUE(rank != 3 && rank != 6) << "victim " << rank << " named";
}

// torchrun names the first rank that failed; when that rank was not itself waiting in the collective
// the others time out on, it is the suspect (it exited and left them behind). Its own error, an
// application exception that is no distributed error, is the cause and gives the class (issue #10
// §2: it outranks the timeouts it caused; the injected-fault bench's `exception` runs are the same
// shape, ground truth `other`).
TEST(TriageCulprits, TheExitedRankThatWasNotWaitingIsTheSuspect) {
  auto r = triage_text("a.log",
                       "[rank0]: FileNotFoundError: [Errno 2] No such file or directory: '/mnt/out/meta.json'\n"
                       "[rank4]:[E ProcessGroupNCCL.cpp:563] [Rank 4] Watchdog caught collective operation timeout: "
                       "WorkNCCL(SeqNum=15007, OpType=BROADCAST, NumelIn=1, NumelOut=1, Timeout(ms)=1800000) ran for "
                       "1800104 milliseconds before timing out.\n"
                       "[rank2]:[E ProcessGroupNCCL.cpp:563] [Rank 2] Watchdog caught collective operation timeout: "
                       "WorkNCCL(SeqNum=15007, OpType=BROADCAST, NumelIn=1, NumelOut=1, Timeout(ms)=1800000) ran for "
                       "1800111 milliseconds before timing out.\n"
                       "Root Cause (first observed failure):\n[0]:\n  time      : 2023-11-08_14:02:17\n"
                       "  host      : node-a\n  rank      : 0 (local_rank: 0)\n  exitcode  : 1 (pid: 3310)\n");
  EXPECT_EQ(r.verdict.klass, "other");
  EXPECT_EQ(r.verdict.id, "python.exception");
  EXPECT_EQ(r.verdict.culprit.ranks, (std::vector<int>{0}));
}

// torchrun's failure block prints the exit code of the rank it names: a cause found in that block
// (SIGKILL → OOM killer) with no rank of its own belongs to that rank.
TEST(TriageCulprits, TheLauncherNamesTheRankOfAnUnattributedCause) {
  auto r = triage_text("a.log",
                       "Root Cause (first observed failure):\n[0]:\n  time      : 2024-03-01_12:00:00\n"
                       "  host      : gpu-node-1\n  rank      : 3 (local_rank: 3)\n  exitcode  : -9 (pid: 12345)\n"
                       "  error_file: <N/A>\n  traceback : Signal 9 (SIGKILL) received by PID 12345\n");
  EXPECT_EQ(r.verdict.klass, "oom");
  EXPECT_EQ(r.verdict.culprit.ranks, (std::vector<int>{3}));
}

// srun/mpirun name the node of the task they saw die; that node is the culprit host, not the host
// of the lines around the launcher's message.
TEST(TriageCulprits, TheLauncherNamesTheNodeOfTheDeadTask) {
  auto r = triage_text("a.log",
                       "0: node0:40212:40719 [2] misc/socket.cc:47 NCCL WARN socketProgress: Connection closed by "
                       "remote peer node3<48113>\n"
                       "srun: error: node3: task 5: Killed\n");
  EXPECT_EQ(r.verdict.klass, "oom");
  EXPECT_EQ(r.verdict.culprit.ranks, (std::vector<int>{5}));
  EXPECT_EQ(r.verdict.culprit.hosts, (std::vector<std::string>{"node3"}));
}

// PyTorch continues an NCCL error on unprefixed lines ("ncclXxx:", "Last error:", NCCL's text); those
// belong to the rank of the glog line above. Another tool's output pasted below does not.
TEST(TriageCulprits, OnlyAMessagesOwnContinuationTakesTheRankAbove) {
  auto r = triage_text("a.log",
                       "[rank3]:[E ProcessGroupNCCL.cpp:1275] NCCL error in: ProcessGroupNCCL.cpp:1275, invalid "
                       "usage, NCCL version 2.19.3\n"
                       "ncclInvalidUsage: This usually reflects invalid usage of NCCL library.\n"
                       "Last error:\n"
                       "Duplicate GPU detected : rank 3 and rank 1 both on CUDA device 1a000\n");
  EXPECT_EQ(r.verdict.klass, "config-invalid");
  EXPECT_EQ(r.verdict.evidence.front().rank, 3);
}

TEST(TriageCulprits, BothRanksOnOneGpu) {
  auto r = triage_text("a.log", "Duplicate GPU detected : rank 0 and rank 1 both on CUDA device 2000\n");
  EXPECT_EQ(r.verdict.culprit.ranks, (std::vector<int>{0, 1}));
}

TEST(TriageCulprits, PeerHostLosesItsPort) {
  auto r = triage_text("a.log",
                       "node1:100:200 [0] misc/socket.cc:484 NCCL WARN socketProgress: Connection closed by remote "
                       "peer node2<52342>\n");
  EXPECT_EQ(r.verdict.culprit.hosts, (std::vector<std::string>{"node2"}));
}

TEST(TriageVersions, OldTorchSpellingOfTheSameNcclIsNoSkew) {
  auto r = triage_text("a.log",
                       "node1:10:10 [0] NCCL INFO NCCL version 2.10.3+cuda11.3\n"
                       "node2:20:20 [0] NCCL INFO NCCL version 2.10.3+cuda11.3\n"
                       "RuntimeError: NCCL error in: ../torch/lib/c10d/ProcessGroupNCCL.cpp:825, unhandled system "
                       "error, NCCL version 21.0.3\n");
  for (const auto& f : r.findings) EXPECT_NE(f.id, "triage.version-skew");
  EXPECT_NE(r.verdict.id, "triage.version-skew");
}

TEST(TriageVersions, OldNcclSystemErrorIsAPeerExitOnlyWhenTheJobTimedOut) {
  const std::string err = "RuntimeError: NCCL error: unhandled system error, NCCL version 2.7.8\n";
  EXPECT_EQ(triage_text("a.log", err).verdict.klass, "network-socket");
  auto torn = triage_text("a.log", "ProcessGroupNCCL.cpp:325] Some NCCL operations have failed or timed out. Due to "
                                   "the asynchronous nature of CUDA kernels, subsequent GPU operations might run on "
                                   "corrupted/incomplete data.\n" + err);
  EXPECT_EQ(torn.verdict.klass, "timeout-hang");
}

// What a node without InfiniBand prints during a healthy init.
const char* kNoIbNode =
    "node2:999:1010 [3] NCCL INFO NET/Plugin: Could not find: libnccl-net.so. Using internal network plugin.\n"
    "node2:999:1010 [3] NCCL INFO Failed to open libibverbs.so[.1]\n"
    "node2:999:1010 [3] NCCL INFO NET/IB : No device found.\n"
    "node2:999:1010 [3] NCCL INFO NET/Socket : Using [0]eth0:10.0.0.2<0>\n"
    "node2:999:1010 [3] NCCL INFO Using network Socket\n"
    "node2:999:1010 [3] NCCL INFO comm 0x55d0 rank 3 nranks 4 cudaDev 3 nvmlDev 3 busId 81000 commId 0x1 - Init COMPLETE\n";

TEST(TriageObservations, NoIbOnANodeWithoutIbIsNotAFailure) {
  auto r = triage_text("a.log", kNoIbNode);
  EXPECT_EQ(r.verdict.klass, "none") << r.verdict.id;
  ASSERT_FALSE(r.findings.empty());  // still reported, as observations
  for (const auto& f : r.findings) EXPECT_EQ(f.severity, core::Severity::info) << f.id;
}

TEST(TriageObservations, SocketsOverIpoibWithoutVerbsIsTheFallback) {
  std::string log = kNoIbNode;
  log.replace(log.find("eth0:10.0.0.2"), 13, "ib0:192.168.1.2");
  auto r = triage_text("a.log", log);
  EXPECT_EQ(r.verdict.id, "triage.socket-fallback-on-ib");
  EXPECT_EQ(r.verdict.klass, "network-ib");
  EXPECT_NE(r.verdict.summary.find("libibverbs"), std::string::npos) << r.verdict.summary;
}

TEST(TriageObservations, AFailureStillWinsOverAHigherScoredObservation) {
  std::string log = std::string(kNoIbNode) +
                    "node2:999:1010 [3] NCCL INFO NCCL_IB_DISABLE set by environment to 1.\n"
                    "[rank3]:[E1104 10:22:33.123456789 ProcessGroupNCCL.cpp:616] [Rank 3] Watchdog caught collective "
                    "operation timeout: WorkNCCL(SeqNum=7, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, "
                    "Timeout(ms)=600000) ran for 600011 milliseconds before timing out.\n";
  EXPECT_EQ(triage_text("a.log", log).verdict.klass, "timeout-hang");
}

}  // namespace
}  // namespace ncdx::analyze
