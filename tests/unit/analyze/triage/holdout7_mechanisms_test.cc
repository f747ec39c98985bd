// Mechanisms the holdout7 bank exposed (tests/data/triage/incidents/holdout7.jsonl), on minimal
// logs with the real producers' texts: exceptions the interpreter ignored, a server that kept
// answering, kubectl's pod-state refusal, the data addresses NCCL's socket transport prints as its
// own, a wrapped address, the torchrun agent losing the store, a kernel link event against its
// peers' completions, the ranks on a failed host, a PyTorchJob's master pod, and the signatures
// added with them.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "support/triage_test_util.h"

namespace ncdx::analyze {
namespace {

using ncdx::testing::triage_text;

bool has(const std::vector<std::string>& v, const std::string& x) { return std::find(v.begin(), v.end(), x) != v.end(); }

// CPython's unraisable hook (Python/errors.c): "Exception ignored in: <obj>", the traceback, the
// exception line. The interpreter carried on: no error evidence. The report ends at its exception
// line: an error printed after it is evidence again.
TEST(TriageHoldout7, ExceptionTheInterpreterIgnoredIsNoFailure) {
  const std::string report =
      "Training complete\n"
      "Exception ignored in: <function _MultiProcessingDataLoaderIter.__del__ at 0x7f3b9a1c4ee0>\n"
      "Traceback (most recent call last):\n"
      "  File \"/opt/conda/lib/python3.11/site-packages/torch/utils/data/dataloader.py\", line 1604, in __del__\n"
      "    self._shutdown_workers()\n"
      "AttributeError: '_MultiProcessingDataLoaderIter' object has no attribute '_workers_status'\n";
  auto ignored = triage_text("a.log", report);
  EXPECT_EQ(ignored.verdict.klass, "none") << ignored.verdict.id;
  auto after = triage_text("a.log", report + "fatal: cannot read /data/shard-3: input/output failure, aborting\n");
  EXPECT_NE(after.verdict.klass, "none");
}

// kubectl refuses the log of a container still being created (kubernetes
// pkg/registry/core/pod/strategy.go): a pod state. An image that cannot be pulled is a failure.
TEST(TriageHoldout7, KubectlContainerCreatingIsNoFailure) {
  auto creating = triage_text("a.log", "Error from server (BadRequest): container \"pytorch\" in pod \"ddp-worker-0\" is "
                                       "waiting to start: ContainerCreating\n");
  EXPECT_EQ(creating.verdict.klass, "none") << creating.verdict.id;
  auto pull = triage_text("a.log", "Error from server (BadRequest): container \"pytorch\" in pod \"ddp-worker-0\" is "
                                   "waiting to start: image can't be pulled\n");
  EXPECT_NE(pull.verdict.klass, "none");
}

// A request the OpenAI server rejected (logged with its traceback, answered 400), then requests
// answered 200 (uvicorn's access format): the server kept serving. Without a later success the
// error stays evidence.
TEST(TriageHoldout7, ServerThatAnsweredAfterAnErrorIsServing) {
  const std::string err =
      "ERROR 05-12 09:14:22 [serving_chat.py:200] Error in preprocessing prompt inputs\n"
      "ERROR 05-12 09:14:22 [serving_chat.py:200] Traceback (most recent call last):\n"
      "ERROR 05-12 09:14:22 [serving_chat.py:200] ValueError: This model's maximum context length is 32768 tokens. "
      "However, you requested 40112 tokens. Please reduce the length of the messages or completion.\n"
      "INFO:     10.2.3.9:53310 - \"POST /v1/chat/completions HTTP/1.1\" 400 Bad Request\n";
  auto served = triage_text("a.log", err + "INFO:     10.2.3.4:41190 - \"POST /v1/chat/completions HTTP/1.1\" 200 OK\n");
  EXPECT_EQ(served.verdict.klass, "none") << served.verdict.id;
  auto failing = triage_text("a.log", err + "INFO:     10.2.3.4:41190 - \"POST /v1/chat/completions HTTP/1.1\" 500 "
                                            "Internal Server Error\n");
  EXPECT_NE(failing.verdict.klass, "none");
}

// NCCL's socket transport prints each host's data addresses ("NET/Socket : Using [0]ens5:10.2.0.14<0>",
// net_socket.cc): the peer the others' lines name is that host.
TEST(TriageHoldout7, SocketTransportAddressNamesThePeerHost) {
  auto r = triage_text(
      "a.log",
      "node-a:2210:2210 [0] NCCL INFO NET/Socket : Using [0]ens5:10.2.0.11<0>\n"
      "node-b:3318:3318 [0] NCCL INFO NET/Socket : Using [0]ens5:10.2.0.12<0>\n"
      "node-c:4021:4021 [0] NCCL INFO NET/Socket : Using [0]ens5:10.2.0.14<0> [1]ens6:10.3.0.14<0>\n"
      "node-a:2210:2298 [0] misc/socket.cc:50 NCCL WARN socketProgress: Connection closed by remote peer 10.2.0.14<52331>\n"
      "node-b:3318:3391 [0] misc/socket.cc:50 NCCL WARN socketProgress: Connection closed by remote peer 10.3.0.14<40982>\n");
  EXPECT_EQ(r.verdict.culprit.hosts, (std::vector<std::string>{"node-c"})) << r.verdict.id;
}

// A terminal that cut "192.168.10.21<35819>" after "192.168.10" leaves a piece that is no address.
TEST(TriageHoldout7, AddressCutByAWrapIsNoHost) {
  auto r = triage_text("a.log",
                       "node-b:50211:50388 [3] misc/socket.cc:50 NCCL WARN socketProgress: Connection closed by remote "
                       "peer 192.168.10\n.21<35819>\n");
  EXPECT_FALSE(has(r.verdict.culprit.hosts, "192.168.10")) << r.verdict.id;
}

// The torchrun agent (no rank) lost the rendezvous store as the ranks did: the store's host or the
// path to it failed; rank 0, which printed no error, is not what they waited for.
TEST(TriageHoldout7, AgentThatLostTheStoreIsNoSilentRank) {
  auto r = triage_text("a.log",
                       "[rank0]: epoch 3 eval started\n"
                       "[rank9]: torch.distributed.DistNetworkError: Connection reset by peer\n"
                       "[rank12]: torch.distributed.DistNetworkError: Connection reset by peer\n"
                       "torch.distributed.elastic.rendezvous.api.RendezvousConnectionError: The connection to the C10d "
                       "store has failed. See inner exception for details.\n");
  EXPECT_EQ(r.verdict.klass, "network-socket") << r.verdict.id;
  EXPECT_NE(r.verdict.id, "triage.waited-for-rank");
}

// The mlx5 driver's link event on one host outranks the retry-exceeded completions its peers
// printed earlier towards it: the kernel line names the host and port, the completions only an address.
TEST(TriageHoldout7, KernelLinkEventOutranksItsPeersCompletions) {
  std::string log;
  for (const char* h : {"cn12", "cn13", "cn16"})
    log += std::string(h) + ":4410:4490 [2] transport/net_ib.cc:2121 NCCL WARN NET/IB: Got completion from peer "
           "10.20.1.17<53118> with status=12 opcode=0 len=0 vendor err 129 (Send) hca mlx5_2\n";
  log += "$ ssh cn17 'dmesg -T | grep mlx5'\n"
         "[Fri Mar  7 02:14:55 2025] mlx5_core 0000:9a:00.0: Port module event: module 2, Cable unplugged\n";
  auto r = triage_text("a.log", log);
  EXPECT_EQ(r.verdict.id, "kernel.mlx5-link-event");
  EXPECT_EQ(r.verdict.culprit.hosts, (std::vector<std::string>{"cn17"}));
}

// A host-level verdict (nvidia-smi on gpu-17 cannot open a GPU) names no rank; the rank on that
// host that printed its own error ran on it. Ranks elsewhere that only timed out are not named.
TEST(TriageHoldout7, RankWithItsOwnErrorOnTheFailedHost) {
  auto r = triage_text(
      "a.log",
      "gpu-17: [rank29]: RuntimeError: CUDA error: unknown error\n"
      "gpu-15: [rank8]:[E1102 17:50:13.200000 7708 ProcessGroupNCCL.cpp:1316] [PG 0 Rank 8] Watchdog caught collective "
      "operation timeout: WorkNCCL(SeqNum=91802, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for "
      "600312 milliseconds before timing out.\n"
      "$ ssh gpu-17 nvidia-smi\n"
      "Unable to determine the device handle for GPU0000:9D:00.0: Unknown Error\n");
  EXPECT_EQ(r.verdict.klass, "cuda-hardware") << r.verdict.id;
  EXPECT_EQ(r.verdict.culprit.ranks, (std::vector<int>{29}));
  EXPECT_TRUE(has(r.verdict.culprit.hosts, "gpu-17"));
}

// Kubeflow's PyTorchJob runs node rank 0 in its master pod: a rank-0 culprit that printed nothing
// under its own prefix is in "<job>-master-0".
TEST(TriageHoldout7, PyTorchJobRankZeroIsInTheMasterPod) {
  std::string log = "[pod/sft-master-0/pytorch] Evaluating:  49%|####      | 2450/5000\n";
  for (int r : {8, 9, 10})
    log += "[pod/sft-worker-0/pytorch] [rank" + std::to_string(r) + "]:[E519 03:41:05.110136 48 ProcessGroupNCCL.cpp:616] "
           "[PG ID 0 PG GUID 0(default_pg) Rank " + std::to_string(r) + "] Watchdog caught collective operation timeout: "
           "WorkNCCL(SeqNum=40211, OpType=_ALLGATHER_BASE, NumelIn=1, NumelOut=8, Timeout(ms)=1800000) ran for 1800092 "
           "milliseconds before timing out.\n";
  log += "[rank0]: step 40210 done\n";
  auto r = triage_text("a.log", log);
  ASSERT_EQ(r.verdict.culprit.ranks, (std::vector<int>{0})) << r.verdict.id;
  EXPECT_EQ(r.verdict.culprit.hosts, (std::vector<std::string>{"sft-master-0"}));
}

// Signatures added for holdout7 misses, each on its producer's text.
TEST(TriageHoldout7, NewSignatures) {
  ncdx::testing::expect_verdicts({
      // UCX's fatal form (ucs_fatal_error_message: "[host:pid:thread:tid] %13s:%-4u %s").
      {"[1,12]<stderr>:[gpu-n03:48812:0:48890] ib_mlx5_log.c:171  Transport retry count exceeded on mlx5_0:1/IB (synd "
       "0x15 vend 0x81 hw_synd 0/0)\n", "ucx.ib-completion-error", "network-ib"},
      {"Dec 11 04:00:31 node-a kernel: ice 0000:31:00.0 ens2f0: NIC Link is Down\n", "kernel.nic-link-down",
       "network-socket"},
      {"[Mon Oct 14 08:21:02 2024] nfs: server 10.8.0.40 not responding, still trying\n",
       "kernel.nfs-server-not-responding", "timeout-hang"},
      {"WARNING 10-14 08:22:48 shm_broadcast.py:396] No available shared memory broadcast block found in 60 second. This "
       "typically happens when some processes are hanging or doing some time-consuming work (e.g. compilation).\n",
       "vllm.shm-broadcast-stall", "timeout-hang"},
  });
}

}  // namespace
}  // namespace ncdx::analyze
