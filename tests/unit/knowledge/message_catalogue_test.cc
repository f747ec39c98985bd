// The message catalogue matcher: formats with printf/fmt holes and C escapes, the too-generic
// formats left out, the most specific row chosen, citations, and hostile rows.
#include "knowledge/message_catalogue.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

namespace {
using ncdx::knowledge::MessageCatalogue;

const char* kHeader = "project\tkind\tclass\tfirst_version\tlast_version\tfile\tline\tformat\n";

MessageCatalogue cat(const std::string& rows, const std::string& corrections = "") {
  return MessageCatalogue::parse(kHeader + rows, corrections);
}

TEST(MessageCatalogue, PrintfHolesMatchBoundedText) {
  auto c = cat("nccl\tWARN\tnetwork-ib\t2.19.4\t2.30.7\tsrc/transport/net_ib.cc\t612\tNET/IB : Got completion from peer %s with status=%d opcode=%d len=%u vendor err %u\n");
  auto m = c.match("gpu-1:12:34 [0] transport/net_ib.cc:612 NCCL WARN NET/IB : Got completion from peer 10.0.0.2<5321> with status=12 opcode=0 len=0 vendor err 129");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->row->klass, "network-ib");
  EXPECT_EQ(MessageCatalogue::citation(*m->row), "NVIDIA/nccl src/transport/net_ib.cc:612, NCCL 2.19–2.30");
  EXPECT_FALSE(c.match("NET/IB : Got completion from peer x with status"));  // pieces missing
}

TEST(MessageCatalogue, FmtHolesEscapesAndNewlines) {
  auto c = cat(
      "pytorch\tC10D_ERROR\ttimeout-hang\t2.4.1\t2.15.0\ttorch/csrc/distributed/c10d/ProcessGroupNCCL.cpp\t600\t"
      "[c10d] {} Watchdog caught collective operation timeout: {}\\nmore text\n"
      "vllm\traise ValueError\tconfig-invalid\t0.6.6\t0.33.0\tvllm/distributed/utils.py\t10\t"
      "Invalid \\\"world_size\\\" value {world_size}: must divide {n}\n");
  auto m = c.match("[rank1]:[E1202 04:17:08] [c10d] [PG 0 Rank 1] Watchdog caught collective operation timeout: WorkNCCL(...)");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->row->klass, "timeout-hang");
  auto v = c.match("ValueError: Invalid \"world_size\" value 3: must divide 8");
  ASSERT_TRUE(v);
  EXPECT_EQ(v->row->project, "vllm");
}

TEST(MessageCatalogue, GenericFormatsAreNotIndexed) {
  auto c = cat("nccl\tWARN\tother\t2.3.7\t2.30.7\tsrc/misc.cc\t1\t%s\n"
               "pytorch\traise RuntimeError\tother\t2.2.2\t2.15.0\tx.py\t1\t{} {}\n"
               "nccl\tWARN\tother\t2.3.7\t2.30.7\tsrc/misc.cc\t2\tfailed: %s\n");
  EXPECT_EQ(c.indexed(), 0u);
  EXPECT_FALSE(c.match("RuntimeError: failed: anything at all"));
}

TEST(MessageCatalogue, MostSpecificThenNewestRowWins) {
  auto c = cat("pytorch\tthrow\tother\t2.2.2\t2.15.0\ta.cpp\t1\tNCCL error in: {}, {}\n"
               "pytorch\tthrow\tnetwork-socket\t2.2.2\t2.15.0\ta.cpp\t2\tNCCL error in: {}, remote process exited or there was a network error\n");
  auto m = c.match("RuntimeError: NCCL error in: ../ProcessGroupNCCL.cpp:1, remote process exited or there was a network error");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->row->klass, "network-socket");
}

// A generic wrapper with more literal text than the message it wraps: the wrapped one, found in a
// hole of the wrapper, names the failure. Found inside the wrapper's own words, it does not.
TEST(MessageCatalogue, TheWrappedMessageBeatsItsGenericWrapper) {
  auto c = cat("pytorch\tthrow\tother\t2.2.2\t2.15.0\tProcessGroupNCCL.cpp\t1\tNCCL communicator was aborted on rank {}, original reason for failure was: {}\n"
               "nccl\tWARN\tnetwork-socket\t2.19.3\t2.30.7\tsrc/misc/socket.cc\t2\tConnect to %s failed : %s\n"
               "pytorch\tthrow\tshm-ipc\t2.2.2\t2.15.0\tx.cpp\t3\tcommunicator was aborted\n");
  auto m = c.match("RuntimeError: NCCL communicator was aborted on rank 3, original reason for failure was: "
                   "Connect to 10.0.0.2<43121> failed : Connection refused");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->row->klass, "network-socket");
  auto own = c.match("RuntimeError: NCCL communicator was aborted on rank 3, original reason for failure was: timeout");
  ASSERT_TRUE(own);
  EXPECT_EQ(own->row->klass, "other");  // "communicator was aborted" is the wrapper's own text
}

TEST(MessageCatalogue, CorrectionsApplyWithTheirReason) {
  auto c = cat("nccl\tWARN\tnetwork-ib\t2.3.7\t2.30.7\tsrc/a.cc\t1\tSomething went wrong with %s today\n",
               "# comment\nnccl\tSomething went wrong with %s today\tshm-ipc\tthe source is shm.cc\n");
  ASSERT_EQ(c.rows().size(), 1u);
  EXPECT_EQ(c.rows()[0].klass, "shm-ipc");
  EXPECT_EQ(c.rows()[0].correction, "the source is shm.cc");
}

TEST(MessageCatalogue, HostileRowsAndLinesDoNotCrash) {
  auto c = cat("x\ty\n\t\t\t\t\t\t\t\nnccl\tWARN\tother\t\t\tf\t\t%%%%%\\\nnccl\tWARN\tother\t\t\tf\t\t{{{{ %-*.*lld {\n"
               "nccl\tWARN\tother\t\t\tf\t\tAAAAAAAAAAAA%sAAAAAAAAAAAA%sAAAAAAAAAAAA%sAAAAAAAAAAAA\n");
  std::string many(20000, 'A');
  EXPECT_TRUE(c.match(many));  // every window starts the anchor: backtracking is bounded
  many.back() = 'B';
  many[12] = 'B';
  (void)c.match(many);
  EXPECT_FALSE(c.match(""));
  EXPECT_FALSE(c.match(std::string(7, 'A')));
}

TEST(MessageCatalogue, EmbeddedCatalogueLoads) {
  const auto& c = ncdx::knowledge::message_catalogue();
  EXPECT_GT(c.rows().size(), 3700u);
  EXPECT_GT(c.indexed(), 3000u);
  std::printf("catalogue rows %zu, indexed %zu\n", c.rows().size(), c.indexed());
}

}  // namespace
