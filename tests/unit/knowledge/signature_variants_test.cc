// Format variants across NCCL/PyTorch versions (NVIDIA/nccl src/debug.cc prefixes, src/transport/net_ib.cc IB formats,
// watchdog forms of different PyTorch releases): the signatures must generalise beyond the exact
// corpus lines. Each row: a line, the signature that must match, and fields it must extract.
#include <gtest/gtest.h>

#include <map>

#include "knowledge/signatures.h"

namespace ncdx::knowledge {
namespace {

struct Variant {
  const char* line;
  const char* id;
  std::map<std::string, std::string> fields;
};

const Variant kVariants[] = {
    {"[rank3]:[E1010 10:12:38.196312270 ProcessGroupNCCL.cpp:616] [Rank 3] Watchdog caught collective operation "
     "timeout: WorkNCCL(SeqNum=42, OpType=_ALLGATHER_BASE, NumelIn=1024, NumelOut=8192, Timeout(ms)=600000) ran for "
     "600012 milliseconds before timing out.",
     "torch.watchdog.collective-timeout",
     {{"rank", "3"}, {"seq", "42"}, {"op", "_ALLGATHER_BASE"}, {"numel_in", "1024"}, {"numel_out", "8192"},
      {"timeout_ms", "600000"}, {"ran_ms", "600012"}}},
    {"[PG ID 1 PG GUID 1 Rank 5] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=7, OpType=ALLREDUCE, "
     "NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600345 milliseconds before timing out.",
     "torch.watchdog.collective-timeout", {{"rank", "5"}, {"seq", "7"}, {"ran_ms", "600345"}}},
    {"host:1:2 [0] transport/net_ib.cc:1696 NCCL WARN NET/IB: Got completion from peer 10.0.0.2<4567> with status=12 "
     "opcode=0 len=0 vendor err 129 (Recv) localGid ::ffff:10.0.0.1 remoteGid ::ffff:10.0.0.2 hca mlx5_0",
     "nccl.ib.completion-retry-exceeded", {{"status", "12"}, {"vendor_err", "129"}, {"peer", "10.0.0.2<4567>"}}},
    {"host:1:2 [0] transport/net_ib.cc:2101 (ncclIbTest) NCCL WARN NET/IB: Got completion from peer 10.0.0.2<4567> "
     "with status=IBV_WC_RNR_RETRY_EXC_ERR(13) opcode=IBV_WC_RECV(128) vendor_err=136 hca mlx5_1",
     "nccl.ib.completion-rnr-retry", {{"status", "13"}, {"vendor_err", "136"}}},
    {"[2025-05-20 10:11:12] host:1:2 [0] misc/shmutils.cc:88 (ncclShmOpen) NCCL WARN Error: failed to extend "
     "/dev/shm/nccl-abc to 1234 bytes, error: No space left on device (28)",
     "nccl.shm.extend-failed", {{"path", "/dev/shm/nccl-abc"}, {"bytes", "1234"}}},
    {"RuntimeError: NCCL error in: /opt/conda/conda-bld/pytorch/work/torch/lib/c10d/ProcessGroupNCCL.cpp:957, unhandled "
     "system error, NCCL version 2.10.3",
     "nccl.result.system-error", {{"nccl_version", "2.10.3"}}},
    {"torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:219, invalid "
     "usage (run with NCCL_DEBUG=WARN for details), NCCL version 2.14.3",
     "nccl.result.invalid-usage", {{"nccl_version", "2.14.3"}}},
    {"RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 39.59 GiB total capacity; 36.10 GiB already "
     "allocated)",
     "torch.cuda-oom", {{"size", "2.00 GiB"}, {"gpu", "0"}}},
    {"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.95 GiB. GPU 3 has a total capacity of 79.10 GiB",
     "torch.cuda-oom", {{"size", "1.95 GiB"}, {"gpu", "3"}}},
    {"misc/socket.cc:484 NCCL WARN socketStartConnect: Connect to 172.31.1.2<55321> failed : Connection timed out",
     "nccl.socket.connect-failed", {{"peer", "172.31.1.2<55321>"}, {"error", "Connection timed out"}}},
    {"[Mon Jun 3 10:00:00 2024] NVRM: Xid (PCI:0000:b7:00): 48, pid=1234, name=python, DBE (0x00000000)",
     "kernel.nvrm-xid", {{"xid", "48"}, {"pid", "1234"}, {"process", "python"}}},
    {"NVRM: Xid (PCI:0000:18:00): 94, pid='<unknown>', name=<unknown>, Contained: CE User Channel (0x9).",
     "kernel.nvrm-xid", {{"xid", "94"}}},
    {"2025-01-01 host:1:2 [3] NCCL INFO ncclCommInitRankConfig comm 0x5f0 rank 11 nranks 64 cudaDev 3 nvmlDev 3 busId "
     "3b000 commId 0xabc - Init COMPLETE",
     "nccl.ctx.init",
     {{"rank", "11"}, {"nranks", "64"}, {"cuda_dev", "3"}, {"bus_id", "3b000"}, {"comm_id", "0xabc"}, {"phase", "COMPLETE"}}},
    {"host:1:1 [0] NCCL INFO comm 0x7f rank 0 nranks 8 cudaDev 0 busId 7000 - Init COMPLETE", "nccl.ctx.init",
     {{"rank", "0"}, {"nranks", "8"}, {"bus_id", "7000"}}},
    {"host:1:2 [0] NCCL INFO Channel 00/0 : 0[7000] -> 1[b000] via P2P/IPC/read", "nccl.ctx.channel-transport",
     {{"src_rank", "0"}, {"dst_rank", "1"}, {"transport", "P2P"}, {"detail", "IPC/read"}}},
    {"host:1:2 [0] NCCL INFO Channel 01/0 : 8[0] -> 0[0] [receive] via NET/IB/0/GDRDMA", "nccl.ctx.channel-transport",
     {{"dir", "receive"}, {"transport", "NET"}, {"detail", "IB/0/GDRDMA"}}},
    {"host:1:2 [0] NCCL INFO Channel 02 : 0[0] -> 1[1] via SHM/direct/direct", "nccl.ctx.channel-transport",
     {{"transport", "SHM"}}},
    {"NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB [RO]; OOB ib0:10.0.0.1<0>", "nccl.ctx.net-ib",
     {{"oob_if", "ib0"}}},
    {"node1:4711:4711 [0] NCCL INFO Using network AWS Libfabric", "nccl.ctx.network", {{"network", "AWS Libfabric"}}},
    {"h:1:1 [0] NCCL INFO Broadcast: opCount 0 sendbuff 0x7f recvbuff 0x7f count 1 datatype 0 op 0 root -1 comm 0x1 "
     "[nranks=2] stream 0x2",
     "nccl.ctx.coll", {{"op", "Broadcast"}, {"root", "-1"}, {"count", "1"}}},
    {"Detected mismatch between collectives on ranks. Rank 0 is running collective: CollectiveFingerPrint(SequenceNumber=3",
     "torch.collective-mismatch", {}},
    {"[rank1]: torch.distributed.DistNetworkError: The client socket has timed out after 1800000ms while trying to "
     "connect to (10.0.0.1, 29500).",
     "torch.store.client-connect-timeout", {{"host", "10.0.0.1"}, {"port", "29500"}, {"ms", "1800000"}}},
};

TEST(SignatureVariants, GeneraliseAcrossVersions) {
  auto set = SignatureSet::load_embedded();
  ASSERT_TRUE(set.ok());
  for (const auto& v : kVariants) {
    std::vector<SignatureMatch> out;
    set->match(v.line, out);
    const SignatureMatch* hit = nullptr;
    for (const auto& m : out)
      if (set->all()[m.index].id == v.id) hit = &m;
    if (!hit) {
      ADD_FAILURE() << v.id << " does not match: " << v.line;
      continue;
    }
    for (const auto& [k, want] : v.fields) {
      auto it = hit->fields.find(k);
      if (it == hit->fields.end()) ADD_FAILURE() << v.id << ": field " << k << " missing on: " << v.line;
      else EXPECT_EQ(it->second, want) << v.id << " field " << k;
    }
  }
}

}  // namespace
}  // namespace ncdx::knowledge
