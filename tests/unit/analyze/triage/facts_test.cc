#include "analyze/triage/facts.h"

#include <gtest/gtest.h>

#include <string>

using namespace ncdx::analyze;

TEST(TriageFacts, Watchdog) {
  ProcessFacts p;
  TopologyFacts t;
  EXPECT_NE(collect_facts("[Rank 38] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1204, OpType=_ALLGATHER_BASE, "
                            "NumelIn=4194304, NumelOut=268435456, Timeout(ms)=1800000) ran for 1800084 milliseconds before timing out.",
                            p, t), FactKind::none);
  EXPECT_EQ(p.timeout_seq, 1204);
  EXPECT_EQ(p.timeout_op, "_ALLGATHER_BASE");
  EXPECT_EQ(p.timeout_ms, 1800000);
  EXPECT_EQ(p.ran_for_ms, 1800084);
  EXPECT_EQ(p.rank, 38);
}

TEST(TriageFacts, WatchdogWithoutSeqNum) {
  ProcessFacts p;
  TopologyFacts t;
  collect_facts("[Rank 6] Watchdog caught collective operation timeout: WorkNCCL(OpType=ALLREDUCE, Timeout(ms)=1800000) ran for 1802246 milliseconds before timing out.", p, t);
  EXPECT_FALSE(p.timeout_seq);
  EXPECT_EQ(p.timeout_op, "ALLREDUCE");
  EXPECT_EQ(p.ran_for_ms, 1802246);
}

TEST(TriageFacts, InitPicksLargestCommunicator) {
  ProcessFacts p;
  TopologyFacts t;
  collect_facts("ncclCommInitRank comm 0x1 rank 3 nranks 16 cudaDev 3 nvmlDev 3 busId 5d000 commId 0x1 - Init COMPLETE", p, t);
  collect_facts("ncclCommSplit comm 0x2 rank 1 nranks 2 cudaDev 3 nvmlDev 3 busId 5d000 parent 0x1 splitCount 1 color 1 key 3 - Init COMPLETE", p, t);
  EXPECT_EQ(p.rank, 3);
  EXPECT_EQ(p.nranks, 16);
  EXPECT_TRUE(p.init_complete);
  EXPECT_TRUE(p.cuda_devs.count(3));
}

TEST(TriageFacts, OldInitFormatAndVersion) {
  ProcessFacts p;
  TopologyFacts t;
  collect_facts("comm 0x7f rank 0 nranks 8 cudaDev 0 busId 1b000 - Init COMPLETE", p, t);
  collect_facts("NCCL version 2.14.3+cuda11.7", p, t);
  EXPECT_EQ(p.rank, 0);
  EXPECT_EQ(p.nccl_version, "2.14.3");
  EXPECT_EQ(p.nccl_cuda, "cuda11.7");
}

TEST(TriageFacts, CollOpCountIsHex) {
  ProcessFacts p;
  TopologyFacts t;
  collect_facts("AllReduce: opCount 3f sendbuff 0x1 recvbuff 0x1 count 8 datatype 7 op 0 root 0 comm 0x1 [nranks=8] stream 0x1", p, t);
  collect_facts("AllReduce: opCount a sendbuff 0x1 recvbuff 0x1 count 8 datatype 7 op 0 root 0 comm 0x1 [nranks=8] stream 0x1", p, t);
  EXPECT_EQ(p.last_opcount, 0x3f);
  EXPECT_EQ(collect_facts("AllReduce: opCount 3 sendbuff 0x1 recvbuff 0x1 count 8 datatype 7 op 0 root 0 comm 0x1 [nranks=8] stream 0x1", p, t),
            FactKind::fixed_format);
  // Text that merely contains ": opCount " is not a COLL line and still goes to the signatures.
  EXPECT_NE(collect_facts("RuntimeError: opCount mismatch on rank 3", p, t), FactKind::fixed_format);
  EXPECT_EQ(p.last_coll, "AllReduce");
}

// The count is read by hand up to 15 hex digits and by std::from_chars beyond: both paths, the
// boundary, an out-of-range count (no value, still a COLL line) and " sendbuff " not right after it.
TEST(TriageFacts, CollOpCountLongAndOddForms) {
  ProcessFacts p;
  TopologyFacts t;
  const std::string tail = " sendbuff 0x1 recvbuff 0x1 count 8 datatype 7 op 0 root 0 comm 0x1 [nranks=8] stream 0x1";
  collect_facts("AllReduce: opCount fffffffffffffff" + tail, p, t);  // 15 digits
  EXPECT_EQ(p.last_opcount, 0xfffffffffffffffLL);
  collect_facts("AllGather: opCount 7ffffffffffffffe" + tail, p, t);  // 16 digits: from_chars
  EXPECT_EQ(p.last_opcount, 0x7ffffffffffffffeLL);
  EXPECT_EQ(p.last_coll, "AllGather");
  ProcessFacts q;
  EXPECT_EQ(collect_facts("AllReduce: opCount 1ffffffffffffffff" + tail, q, t), FactKind::fixed_format);
  EXPECT_FALSE(q.last_opcount);  // 17 digits overflow a long long: no count
  EXPECT_FALSE(q.last_coll);
  ProcessFacts r;
  EXPECT_EQ(collect_facts("Broadcast: opCount 0x1A (root 3) sendbuff 0x1 recvbuff 0x1", r, t), FactKind::fixed_format);
  EXPECT_EQ(r.last_opcount, 0x1a);
  EXPECT_EQ(r.last_coll, "Broadcast");
  EXPECT_EQ(collect_facts("Broadcast: opCount 1b recvbuff 0x1", r, t), FactKind::fact);  // no " sendbuff "
  EXPECT_EQ(r.last_opcount, 0x1b);
}

TEST(TriageFacts, NetworkAndTransports) {
  ProcessFacts p;
  TopologyFacts t;
  collect_facts("NET/IB : Using [0]mlx5_0:1/RoCE [1]mlx5_1:1/RoCE ; OOB enp88s0:192.168.17.144<0>", p, t);
  collect_facts("Using network IB", p, t);
  collect_facts("Channel 01/0 : 8[0] -> 0[0] [receive] via NET/IB/0/GDRDMA", p, t);
  collect_facts("Channel 00/0 : 0[0] -> 1[1] via P2P/CUMEM/read", p, t);
  EXPECT_TRUE(t.ib_devices.count("mlx5_0:1/RoCE"));
  EXPECT_TRUE(t.networks.count("IB"));
  EXPECT_EQ(t.transports["NET/IB+GDRDMA"], 1);
  EXPECT_EQ(t.transports["P2P/CUMEM/read"], 1);
  EXPECT_EQ(t.max_channels, 2);
  EXPECT_EQ(t.peer_transports.at({8, 0}), "NET/IB+GDRDMA");
  EXPECT_EQ(t.peer_transports.at({0, 1}), "P2P/CUMEM/read");
}

// Formats of NCCL's INFO lines (src/init.cc, src/transport/) and the real NCCL 2.6 / 2.29 logs in shared/data.
TEST(TriageFacts, RingOrderTreesAndOldTransportLines) {
  ProcessFacts p;
  TopologyFacts t;
  EXPECT_EQ(collect_facts("Channel 00/08 :    0   3   2   1   5   6   7   4", p, t), FactKind::fixed_format);
  collect_facts("Channel 01/08 : 0 1 2 3", p, t);
  EXPECT_EQ(collect_facts("Trees [0] 5/-1/-1->1->2|2->1->5/-1/-1 [1] 2/-1/-1->1->-1|-1->1->2/-1/-1", p, t),
            FactKind::fixed_format);
  collect_facts("Trees [0] -1/-1/-1->7->6 [1] -1/-1/-1->7->6", p, t);
  EXPECT_EQ(collect_facts("Ring 00 : 3[3] -> 8[0] [send] via NET/AWS Libfabric/0", p, t), FactKind::fixed_format);
  EXPECT_EQ(collect_facts("Ring 00 : 7 -> 0 -> 1", p, t), FactKind::none);  // neighbours, not an order
  EXPECT_EQ(t.rings.at(0), "0 3 2 1 5 6 7 4");
  EXPECT_EQ(t.rings.at(1), "0 1 2 3");
  EXPECT_EQ(t.trees.at(1), "5/-1/-1->1->2");
  EXPECT_EQ(t.trees.at(7), "-1/-1/-1->7->6");
  EXPECT_EQ(t.peer_transports.at({3, 8}), "NET/AWS");
  collect_facts("Channel 02/0 : 6[0] -", p, t);  // a line cut short (truncated archive) is no ring
  EXPECT_NE(collect_facts("Channel 03 : setup failed", p, t), FactKind::fixed_format);  // still matched
  EXPECT_EQ(t.rings.size(), 2u);
}

TEST(TriageFacts, PgStatus) {
  ProcessFacts p;
  TopologyFacts t;
  collect_facts("[PG ID 0 PG GUID 0(default_pg) Rank 2] Timeout at NCCL work: 58, last enqueued NCCL work: 58, last completed NCCL work: 57.", p, t);
  EXPECT_EQ(p.last_enqueued, 58);
  EXPECT_EQ(p.last_completed, 57);
}
