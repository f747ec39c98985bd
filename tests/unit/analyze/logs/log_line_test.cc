// parse_prefix() on real lines (corpus/failures-dev.jsonl, data/nccl_info_logs.jsonl) of every
// prefix format the input layer knows.
#include <gtest/gtest.h>

#include "analyze/logs/log_line.h"

using ncdx::analyze::LineLevel;
using ncdx::analyze::parse_prefix;

TEST(ParsePrefix, NcclInfo) {
  auto p = parse_prefix("MOC-R4PCC04U37:574691:574691 [0] NCCL INFO NCCL_SOCKET_IFNAME set by environment to eno7np0");
  EXPECT_TRUE(p.nccl);
  EXPECT_EQ(p.host, "MOC-R4PCC04U37");
  EXPECT_EQ(p.pid, 574691);
  EXPECT_EQ(p.tid, 574691);
  EXPECT_EQ(p.cuda_dev, 0);
  EXPECT_FALSE(p.rank);  // [0] is the CUDA device, not the rank
  EXPECT_EQ(p.level, LineLevel::info);
  EXPECT_EQ(p.message, "NCCL_SOCKET_IFNAME set by environment to eno7np0");
}

TEST(ParsePrefix, NcclWarnWithSource) {
  auto p = parse_prefix("node23:12098:12141 [2] transport/nvls.cc:244 NCCL WARN Cuda failure 1 'invalid argument'");
  EXPECT_TRUE(p.nccl);
  EXPECT_EQ(p.level, LineLevel::warn);
  EXPECT_EQ(p.cuda_dev, 2);
  EXPECT_EQ(p.source, "transport/nvls.cc:244");
  EXPECT_EQ(p.message, "Cuda failure 1 'invalid argument'");
}

TEST(ParsePrefix, NcclWarnTimestamped226) {
  auto p = parse_prefix(
      "[2026-04-22 21:34:20] mt-l-x86iavx512-45-172-t4-4-csmpw-runner-g4sfw-workflow:202016:202235 [0] "
      "misc/shmutils.cc:88 NCCL WARN Error: failed to extend /dev/shm/nccl-x to 9637892 bytes");
  EXPECT_TRUE(p.nccl);
  EXPECT_EQ(p.host, "mt-l-x86iavx512-45-172-t4-4-csmpw-runner-g4sfw-workflow");
  EXPECT_EQ(p.pid, 202016);
  EXPECT_EQ(p.time_text, "2026-04-22 21:34:20");
  ASSERT_TRUE(p.epoch);
  EXPECT_DOUBLE_EQ(*p.epoch, 1776893660.0);  // date -u -d '2026-04-22 21:34:20' +%s
  EXPECT_DOUBLE_EQ(*p.clock, 21 * 3600 + 34 * 60 + 20);
  EXPECT_EQ(p.message, "Error: failed to extend /dev/shm/nccl-x to 9637892 bytes");
}

TEST(ParsePrefix, NcclWarn230WithFunction) {
  auto p = parse_prefix("gpu1:10:11 [3] transport/net_ib.cc:1700 (ncclIbTest) NCCL WARN NET/IB: Got completion from peer 10.0.0.2<1234> with status=12");
  EXPECT_TRUE(p.nccl);
  EXPECT_EQ(p.source, "transport/net_ib.cc:1700");
  EXPECT_EQ(p.message, "NET/IB: Got completion from peer 10.0.0.2<1234> with status=12");
}

TEST(ParsePrefix, NcclTraceAndCall) {
  auto t = parse_prefix("h:1:2 [0] 1234.567890 ncclProxyProgress:812 NCCL TRACE Sent 4");
  EXPECT_TRUE(t.nccl);
  EXPECT_EQ(t.source, "ncclProxyProgress:812");
  EXPECT_EQ(t.message, "Sent 4");
  auto c = parse_prefix("h:1:2 NCCL CALL ncclAllReduce(...)");
  EXPECT_TRUE(c.nccl);
  EXPECT_FALSE(c.cuda_dev);
  EXPECT_EQ(c.message, "ncclAllReduce(...)");
}

TEST(ParsePrefix, NcclWithoutHost) {
  auto p = parse_prefix("[3] include/shm.h:28 NCCL WARN Call to posix_fallocate failed : No space left on device");
  EXPECT_TRUE(p.nccl);
  EXPECT_EQ(p.cuda_dev, 3);
  EXPECT_FALSE(p.rank);
  EXPECT_FALSE(p.host);
  EXPECT_EQ(p.level, LineLevel::warn);
  EXPECT_EQ(p.message, "Call to posix_fallocate failed : No space left on device");
  auto i = parse_prefix("[3] NCCL INFO include/shm.h:41 -> 2");
  EXPECT_TRUE(i.nccl);
  EXPECT_EQ(i.message, "include/shm.h:41 -> 2");
  auto bare = parse_prefix("NCCL WARN NET/IB : Got completion from peer 192.168.17.147<38560> with error 12, opcode 0, len 0, vendor err 129");
  EXPECT_TRUE(bare.nccl);
  EXPECT_EQ(bare.message.substr(0, 10), "NET/IB : G");
  auto src = parse_prefix("misc/ibvwrap.cc:278 NCCL WARN Call to ibv_reg_mr_iova2 failed with error Cannot allocate memory");
  EXPECT_TRUE(src.nccl);
  EXPECT_EQ(src.source, "misc/ibvwrap.cc:278");
}

TEST(ParsePrefix, VersionLineStaysMessage) {
  auto p = parse_prefix("NCCL version 2.26.2+cuda12.2");
  EXPECT_FALSE(p.nccl);
  EXPECT_EQ(p.message, "NCCL version 2.26.2+cuda12.2");
}

TEST(ParsePrefix, TorchrunThenGlog) {
  auto p = parse_prefix("[rank38]:[E809 14:59:30.411244289 ProcessGroupNCCL.cpp:629] [Rank 38] Watchdog caught collective operation timeout");
  EXPECT_EQ(p.rank, 38);
  EXPECT_EQ(p.level, LineLevel::error);
  EXPECT_EQ(p.source, "ProcessGroupNCCL.cpp:629");
  ASSERT_TRUE(p.clock);
  EXPECT_NEAR(*p.clock, 14 * 3600 + 59 * 60 + 30.411244289, 1e-6);
  EXPECT_FALSE(p.epoch);  // glog has no year
  EXPECT_EQ(p.time_text, "809 14:59:30.411244289");
  EXPECT_EQ(p.message, "Watchdog caught collective operation timeout");
}

TEST(ParsePrefix, GlogShortAndPgPrefix) {
  auto p = parse_prefix("[E ProcessGroupNCCL.cpp:828] [Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1)");
  EXPECT_EQ(p.level, LineLevel::error);
  EXPECT_EQ(p.rank, 1);
  EXPECT_EQ(p.message, "Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1)");
  auto g = parse_prefix("[rank2]:[E704 13:48:58.260494728 ProcessGroupNCCL.cpp:1746] [PG ID 0 PG GUID 0(default_pg) Rank 2] ProcessGroupNCCL's watchdog got stuck for 480 seconds");
  EXPECT_EQ(g.rank, 2);
  EXPECT_EQ(g.message, "ProcessGroupNCCL's watchdog got stuck for 480 seconds");
  auto sub = parse_prefix("[E704 13:48:58.260494728 ProcessGroupNCCL.cpp:1746] [PG ID 3 PG GUID 7 Rank 5] x");
  EXPECT_EQ(sub.rank, 5);
  EXPECT_EQ(sub.message, "x");
  auto w = parse_prefix("[rank0]:[W CudaIPCTypes.cpp:16] Producer process has been terminated");
  EXPECT_EQ(w.level, LineLevel::warn);
  EXPECT_EQ(w.rank, 0);
  EXPECT_EQ(w.message, "Producer process has been terminated");
}

TEST(ParsePrefix, ClassicGlog) {
  auto p = parse_prefix("E0809 14:59:30.411244 12345 ProcessGroupNCCL.cpp:629] boom");
  EXPECT_EQ(p.level, LineLevel::error);
  EXPECT_EQ(p.tid, 12345);
  EXPECT_EQ(p.source, "ProcessGroupNCCL.cpp:629");
  EXPECT_EQ(p.message, "boom");
}

TEST(ParsePrefix, TorchrunDefaultRoleIsLocalRank) {
  auto p = parse_prefix("[default3]:gpu5:1:2 [3] NCCL INFO Using network IB");
  EXPECT_EQ(p.local_rank, 3);
  EXPECT_FALSE(p.rank);
  EXPECT_TRUE(p.nccl);
  EXPECT_EQ(p.message, "Using network IB");
  auto t = parse_prefix("[rank0]:   File \"/x/pynccl.py\", line 118, in all_reduce");
  EXPECT_EQ(t.rank, 0);
  EXPECT_EQ(t.message, "  File \"/x/pynccl.py\", line 118, in all_reduce");  // indentation kept
}

TEST(ParsePrefix, RayPrefixes) {
  auto p = parse_prefix("(WorkerDict pid=835, ip=172.26.143.83) node1:835:900 [1] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/CUMEM");
  EXPECT_EQ(p.pid, 835);
  EXPECT_EQ(p.host, "node1");  // NCCL's hostname wins over Ray's ip
  EXPECT_TRUE(p.nccl);
  EXPECT_EQ(p.message, "Channel 00/0 : 0[0] -> 1[1] via P2P/CUMEM");
  auto v = parse_prefix("(VllmWorker rank=3 pid=1090) ERROR 06-05 06:18:13 [multiproc_executor.py:470]   File \"/usr/x.py\", line 1");
  EXPECT_EQ(v.rank, 3);
  EXPECT_EQ(v.pid, 1090);
  EXPECT_EQ(v.level, LineLevel::error);
  EXPECT_EQ(v.source, "multiproc_executor.py:470");
  EXPECT_EQ(v.time_text, "06-05 06:18:13");
  EXPECT_NEAR(*v.clock, 6 * 3600 + 18 * 60 + 13, 1e-9);
  EXPECT_EQ(v.message, "  File \"/usr/x.py\", line 1");
  auto ip = parse_prefix("(WorkerDict pid=835, ip=172.26.143.83) hello");
  EXPECT_EQ(ip.host, "172.26.143.83");
  EXPECT_EQ(ip.message, "hello");
  auto notray = parse_prefix("(most recent call last):");
  EXPECT_EQ(notray.message, "(most recent call last):");
}

TEST(ParsePrefix, SlurmLabelAndMpirun) {
  auto s = parse_prefix("3: gpu7:1:2 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>");
  EXPECT_EQ(s.rank, 3);
  EXPECT_TRUE(s.nccl);
  // srun started one torchrun per node: the label is the node index, the inner prefix the rank.
  auto nested = parse_prefix("2: [rank17]:[E ProcessGroupNCCL.cpp:1182] [Rank 17] boom");
  EXPECT_EQ(nested.rank, 17);
  auto padded = parse_prefix(" 12: hello");
  EXPECT_EQ(padded.rank, 12);
  EXPECT_EQ(padded.message, "hello");
  auto m = parse_prefix("[1,3]<stdout>:gpu7:1:2 [0] NCCL INFO Using network IB");
  EXPECT_EQ(m.rank, 3);
  EXPECT_TRUE(m.nccl);
  auto e = parse_prefix("[1,0]<stderr>:#  Rank  0 Group  0 Pid 574691");
  EXPECT_EQ(e.rank, 0);
  EXPECT_EQ(e.message, "#  Rank  0 Group  0 Pid 574691");
  auto bt = parse_prefix(" 0 0x0000000000043090 killpg()  ???:0");
  EXPECT_FALSE(bt.rank);
  EXPECT_EQ(bt.message, " 0 0x0000000000043090 killpg()  ???:0");
}

TEST(ParsePrefix, Determined) {
  auto p = parse_prefix("[2024-02-27T21:35:28.705869Z] fa88a9df [rank=1] || [E ProcessGroupNCCL.cpp:828] [Rank 1] Watchdog caught collective operation timeout");
  EXPECT_EQ(p.rank, 1);
  ASSERT_TRUE(p.epoch);
  EXPECT_NEAR(*p.epoch, 1709069728.705869, 1e-5);
  EXPECT_EQ(p.level, LineLevel::error);
  EXPECT_EQ(p.message, "Watchdog caught collective operation timeout");
}

TEST(ParsePrefix, KernelLines) {
  auto d = parse_prefix("[12345.678901] NVRM: Xid (PCI:0000:3b:00): 79, pid=1234, GPU has fallen off the bus.");
  EXPECT_EQ(d.time_text, "12345.678901");
  EXPECT_FALSE(d.epoch);
  EXPECT_EQ(d.message, "NVRM: Xid (PCI:0000:3b:00): 79, pid=1234, GPU has fallen off the bus.");
  auto rel = parse_prefix("[  +0.000316] pcieport 0000:00:03.0: AER: Corrected error received");
  EXPECT_EQ(rel.time_text, "+0.000316");
  EXPECT_EQ(rel.message, "pcieport 0000:00:03.0: AER: Corrected error received");
  auto j = parse_prefix("Mar 03 10:00:00 gpu-node-5 kernel: NVRM: Xid (PCI:0000:3b:00): 48, An uncorrectable double bit error");
  EXPECT_EQ(j.host, "gpu-node-5");
  EXPECT_NEAR(*j.clock, 36000, 1e-9);
  EXPECT_EQ(j.message, "NVRM: Xid (PCI:0000:3b:00): 48, An uncorrectable double bit error");
  auto t = parse_prefix("[Mon Mar  3 10:00:00 2025] NVRM: Xid (PCI:0000:3b:00): 79");
  ASSERT_TRUE(t.epoch);
  EXPECT_DOUBLE_EQ(*t.epoch, 1740996000.0);
  EXPECT_EQ(t.message, "NVRM: Xid (PCI:0000:3b:00): 79");
  auto s = parse_prefix("Mar  3 10:00:00 node1 systemd[1]: Started foo.");
  EXPECT_EQ(s.pid, 1);
  EXPECT_EQ(s.message, "Started foo.");
}

TEST(ParsePrefix, IsoTimestampsAndZones) {
  auto p = parse_prefix("2024-05-01 12:00:00,500 - trainer - INFO - step 3");
  EXPECT_NEAR(*p.epoch, 1714564800.5, 1e-6);
  EXPECT_EQ(p.message, "step 3");  // Python logging's "- name - LEVEL - " (paste_prefix layers)
  EXPECT_EQ(p.level, LineLevel::info);
  auto z = parse_prefix("[2024-05-01T14:00:00+02:00] x");
  EXPECT_NEAR(*z.epoch, 1714564800.0, 1e-6);
  auto sl = parse_prefix("[2026-02-27 14:33:03] WARNING server_args.py:2326: KV cache is forced as chunk cache");
  EXPECT_EQ(sl.level, LineLevel::warn);
  EXPECT_EQ(sl.source, "server_args.py:2326");
  EXPECT_EQ(sl.message, "KV cache is forced as chunk cache");
  auto sg = parse_prefix("[2024-12-26 08:51:55 TP3] Scheduler hit an exception");
  EXPECT_TRUE(sg.epoch);
  EXPECT_EQ(sg.message, "Scheduler hit an exception");
}

TEST(ParsePrefix, TorchElasticAgent) {
  auto p = parse_prefix("[2024-05-01 12:00:00,123] torch.distributed.elastic.multiprocessing.api: [WARNING] Sending process 1234 closing signal SIGTERM");
  EXPECT_EQ(p.level, LineLevel::warn);
  EXPECT_NEAR(*p.epoch, 1714564800.123, 1e-6);
  EXPECT_EQ(p.message, "Sending process 1234 closing signal SIGTERM");
  auto g = parse_prefix("W0501 12:00:00.123000 140 torch/distributed/run.py:793] Setting OMP_NUM_THREADS");
  EXPECT_EQ(g.level, LineLevel::warn);
  EXPECT_EQ(g.source, "torch/distributed/run.py:793");
  EXPECT_EQ(g.tid, 140);
  EXPECT_EQ(g.message, "Setting OMP_NUM_THREADS");
  auto n = parse_prefix("note: [INFO]x");
  EXPECT_EQ(n.message, "note: [INFO]x");
}

TEST(ParsePrefix, PlainTextIsUntouched) {
  for (std::string_view s : {"Traceback (most recent call last):", "RuntimeError: CUDA error: uncorrectable ECC error encountered",
                             "", "   ", "[", "[rank", "[1,", "(", "host:12:", "host:12:34 [0] not nccl", "E", "INFO 06-05",
                             "torch.distributed.DistBackendError: NCCL error in: ../ProcessGroupNCCL.cpp:1691, invalid usage"}) {
    auto p = parse_prefix(s);
    EXPECT_EQ(p.message, s) << s;
    EXPECT_FALSE(p.nccl) << s;
  }
}
