// Mechanisms the holdout9 bank exposed (tests/data/triage/incidents/holdout9.jsonl), on minimal
// logs with the real producers' texts: a line a signature reads as an observation is no catalogued
// failure, NCCL's result code defers to the known WARN it wraps, the minority link layer of an
// IB/RoCE mix, the ranks missing from a store-based barrier, the pod that never started, the
// silent rank on the host of a hardware fault, and the signatures added with them.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "support/triage_test_util.h"

namespace ncdx::analyze {
namespace {

using ncdx::testing::triage_text;

bool has(const std::vector<std::string>& v, const std::string& x) { return std::find(v.begin(), v.end(), x) != v.end(); }

// NCCL 2.28 prints subnet-management events as WARNs and carries on (src/transport/net_ib.cc
// ncclIbAsyncThreadMain@v2.28.9-1: "Got non-fatal async event: %s(%d)", "GID table changed"). The
// message catalogue knows both texts with the class network-ib proposed from their words; the
// signature that reads them as observations decides.
TEST(TriageHoldout9, NonFatalIbEventsAreObservations) {
  const std::string steps = "step 100 loss 1.91\nstep 101 loss 1.90\n";
  auto sm = triage_text("a.log", steps +
                                     "gpu-f01:81233:81410 [3] NCCL WARN NET/IB : mlx5_3:1 Got non-fatal async event: SM change(13)\n"
                                     "gpu-f02:77190:77366 [3] NCCL WARN NET/IB : mlx5_3:1 Got non-fatal async event: client "
                                     "reregistration(17)\n" +
                                     steps);
  EXPECT_EQ(sm.verdict.klass, "none") << sm.verdict.id;
  auto gid = triage_text("a.log", steps + "roce-b:90121:90287 [1] NCCL WARN NET/IB : mlx5_1:1 GID table changed\n" + steps);
  EXPECT_EQ(gid.verdict.klass, "none") << gid.verdict.id;
  // A fatal event on the same HCA stays a failure.
  auto fatal = triage_text("a.log", "w3:88:142 [2] NCCL WARN NET/IB : mlx5_2:1 async fatal event on QP (0x7f3b5c0a1e40): "
                                    "local work queue catastrophic error\n");
  EXPECT_EQ(fatal.verdict.klass, "network-ib") << fatal.verdict.id;
}

// ncclInvalidArgument / ncclInvalidUsage / ncclSystemError say only which kind of call failed; the
// WARN before them (repeated after "Last error:") is the check that failed. A WARN no signature
// classifies but the catalogue knows (src/misc/argcheck.cc@v2.29.7-1, src/dev_runtime.cc:1498,
// src/misc/shmutils.cc:73@v2.24.3-1) gives the class; the wrapper's class is the fallback.
TEST(TriageHoldout9, NcclResultCodeDefersToTheKnownWarnItWraps) {
  const std::string invalid_arg =
      "[rank0]: torch.distributed.DistBackendError: NCCL error in: /pytorch/torch/csrc/distributed/c10d/"
      "ProcessGroupNCCL.cpp:3690, invalid argument (run with NCCL_DEBUG=WARN for details), NCCL version 2.29.2\n"
      "[rank0]: ncclInvalidArgument: Invalid value for an argument.\n";
  const std::string invalid_usage = "[rank0]: ncclInvalidUsage: This usually reflects invalid usage of NCCL library.\n";
  const std::string system_error =
      "[rank9]: ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error. \n";
  struct Case {
    std::string warn, wrapper, klass;
  };
  const Case cases[] = {
      {"b200-n03:219031:219490 [0] misc/argcheck.cc:130 NCCL WARN Coll AllReduce size 67108864 symmetric registration "
       "check failed on rank 5: recv buffer user offset (0x4000000) mismatch with rank 0 (0x0)",
       invalid_arg, "data-mismatch"},
      {"h100p-01:55120:55301 [0] dev_runtime.cc:1498 NCCL WARN Multimem pointer requested but system does not support "
       "multimem.",
       invalid_usage, "p2p-topology"},
      {"hpc-n112:3301:3411 [1] misc/shmutils.cc:73 NCCL WARN Error: failed to create shared memory file "
       "/dev/shm/nccl-q3Zr8v, error Permission denied (13)",
       system_error, "shm-ipc"},
      // A WARN that a signature classifies keeps the signature's reading (the catalogue does not speak).
      {"node05:88412:88731 [1] misc/socket.cc:484 NCCL WARN socketStartConnect: Connect to 10.0.0.7<36525> failed : "
       "Cannot assign requested address",
       system_error, "network-socket"},
  };
  for (const auto& c : cases) {
    auto r = triage_text("a.log", c.warn + "\n" + c.wrapper);
    EXPECT_EQ(r.verdict.klass, c.klass) << r.verdict.id << " for: " << c.warn;
  }
}

// Every host of an IB/RoCE mix reports the mismatch with its own link layer (net_ib.cc:1376@v2.26.6-1):
// the odd host is the one whose own ports are of the kind fewer hosts share.
TEST(TriageHoldout9, MinorityLinkLayerHostIsTheCulprit) {
  auto r = triage_text(
      "a.log",
      "15: gpu-n06:39818:40412 [7] transport/net_ib.cc:1376 NCCL WARN NET/IB : Remote RoCE device is incompatible with the "
      "local [7]mlx5_7:1/IB. Try selecting NICs of only one link type using NCCL_IB_HCA\n"
      "31: gpu-n08:38997:39631 [7] transport/net_ib.cc:1613 NCCL WARN NET/IB : Remote RoCE device is incompatible with the "
      "local [7]mlx5_7:1/IB. Try selecting NICs of only one link type using NCCL_IB_HCA\n"
      "23: gpu-n07:40134:40788 [7] transport/net_ib.cc:1376 NCCL WARN NET/IB : Remote IB device is incompatible with the "
      "local [7]mlx5_7:1/RoCE. Try selecting NICs of only one link type using NCCL_IB_HCA\n");
  EXPECT_EQ(r.verdict.klass, "network-ib") << r.verdict.id;
  EXPECT_EQ(r.verdict.culprit.hosts, (std::vector<std::string>{"gpu-n07"}));
  EXPECT_EQ(r.verdict.culprit.ranks, (std::vector<int>{23}));
  // Two hosts, one of each kind: either could be the odd one, both stay named.
  auto two = triage_text(
      "a.log",
      "0: a:1:2 [0] NCCL WARN NET/IB : Remote RoCE device is incompatible with the local [0]mlx5_0:1/IB. Try selecting NICs "
      "of only one link type using NCCL_IB_HCA\n"
      "8: b:1:2 [0] NCCL WARN NET/IB : Remote IB device is incompatible with the local [0]mlx5_0:1/RoCE. Try selecting NICs "
      "of only one link type using NCCL_IB_HCA\n");
  EXPECT_TRUE(has(two.verdict.culprit.hosts, "a") && has(two.verdict.culprit.hosts, "b"));
}

// new_group's store-based barrier says how many ranks joined (distributed_c10d.py _store_based_barrier,
// torch 2.2-2.3 text). The rank that never called new_group went on and failed later: it is the
// rank the reporters waited for, not the reporters.
TEST(TriageHoldout9, RankMissingFromTheStoreBarrierIsTheCulprit) {
  const std::string barrier =
      "torch.distributed.DistStoreError: Timed out initializing process group in store based barrier on rank ";
  const std::string tail = ", for key: store_based_barrier_key:2 (world_size=4, num_workers_joined=3, timeout=0:30:00)\n";
  auto r = triage_text("a.log", "[rank0]: " + barrier + "0" + tail + "[rank1]: " + barrier + "1" + tail + "[rank3]: " +
                                    barrier + "3" + tail +
                                    "[rank2]:[E ProcessGroupNCCL.cpp:563] [Rank 2] Watchdog caught collective operation "
                                    "timeout: WorkNCCL(SeqNum=31, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, "
                                    "Timeout(ms)=1800000) ran for 1800342 milliseconds before timing out.\n");
  EXPECT_EQ(r.verdict.klass, "timeout-hang") << r.verdict.id;
  EXPECT_EQ(r.verdict.culprit.ranks, (std::vector<int>{2})) << r.verdict.id << ": " << r.verdict.summary;
  // Without a rank that went past the barrier, no reporter is named as the absent one.
  auto none = triage_text("a.log", "[rank0]: " + barrier + "0" + tail + "[rank1]: " + barrier + "1" + tail);
  EXPECT_FALSE(std::find(none.verdict.culprit.ranks.begin(), none.verdict.culprit.ranks.end(), 2) !=
               none.verdict.culprit.ranks.end());
}

// The store server waited for a client that `kubectl get pods` shows never started: that pod, not
// the server's, is the culprit.
TEST(TriageHoldout9, PodThatNeverStartedIsWhatTheStoreWaitedFor) {
  const std::string store =
      "$ kubectl logs llama-ft-master-0\n"
      "torch.distributed.DistStoreError: Timed out after 901 seconds waiting for clients. 3/4 clients joined.\n"
      "$ kubectl get pods\n"
      "NAME                READY   STATUS              RESTARTS   AGE\n"
      "llama-ft-master-0   0/1     Error               0          16m\n"
      "llama-ft-worker-1   0/1     Error               0          16m\n";
  auto r = triage_text("a.log", store + "llama-ft-worker-2   0/1     ContainerCreating   0          16m\n");
  EXPECT_EQ(r.verdict.klass, "timeout-hang") << r.verdict.id;
  EXPECT_EQ(r.verdict.culprit.hosts, (std::vector<std::string>{"llama-ft-worker-2"}));
  auto started = triage_text("a.log", store + "llama-ft-worker-2   0/1     Error               0          16m\n");
  EXPECT_FALSE(has(started.verdict.culprit.hosts, "llama-ft-worker-2"));
}

// A kernel log names the faulty GPU's host, not its rank; the ranks that timed out name everyone
// but one, which printed nothing: that rank is on the faulty host.
TEST(TriageHoldout9, HostFaultTakesTheSilentRankOfTheCascade) {
  std::string log;
  for (int r : {0, 1, 2, 4, 5, 6, 7})
    log += std::to_string(r) + ": [rank" + std::to_string(r) + "]:[E ProcessGroupNCCL.cpp:523] [Rank " + std::to_string(r) +
           "] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=88213, OpType=ALLREDUCE, NumelIn=8, "
           "NumelOut=8, Timeout(ms)=600000) ran for 600097 milliseconds before timing out.\n";
  log += "$ ssh gpu-a12 dmesg -T | grep NVRM\n"
         "[Tue Mar 12 04:02:37 2024] NVRM: Xid (PCI:0000:b7:00): 62, pid='<unknown>', name=<unknown>, 2a1c(30d0) "
         "00000000 00000000\n";
  auto r = triage_text("a.log", log);
  EXPECT_EQ(r.verdict.klass, "cuda-hardware") << r.verdict.id;
  EXPECT_TRUE(has(r.verdict.culprit.hosts, "gpu-a12"));
  EXPECT_EQ(r.verdict.culprit.ranks, (std::vector<int>{3}));
}

// The signatures added with the bank, each on its producer's text.
TEST(TriageHoldout9, AddedSignatures) {
  auto slurm = triage_text("a.log",
                           "srun: fatal: SLURM_MEM_PER_CPU, SLURM_MEM_PER_GPU, and SLURM_MEM_PER_NODE are mutually "
                           "exclusive.\n");
  EXPECT_EQ(slurm.verdict.id, "slurm.options-mutually-exclusive");
  EXPECT_EQ(slurm.verdict.klass, "config-invalid");
  // The full conntrack table on the host whose kernel log is pasted outranks the connects it breaks.
  auto ct = triage_text("a.log",
                        "worker-a:2231:2671 [0] misc/socket.cc:484 NCCL WARN socketStartConnect: Connect to "
                        "172.31.8.12<41231> failed : Connection timed out\n"
                        "$ ssh worker-b dmesg -T | tail -n 2\n"
                        "[Mon Sep  9 07:41:12 2024] nf_conntrack: nf_conntrack: table full, dropping packet\n");
  EXPECT_EQ(ct.verdict.id, "kernel.conntrack-table-full");
  EXPECT_TRUE(has(ct.verdict.culprit.hosts, "worker-b"));
  auto pci = triage_text("a.log", "$ sudo lspci -vv -s 41:00.0 | grep LnkSta:\n\t\tLnkSta:\tSpeed 16GT/s (ok), Width x4 (downgraded)\n");
  EXPECT_EQ(pci.verdict.klass, "p2p-topology") << pci.verdict.id;
  auto ok = triage_text("a.log", "\t\tLnkSta:\tSpeed 16GT/s (ok), Width x16 (ok)\n");
  EXPECT_EQ(ok.verdict.klass, "none") << ok.verdict.id;
}

}  // namespace
}  // namespace ncdx::analyze
