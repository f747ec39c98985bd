// The TCP matrix protocol over loopback: ranks are threads, the collectives an in-process
// implementation of cluster::Comm (MPI itself is exercised by the mpirun/namespace tests); the
// sockets, deadlines, ping-pong and streams are the real code.
#include "measure/network/net_matrix.h"

#include <gtest/gtest.h>

#include <barrier>
#include <functional>
#include <mutex>
#include <thread>

#include "cluster/mpi/comm.h"
#include "vendor/ibverbs.h"

using namespace ncdx;

namespace {

struct Shared {
  explicit Shared(int n) : n(n), sync(n), slots(n) {}
  int n;
  std::barrier<> sync;
  std::vector<std::string> slots;
  std::string root_value;
};

class ThreadComm final : public cluster::Comm {
 public:
  ThreadComm(Shared& s, int rank) : s_(s), rank_(rank) {}
  int rank() const override { return rank_; }
  int size() const override { return s_.n; }
  std::string launcher() const override { return "threads"; }
  void barrier() override { s_.sync.arrive_and_wait(); }
  std::vector<std::string> allgather(const std::string& mine) override {
    s_.slots[rank_] = mine;
    barrier();
    auto out = s_.slots;
    barrier();
    return out;
  }
  std::vector<std::string> gather(const std::string& mine) override {
    auto all = allgather(mine);
    return rank_ == 0 ? all : std::vector<std::string>{};
  }
  std::string bcast(const std::string& v) override {
    if (rank_ == 0) s_.root_value = v;
    barrier();
    auto out = s_.root_value;
    barrier();
    return out;
  }
  std::vector<std::optional<double>> clock_offsets_us() override {
    return rank_ == 0 ? std::vector<std::optional<double>>(s_.n, 0.0) : std::vector<std::optional<double>>{};
  }

 private:
  Shared& s_;
  int rank_;
};

measure::NetMatrix run(int n, const std::vector<std::string>& addrs, const measure::NetOptions& opt,
                       const std::function<void(measure::NetParticipant&)>& tweak = {}) {
  Shared s(n);
  measure::NetMatrix root;
  std::vector<std::thread> ts;
  for (int r = 0; r < n; ++r)
    ts.emplace_back([&, r] {
      ThreadComm c(s, r);
      measure::NetParticipant me{r, n, "t" + std::to_string(r), "lo", addrs[r], {}, {}};
      if (tweak) tweak(me);
      auto m = measure::run_net_matrix(c, me, opt);
      if (r == 0) root = std::move(m);
    });
  for (auto& t : ts) t.join();
  return root;
}

}  // namespace

TEST(NetMatrix, LoopbackFourNodesEveryCellMeasured) {
  measure::NetOptions opt;
  opt.ping_iters = 20;
  opt.bw_bytes = 256 << 10;
  opt.pair_budget_s = 5;
  auto m = run(4, {"127.0.0.1", "127.0.0.1", "127.0.0.1", "127.0.0.1"}, opt);
  ASSERT_EQ(m.hosts.size(), 4u);
  EXPECT_EQ(m.rounds, 3);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      const auto& c = m.cell[i][j];
      if (i == j) {
        EXPECT_EQ(c.status, "self");
        continue;
      }
      EXPECT_EQ(c.status, "ok") << i << "->" << j << ": " << c.detail;
      ASSERT_TRUE(c.gbps) << i << "->" << j;
      EXPECT_GT(*c.gbps, 0);
      EXPECT_TRUE(c.segs_out);
      if (i < j) {  // the client of the pair times the ping-pong
        EXPECT_EQ(c.samples, 20);
        ASSERT_TRUE(c.lat_median_us);
        EXPECT_GT(*c.lat_median_us, 0);
        EXPECT_GE(*c.lat_p99_us, *c.lat_median_us);
      }
    }
}

TEST(NetMatrix, NodeWithoutAddressIsUnreachableRestCompletes) {
  measure::NetOptions opt;
  opt.ping_iters = 5;
  opt.bw_bytes = 64 << 10;
  opt.pair_budget_s = 5;
  auto m = run(3, {"127.0.0.1", "", "127.0.0.1"}, opt);
  EXPECT_EQ(m.cell[0][1].status, "unreachable");
  EXPECT_NE(m.cell[0][1].detail.find("no IPv4 address"), std::string::npos) << m.cell[0][1].detail;
  EXPECT_EQ(m.cell[1][0].status, "error");
  EXPECT_EQ(m.cell[0][2].status, "ok") << m.cell[0][2].detail;
  EXPECT_EQ(m.cell[2][0].status, "ok") << m.cell[2][0].detail;
}

TEST(NetMatrix, NodeThatCannotListenIsNamedByItsPeer) {
  // The peer publishes its listen error; the client does not wait for it.
  measure::NetOptions opt;
  opt.ping_iters = 5;
  opt.bw_bytes = 64 << 10;
  opt.pair_budget_s = 0.6;
  auto m = run(2, {"127.0.0.1", "not-an-ip"}, opt);
  EXPECT_EQ(m.cell[0][1].status, "unreachable");
  EXPECT_EQ(m.cell[1][0].status, "error");
}

// The RDMA transport with the real libibverbs and no RDMA device (this machine, CI): every node
// tells its peer why it has no queue pairs, so each cell is an error that names the node and
// the reason, and no pair waits for its deadline. On a machine with devices this test proves
// nothing about them: it skips there.
TEST(NetMatrix, RdmaWithoutDevicesSaysWhyInEveryCellWithoutTimeouts) {
  const auto& v = vendor::ibv::verbs();
  measure::NetOptions opt;
  opt.ping_iters = 5;
  opt.bw_bytes = 64 << 10;
  opt.pair_budget_s = 5;
  opt.transport = "rdma";
  auto m = run(3, {"127.0.0.1", "127.0.0.1", "127.0.0.1"}, opt, [&](measure::NetParticipant& me) {
    if (me.node == 1) me.rails.why_none = "no RDMA device in /sys/class/infiniband";
    else me.rails.rails.push_back({"mlx5_0", 1, false, 0, "", 400.0});
  });
  if (v.ok) {
    int n = 0;
    auto* list = v.api.get_device_list(&n);
    if (list) v.api.free_device_list(list);
    if (n > 0) GTEST_SKIP() << "this machine has RDMA devices";
  }
  EXPECT_EQ(m.transport, "rdma");
  EXPECT_NE(m.transport_note.find("--transport rdma: t0: "), std::string::npos) << m.transport_note;
  EXPECT_LT(m.wall_s, 4.0);  // three rounds, none waited for its 5 s budget
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      if (i == j) continue;
      const auto& c = m.cell[i][j];
      EXPECT_EQ(c.status, "error") << i << "->" << j << ": " << c.detail;
      EXPECT_EQ(c.transport, "rdma");
      // Each side names its own reason ("this node") first; node 1's reason is the sysfs one.
      EXPECT_EQ(c.detail.rfind("this node: rdma: ", 0), 0u) << c.detail;
      if (i == 1) EXPECT_NE(c.detail.find("/sys/class/infiniband"), std::string::npos) << c.detail;
      // Without kernel verbs libibverbs lists nothing (NULL, ENOSYS); with them, no mlx5_0.
      else if (v.ok) EXPECT_TRUE(c.detail.find("no RDMA device: ibv_get_device_list") != std::string::npos ||
                                 c.detail.find("mlx5_0:1: ibv_open_device failed or no such device (0 devices") != std::string::npos)
          << c.detail;
      else EXPECT_NE(c.detail.find("libibverbs"), std::string::npos) << c.detail;
    }
}

TEST(NetMatrix, RdmaAutoFallsBackToTcpAndSaysWhichNode) {
  measure::NetOptions opt;
  opt.ping_iters = 5;
  opt.bw_bytes = 64 << 10;
  opt.pair_budget_s = 5;
  opt.transport = "auto";
  auto m = run(2, {"127.0.0.1", "127.0.0.1"}, opt, [](measure::NetParticipant& me) {
    if (me.node == 1) me.rails.why_none = "no usable port: mlx5_0:1 1: DOWN";
  });
  EXPECT_EQ(m.transport, "tcp");
  EXPECT_NE(m.transport_note.find("--transport auto chose tcp: t"), std::string::npos) << m.transport_note;
  EXPECT_EQ(m.cell[0][1].status, "ok") << m.cell[0][1].detail;
  EXPECT_EQ(m.cell[0][1].transport, "tcp");
  EXPECT_EQ(m.cell[1][0].status, "ok") << m.cell[1][0].detail;
}
