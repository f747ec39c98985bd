// The c10d store rendezvous read from its lines (analyze/triage/store_rendezvous.h). The texts are
// PyTorch 2.15's, as the fault bench's jobs printed them (tests/data/triage/faults/d-*, e-*).
#include "analyze/triage/store_rendezvous.h"

#include <gtest/gtest.h>

namespace ncdx::analyze {
namespace {

constexpr const char* kConnectTimeout =
    "[E1205 00:31:14.626227587 socket.cpp:1028] [c10d] The client socket has timed out after 6000ms while trying "
    "to connect to (127.0.0.1, 51235).";
constexpr const char* kRetry =
    "[W1205 00:31:14.626589114 TCPStore.cpp:340] [c10d] TCP client failed to connect/validate to host "
    "127.0.0.1:51235 - retrying (try=0, timeout=6000ms, delay=2318ms): The client socket has timed out";
constexpr const char* kWaitInput =
    "[W1205 00:31:16.072062436 socket.cpp:469] [c10d] waitForInput: poll for socket SocketImpl(fd=4, "
    "addr=[::ffff:127.0.0.1]:39696, remote=[::ffff:127.0.0.1]:51234) returned 0, likely a timeout";
constexpr const char* kKeyWait = "torch.distributed.DistStoreError: wait timeout after 6000ms, keys: /default_pg/0//cpu//0/3";

TEST(StoreRendezvous, ReadsEndpointsAndKeys) {
  StoreFacts s;
  read_store_line(kConnectTimeout, 3, 0, 1, s);
  read_store_line(kRetry, 3, 0, 2, s);
  read_store_line(kWaitInput, 1, 0, 3, s);
  read_store_line(kKeyWait, 1, 0, 4, s);
  read_store_line("[W socket.cpp:663] [c10d] The client socket has failed to connect to [LocalHost]:29500 "
                  "(errno: 99 - Cannot assign requested address).",
                  std::nullopt, 0, 5, s);
  ASSERT_EQ(s.failed.size(), 2u);
  EXPECT_EQ(s.failed.at("127.0.0.1:51235").ranks, std::set<int>{3});
  EXPECT_EQ(s.failed.at("localhost:29500").unranked, 1);
  EXPECT_EQ(s.reached.at("127.0.0.1:51234").ranks, std::set<int>{1});
  ASSERT_EQ(s.awaited.size(), 1u);
  EXPECT_EQ(s.awaited.begin()->first, 3);
}

TEST(StoreRendezvous, IgnoresLinesThatAreNotTheStore) {
  StoreFacts s;
  // NCCL's unique-id key has no device part; gloo's pair errors name peers, not the store.
  read_store_line("DistStoreError: wait timeout after 600000ms, keys: /default_pg//cuda//0", 0, 0, 1, s);
  read_store_line("DistStoreError: wait timeout after 600000ms, keys: 0", 0, 0, 1, s);
  read_store_line("RuntimeError: [pair.cc:561] Connection closed by peer [127.0.0.1]:30604", 0, 0, 2, s);
  read_store_line("trying to connect to (127.0.0.1, 51235) said the user's own logger", 0, 0, 3, s);
  read_store_line("[c10d] The client socket has timed out after 6000ms while trying to connect to (a b, 12).", 0, 0,
                  4, s);
  EXPECT_TRUE(s.failed.empty());
  EXPECT_TRUE(s.reached.empty());
  EXPECT_TRUE(s.awaited.empty());
}

TEST(StoreRendezvous, MismatchNamesTheRankThatTriedElsewhere) {
  StoreFacts s;
  read_store_line(kConnectTimeout, 3, 0, 1, s);
  read_store_line(kWaitInput, 1, 0, 2, s);
  read_store_line(kWaitInput, 2, 0, 3, s);
  auto m = store_endpoint_mismatch(s, std::nullopt);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->bad, "127.0.0.1:51235");
  EXPECT_EQ(m->good, "127.0.0.1:51234");
  EXPECT_EQ(m->culprits, std::set<int>{3});
}

TEST(StoreRendezvous, NoMismatchWhenEveryoneTriedTheSameStore) {
  StoreFacts s;
  // A transient failure to the store the others reached, and a name next to an address on the same
  // port (localhost may be 127.0.0.1): neither is another store.
  read_store_line(kWaitInput, 1, 0, 1, s);
  read_store_line("[c10d] The client socket has timed out after 6000ms while trying to connect to (127.0.0.1, 51234).",
                  2, 0, 2, s);
  read_store_line("[c10d] The client socket has failed to connect to [localhost]:51234 (errno: 111).", 3, 0, 3, s);
  EXPECT_FALSE(store_endpoint_mismatch(s, std::nullopt));
}

TEST(StoreRendezvous, UnprefixedMismatchTakesTheAwaitedRank) {
  StoreFacts s;
  read_store_line(kConnectTimeout, std::nullopt, 0, 1, s);
  read_store_line(kWaitInput, std::nullopt, 0, 2, s);
  read_store_line(kKeyWait, std::nullopt, 0, 3, s);
  auto a = awaited_rank(s, /*agent_store=*/true);
  ASSERT_TRUE(a);
  auto m = store_endpoint_mismatch(s, a);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->culprits, std::set<int>{3});
  EXPECT_TRUE(store_endpoint_mismatch(s, std::nullopt)->culprits.empty());
}

TEST(StoreRendezvous, KeyZeroIsTheBlockedServerWithoutTheAgentStore) {
  StoreFacts s;
  read_store_line("torch.distributed.DistStoreError: wait timeout after 6000ms, keys: /default_pg/0//cpu//0/0", 1,
                  0, 1, s);
  EXPECT_FALSE(awaited_rank(s, /*agent_store=*/false));
  EXPECT_EQ(awaited_rank(s, /*agent_store=*/true), 0);
  // A rank that waited for its own key is no evidence.
  StoreFacts self;
  read_store_line(kKeyWait, 3, 0, 1, self);
  EXPECT_FALSE(awaited_rank(self, true));
}

TEST(StoreRendezvous, ServerAloneNeedsTwoAgreeingClients) {
  StoreFacts s;
  read_store_line("torch.distributed.DistStoreError: Timed out after 7 seconds waiting for clients. 1/4 clients joined.",
                  0, 0, 1, s);
  read_store_line(kConnectTimeout, 1, 0, 2, s);
  EXPECT_FALSE(store_server_alone(s, false));  // one client alone could be the odd one
  read_store_line(kConnectTimeout, 2, 0, 3, s);
  auto a = store_server_alone(s, false);
  ASSERT_TRUE(a);
  EXPECT_EQ(a->server, 0);
  EXPECT_EQ(a->expected, 4);
  EXPECT_EQ(a->clients, (std::set<int>{1, 2}));
  // World 2 ("1/2 clients joined"): the one client and the server each could be wrong.
  StoreFacts two;
  read_store_line("DistStoreError: Timed out after 7 seconds waiting for clients. 1/2 clients joined.", std::nullopt,
                  0, 1, two);
  read_store_line(kConnectTimeout, std::nullopt, 0, 2, two);
  EXPECT_FALSE(store_server_alone(two, false));
}

}  // namespace
}  // namespace ncdx::analyze
