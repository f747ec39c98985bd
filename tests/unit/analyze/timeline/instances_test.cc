// Matching operations across ranks (analyze/timeline/instances.cc) on the real 4-rank gloo job with
// point-to-point ops (tests/data/timeline/gloo-p2p-4rank, tests/timeline/gloo_p2p_job.py): per step
// one all_reduce of all four ranks, and a ring shift r -> r+1 twice (isend/irecv, then send/recv).
// A send/recv instance must join the sender with its receiver and no one else; before the pair
// matching, the k-th send of every rank was one "instance" of four ranks.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "analyze/timeline/parts.h"
#include "analyze/timeline/read_inputs.h"
#include "support/test_paths.h"

namespace ncdx::analyze::timeline {
namespace {

TraceSet gloo_p2p() {
  std::vector<std::string> paths;
  for (const auto& e : std::filesystem::directory_iterator(std::string(NCDX_TEST_DATA) + "/timeline/gloo-p2p-4rank"))
    paths.push_back(e.path().string());
  std::sort(paths.begin(), paths.end());
  TraceSet set;
  auto st = read_timeline_inputs(paths, 1, set);
  EXPECT_TRUE(st.is_ok()) << st.message();
  return set;
}

TEST(MatchInstances, PointToPointJoinsTheSenderWithItsReceiverOnly) {
  TraceSet set = gloo_p2p();
  ASSERT_EQ(set.ranks.size(), 4u);
  auto send = set.strings.find("send");
  ASSERT_TRUE(send);
  auto inst = detail::match_instances(set.ranks, send);
  std::map<std::string, int> per_kind;
  int p2p = 0;
  for (const auto& in : inst) {
    std::vector<int> who;
    for (std::size_t i = 0; i < in.op.size(); ++i)
      if (in.op[i] >= 0) who.push_back(static_cast<int>(i));
    bool has_peer = false;
    for (int i : who) has_peer |= set.ranks[i].comm[in.op[i]].peer >= 0;
    EXPECT_EQ(in.p2p, has_peer) << "only a send/recv pair is left out of the clock offsets";
    if (!has_peer) {
      EXPECT_EQ(who.size(), 4u) << "an all_reduce of all four ranks";
      continue;
    }
    ++p2p;
    ASSERT_EQ(who.size(), 2u);
    // One end sends to the other, which receives from it.
    const CommOp& a = set.ranks[who[0]].comm[in.op[who[0]]];
    const CommOp& b = set.ranks[who[1]].comm[in.op[who[1]]];
    EXPECT_EQ(a.peer, set.ranks[who[1]].rank);
    EXPECT_EQ(b.peer, set.ranks[who[0]].rank);
    EXPECT_NE(a.coll == *send, b.coll == *send) << "a send with a recv";
    // The ring: the sender is the receiver's predecessor.
    const int src = a.coll == *send ? set.ranks[who[0]].rank : set.ranks[who[1]].rank;
    const int dst = a.coll == *send ? set.ranks[who[1]].rank : set.ranks[who[0]].rank;
    EXPECT_EQ(dst, (src + 1) % 4);
    ++per_kind[std::to_string(src) + "->" + std::to_string(dst)];
  }
  // 3 steps x 2 transfers on each of the 4 links of the ring.
  EXPECT_EQ(p2p, 24);
  EXPECT_EQ(per_kind.size(), 4u);
  for (const auto& [link, n] : per_kind) EXPECT_EQ(n, 6) << link;
}

}  // namespace
}  // namespace ncdx::analyze::timeline
