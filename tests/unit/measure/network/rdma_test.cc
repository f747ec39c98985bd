// The parts of the RDMA matrix that need no RDMA device: which ports a node measures (on the
// fixture machines' sysfs trees, through the real probe), the endpoint record two nodes swap, and
// the QP attributes of each transition. The verbs calls themselves need hardware (docs/CLUSTER.md).
#include <gtest/gtest.h>

#include <cstring>

#include "measure/network/net_rdma.h"
#include "measure/network/rdma_rails.h"
#include "measure/network/rdma_wire.h"
#include "probe/inventory.h"
#include "support/fixture_machine.h"

using namespace ncdx;
using measure::HcaSpec;

namespace {
std::vector<std::string> names(const measure::RailChoice& c) {
  std::vector<std::string> out;
  for (const auto& r : c.rails) out.push_back(r.dev + ":" + std::to_string(r.port));
  return out;
}
}  // namespace

TEST(RdmaRails, HcaSpecFollowsNcclSyntax) {
  std::string err;
  auto s = measure::parse_hca_spec("mlx5_0:1,mlx5_1", &err);
  ASSERT_TRUE(s) << err;
  EXPECT_FALSE(s->exclude);
  EXPECT_FALSE(s->exact);
  ASSERT_EQ(s->items.size(), 2u);
  EXPECT_EQ(s->items[0].port, 1);
  EXPECT_EQ(s->items[1].port, -1);
  // Prefix match unless '=': "mlx5_1" also selects mlx5_10.
  EXPECT_TRUE(measure::hca_selected(*s, "mlx5_10", 2));
  EXPECT_FALSE(measure::hca_selected(*s, "mlx5_0", 2));  // port 1 only
  EXPECT_FALSE(measure::hca_selected(*s, "mlx5_2", 1));
  auto x = measure::parse_hca_spec("^=mlx5_1", &err);
  ASSERT_TRUE(x) << err;
  EXPECT_TRUE(x->exclude && x->exact);
  EXPECT_FALSE(measure::hca_selected(*x, "mlx5_1", 1));
  EXPECT_TRUE(measure::hca_selected(*x, "mlx5_10", 1));
  auto rail = measure::parse_hca_spec("=mlx5_0:1:0:1", &err);  // 2.30's rail/plane fields
  ASSERT_TRUE(rail) << err;
  EXPECT_EQ(rail->items[0].port, 1);
  EXPECT_TRUE(measure::parse_hca_spec("", &err)->items.empty());
  EXPECT_FALSE(measure::parse_hca_spec("mlx5_0:one", &err));
  EXPECT_NE(err.find("port number"), std::string::npos) << err;
  EXPECT_FALSE(measure::parse_hca_spec("^", &err));
  EXPECT_FALSE(measure::parse_hca_spec(":1", &err));
  // An empty port is any port (NCCL's parseStringList); '^' over no item excludes everything
  // (matchIfList is true for an empty list, then negated).
  auto any = measure::parse_hca_spec("mlx5_0:", &err);
  ASSERT_TRUE(any) << err;
  EXPECT_EQ(any->items.at(0).port, -1);
  EXPECT_TRUE(measure::hca_selected(*any, "mlx5_0", 2));
  auto none = measure::parse_hca_spec("^,", &err);
  ASSERT_TRUE(none) << err;
  EXPECT_FALSE(measure::hca_selected(*none, "mlx5_0", 1));
}

TEST(RdmaRails, DgxH100FixtureGivesEightIbRailsInNameOrder) {
  auto inv = ncdx::testing::probe_fixture("dgx-h100");
  auto c = measure::choose_rails(inv.ib, {});
  ASSERT_EQ(c.rails.size(), 8u) << c.why_none;
  EXPECT_EQ(names(c).front(), "mlx5_0:1");
  EXPECT_EQ(names(c).back(), "mlx5_7:1");
  for (const auto& r : c.rails) {
    EXPECT_FALSE(r.ethernet);
    EXPECT_EQ(r.gid_index, 0);
    ASSERT_TRUE(r.rate_gbps);
    EXPECT_DOUBLE_EQ(*r.rate_gbps, 400);
  }
  auto two = measure::choose_rails(inv.ib, {{"NCCL_IB_HCA", "=mlx5_1,mlx5_3"}});
  EXPECT_EQ(names(two), (std::vector<std::string>{"mlx5_1:1", "mlx5_3:1"}));
  auto none = measure::choose_rails(inv.ib, {{"NCCL_IB_HCA", "^mlx5"}});
  EXPECT_TRUE(none.rails.empty());
  EXPECT_NE(none.why_none.find("mlx5_0:1 4: ACTIVE (excluded by NCCL_IB_HCA)"), std::string::npos) << none.why_none;
  auto bad = measure::choose_rails(inv.ib, {{"NCCL_IB_HCA", "mlx5_0:x"}});
  EXPECT_TRUE(bad.rails.empty());
  EXPECT_NE(bad.why_none.find("NCCL_IB_HCA"), std::string::npos) << bad.why_none;
}

TEST(RdmaRails, PortOfUnknownLinkLayerIsSkippedAndNamed) {
  probe::IbDevice d;
  d.name = "hfi1_0";
  probe::IbPort p;
  p.port = 1;
  p.state = "4: ACTIVE";
  p.link_layer = "Unknown";
  d.ports.push_back(p);
  auto c = measure::choose_rails({d}, {});
  EXPECT_TRUE(c.rails.empty());
  EXPECT_NE(c.why_none.find("hfi1_0:1 4: ACTIVE (link layer Unknown)"), std::string::npos) << c.why_none;
  d.ports[0].link_layer.reset();  // unreadable: InfiniBand, as verbs' UNSPECIFIED
  auto ib = measure::choose_rails({d}, {});
  ASSERT_EQ(ib.rails.size(), 1u) << ib.why_none;
  EXPECT_FALSE(ib.rails[0].ethernet);
}

TEST(RdmaRails, DownPortIsSkippedAndNamed) {
  auto inv = ncdx::testing::probe_fixture("broken");
  auto c = measure::choose_rails(inv.ib, {});
  for (const auto& r : c.rails) EXPECT_NE(r.dev, "mlx5_1");
  auto only = measure::choose_rails(inv.ib, {{"NCCL_IB_HCA", "=mlx5_1"}});
  EXPECT_TRUE(only.rails.empty());
  EXPECT_NE(only.why_none.find("mlx5_1:1 1: DOWN"), std::string::npos) << only.why_none;
}

TEST(RdmaRails, RoceUsesNcclsAutomaticGid) {
  // a100-pcie-acs: GID 0 RoCE v1 link-local, 1 RoCE v2 link-local, 2 RoCE v2 IPv4-mapped (10.0.0.7).
  auto inv = ncdx::testing::probe_fixture("a100-pcie-acs");
  auto c = measure::choose_rails(inv.ib, {});
  ASSERT_EQ(c.rails.size(), 1u) << c.why_none;
  EXPECT_TRUE(c.rails[0].ethernet);
  EXPECT_EQ(c.rails[0].gid_index, 2);
  EXPECT_EQ(c.rails[0].gid, "0000:0000:0000:0000:0000:ffff:0a00:0007");
  auto gid = [&](const std::map<std::string, std::string>& env) {
    auto r = measure::choose_rails(inv.ib, env);
    EXPECT_EQ(r.rails.size(), 1u) << r.why_none;
    return r.rails.empty() ? -2 : r.rails[0].gid_index;
  };
  // AF_INET6: the only IPv6 GIDs are link-local, never valid to NCCL (validGid): entry 0 stays.
  EXPECT_EQ(gid({{"NCCL_IB_ADDR_FAMILY", "AF_INET6"}}), 0);
  EXPECT_EQ(gid({{"NCCL_IB_ROCE_VERSION_NUM", "1"}, {"NCCL_IB_ADDR_FAMILY", "AF_INET6"}}), 0);
  // RoCE v1 wanted but the only IPv4 GID is v2: the family wins over the version, the port stays.
  EXPECT_EQ(gid({{"NCCL_IB_ROCE_VERSION_NUM", "1"}}), 2);
  EXPECT_EQ(gid({{"NCCL_IB_ADDR_RANGE", "10.0.0.0/8"}}), 2);
  EXPECT_EQ(gid({{"NCCL_IB_ADDR_RANGE", "192.168.0.0/16"}}), 0);  // none in range: entry 0
  EXPECT_EQ(gid({{"NCCL_IB_GID_INDEX", "3"}}), 3);
  EXPECT_EQ(gid({{"NCCL_IB_GID_INDEX", "-1"}}), 2);
  EXPECT_TRUE(measure::choose_rails(inv.ib, {{"NCCL_IB_GID_INDEX", "three"}}).rails.empty());
  EXPECT_TRUE(measure::choose_rails(inv.ib, {{"NCCL_IB_GID_INDEX", "256"}}).rails.empty());
  auto bad = measure::choose_rails(inv.ib, {{"NCCL_IB_ADDR_RANGE", "10.0.0.0"}});
  EXPECT_TRUE(bad.rails.empty());
  EXPECT_NE(bad.why_none.find("NCCL_IB_ADDR_RANGE: expected an IPv4 address/bits"), std::string::npos) << bad.why_none;
  EXPECT_TRUE(measure::choose_rails(inv.ib, {{"NCCL_IB_ADDR_RANGE", "10.0.0.0/33"}}).rails.empty());
}

TEST(RdmaRails, RoceGidChoiceFollowsNcclOnAFullTable) {
  // The table an mlx5 RoCE port lists with an IPv4 address, a second one and a global IPv6
  // address: each address once as RoCE v1 and once as v2 (the kernel's roce_gid_mgmt.c adds both).
  std::vector<probe::IbGid> t = {
      {0, "fe80:0000:0000:0000:0e42:a1ff:fe2b:3c4d", "IB/RoCE v1", {}},
      {1, "fe80:0000:0000:0000:0e42:a1ff:fe2b:3c4d", "RoCE v2", {}},
      {2, "0000:0000:0000:0000:0000:ffff:0a00:0007", "IB/RoCE v1", {}},
      {3, "0000:0000:0000:0000:0000:ffff:0a00:0007", "RoCE v2", {}},
      {4, "0000:0000:0000:0000:0000:ffff:c0a8:0105", "IB/RoCE v1", {}},
      {5, "0000:0000:0000:0000:0000:ffff:c0a8:0105", "RoCE v2", {}},
      {6, "2001:0db8:0000:0000:0000:0000:0000:0007", "IB/RoCE v1", {}},
      {7, "2001:0db8:0000:0000:0000:0000:0000:0007", "RoCE v2", {}},
  };
  EXPECT_EQ(measure::nccl_roce_gid_index(t, true, 2, std::nullopt), 3);   // the first IPv4 v2
  EXPECT_EQ(measure::nccl_roce_gid_index(t, true, 1, std::nullopt), 2);
  EXPECT_EQ(measure::nccl_roce_gid_index(t, false, 2, std::nullopt), 7);  // global IPv6, not fe80::
  EXPECT_EQ(measure::nccl_roce_gid_index(t, false, 1, std::nullopt), 6);
  measure::GidRange r192;
  r192.addr[0] = 192, r192.addr[1] = 168, r192.bits = 16;
  EXPECT_EQ(measure::nccl_roce_gid_index(t, true, 2, r192), 5);
  measure::GidRange r6;
  r6.v4 = false, r6.addr[0] = 0x20, r6.addr[1] = 0x01, r6.addr[2] = 0x0d, r6.addr[3] = 0xb9, r6.bits = 32;
  EXPECT_EQ(measure::nccl_roce_gid_index(t, false, 2, r6), 0);  // 2001:db9::/32 holds none
  // Entry 0 empty (not in the probe's list): an IPv4 GID still wins it.
  EXPECT_EQ(measure::nccl_roce_gid_index({t[3]}, true, 2, std::nullopt), 3);
  EXPECT_EQ(measure::nccl_roce_gid_index({}, true, 2, std::nullopt), 0);
}

TEST(RdmaRails, IbUsesGid0OrTheRoutableFlidIndex) {
  auto inv = ncdx::testing::probe_fixture("dgx-h100");
  // NCCL_IB_GID_INDEX is RoCE's: an IB port keeps GID 0 (this fixture has no FLID).
  auto c = measure::choose_rails(inv.ib, {{"NCCL_IB_GID_INDEX", "3"}});
  ASSERT_FALSE(c.rails.empty()) << c.why_none;
  for (const auto& r : c.rails) EXPECT_EQ(r.gid_index, 0);
  std::vector<probe::IbGid> t = {{0, "fe80:0000:0000:0000:a088:c203:0001:0001", {}, {}},
                                 {1, "fec0:0000:00a1:0001:a088:c203:0001:0001", {}, {}}};  // FLID 0x00a1
  EXPECT_EQ(measure::nccl_ib_gid_index(t, 1), 1);
  EXPECT_EQ(measure::nccl_ib_gid_index({t[0]}, 1), 0);
  EXPECT_EQ(measure::nccl_ib_gid_index(t, 2), 0);
}

TEST(RdmaWire, EndpointsRoundTripAndMalformedRecordsAreRejected) {
  measure::RdmaEndpoint a;
  a.lid = 0x1234;
  a.mtu = 5;
  a.qpn = 0xabcdef;
  a.psn = 0x123456;
  a.rkey = 0xdeadbeef;
  a.addr = 0x7f0011223344ull;
  a.len = 1 << 20;
  for (int i = 0; i < 16; ++i) a.gid[i] = static_cast<std::uint8_t>(i * 7);
  measure::RdmaEndpoint b = a;
  b.ethernet = true;
  b.mtu = 3;
  auto wire = measure::encode_endpoints({a, b});
  EXPECT_EQ(wire.size(), measure::encoded_size(2));
  std::string err;
  auto back = measure::decode_endpoints(wire, &err);
  ASSERT_TRUE(back) << err;
  ASSERT_EQ(back->size(), 2u);
  EXPECT_EQ((*back)[0].lid, 0x1234);
  EXPECT_EQ((*back)[0].qpn, 0xabcdefu);
  EXPECT_EQ((*back)[0].rkey, 0xdeadbeefu);
  EXPECT_EQ((*back)[0].addr, 0x7f0011223344ull);
  EXPECT_EQ(std::memcmp((*back)[0].gid, a.gid, 16), 0);
  EXPECT_TRUE((*back)[1].ethernet);
  EXPECT_EQ((*back)[1].mtu, 3);
  EXPECT_FALSE(measure::decode_endpoints(wire.substr(0, wire.size() - 1), &err));
  EXPECT_NE(err.find("expected 108 bytes for 2 rails, got 107"), std::string::npos) << err;
  EXPECT_FALSE(measure::decode_endpoints("NCDXNET1" + wire.substr(8), &err));
  auto many = wire;
  many[8] = 65;  // 65 rails announced
  EXPECT_FALSE(measure::decode_endpoints(many, &err));
  EXPECT_NE(err.find("at most 64"), std::string::npos) << err;
  auto mtu0 = wire;
  mtu0[12 + 3] = 0;
  EXPECT_FALSE(measure::decode_endpoints(mtu0, &err));
  EXPECT_NE(err.find("rail 0 at byte 14"), std::string::npos) << err;
  EXPECT_TRUE(measure::decode_endpoints(measure::encode_endpoints({}), &err)->empty());
}

TEST(RdmaWire, QpParamsReadNcclKnobs) {
  std::string err;
  auto d = measure::qp_params({}, &err);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->timeout, 20);  // NCCL >= 2.23's default
  EXPECT_EQ(d->retry_cnt, 7);
  auto set = measure::qp_params({{"NCCL_IB_TIMEOUT", "22"}, {"NCCL_IB_SL", "3"}, {"NCCL_IB_TC", "-1"}}, &err);
  ASSERT_TRUE(set) << err;
  EXPECT_EQ(set->timeout, 22);
  EXPECT_EQ(set->sl, 3);
  EXPECT_EQ(set->tc, 0);  // -1: auto, no config traffic class
  EXPECT_FALSE(measure::qp_params({{"NCCL_IB_TIMEOUT", "40"}}, &err));
  EXPECT_NE(err.find("NCCL_IB_TIMEOUT: expected an integer 1-31"), std::string::npos) << err;
  EXPECT_FALSE(measure::qp_params({{"NCCL_IB_RETRY_CNT", "x"}}, &err));
}

TEST(RdmaWire, TransitionsAddressIbByLidAndRoceByGid) {
  namespace ibv = vendor::ibv;
  measure::QpParams p;
  p.tc = 106;
  p.sl = 2;
  auto init = measure::qp_to_init(1, p);
  EXPECT_EQ(init.attr.qp_state, ibv::kQpsInit);
  EXPECT_EQ(init.attr.port_num, 1);
  EXPECT_EQ(init.attr.qp_access_flags, static_cast<unsigned>(ibv::kAccessLocalWrite | ibv::kAccessRemoteWrite));
  EXPECT_EQ(init.mask, ibv::kQpState | ibv::kQpPkeyIndex | ibv::kQpPort | ibv::kQpAccessFlags);

  measure::RdmaEndpoint me;  // this end: MTU 2048, GID fe80::a088:c203:1:1 (subnet prefix fe80::)
  me.mtu = 4;
  me.gid[0] = 0xfe, me.gid[1] = 0x80;
  measure::RdmaEndpoint ib;
  ib.lid = 17;
  ib.mtu = 5;
  ib.qpn = 99;
  ib.psn = 1234;
  ib.gid[0] = 0xfe, ib.gid[1] = 0x80, ib.gid[15] = 2;
  auto rtr = measure::qp_to_rtr(1, 0, false, me, ib, p);
  EXPECT_EQ(rtr.attr.qp_state, ibv::kQpsRtr);
  EXPECT_EQ(rtr.attr.path_mtu, 4);  // the smaller end
  EXPECT_EQ(rtr.attr.dest_qp_num, 99u);
  EXPECT_EQ(rtr.attr.rq_psn, 1234u);
  EXPECT_EQ(rtr.attr.ah_attr.dlid, 17);
  EXPECT_EQ(rtr.attr.ah_attr.is_global, 0);
  EXPECT_EQ(rtr.attr.ah_attr.sl, 2);
  EXPECT_TRUE(rtr.mask & ibv::kQpAv);
  EXPECT_TRUE(rtr.mask & ibv::kQpDestQpn);

  measure::RdmaEndpoint roce = ib;
  roce.ethernet = true;
  roce.lid = 0;
  for (int i = 0; i < 16; ++i) roce.gid[i] = static_cast<std::uint8_t>(0xa0 + i);
  me.mtu = 5;
  auto rr = measure::qp_to_rtr(1, 3, false, me, roce, p);
  EXPECT_EQ(rr.attr.ah_attr.is_global, 1);
  EXPECT_EQ(rr.attr.ah_attr.grh.sgid_index, 3);
  EXPECT_EQ(rr.attr.ah_attr.grh.hop_limit, 255);
  EXPECT_EQ(rr.attr.ah_attr.grh.traffic_class, 106);
  EXPECT_EQ(std::memcmp(rr.attr.ah_attr.grh.dgid.raw, roce.gid, 16), 0);
  EXPECT_EQ(rr.attr.path_mtu, 5);

  // IB with a GRH: the port requires one (same subnet, by LID), or the peer's subnet (the low 16
  // bits of its prefix) differs, then to its FLID (bytes 4-5) when it has one.
  auto req = measure::qp_to_rtr(1, 0, true, me, ib, p);
  EXPECT_EQ(req.attr.ah_attr.is_global, 1);
  EXPECT_EQ(req.attr.ah_attr.dlid, 17);
  EXPECT_EQ(req.attr.ah_attr.grh.hop_limit, 255);
  EXPECT_EQ(req.attr.ah_attr.grh.traffic_class, 0);  // NCCL sets no traffic class on IB
  EXPECT_EQ(std::memcmp(req.attr.ah_attr.grh.dgid.raw, ib.gid, 16), 0);
  measure::RdmaEndpoint far = ib;
  far.gid[7] = 0x02;                  // subnet 0x0002
  auto routed = measure::qp_to_rtr(1, 1, false, me, far, p);
  EXPECT_EQ(routed.attr.ah_attr.is_global, 1);
  EXPECT_EQ(routed.attr.ah_attr.dlid, 17);  // no FLID: the LID
  EXPECT_EQ(routed.attr.ah_attr.grh.sgid_index, 1);
  far.gid[4] = 0x00, far.gid[5] = 0xa1;  // FLID 0x00a1
  EXPECT_EQ(measure::qp_to_rtr(1, 1, false, me, far, p).attr.ah_attr.dlid, 0xa1);

  auto rts = measure::qp_to_rts(4321, p);
  EXPECT_EQ(rts.attr.qp_state, ibv::kQpsRts);
  EXPECT_EQ(rts.attr.sq_psn, 4321u);
  EXPECT_EQ(rts.attr.timeout, 20);
  EXPECT_EQ(rts.attr.retry_cnt, 7);
  EXPECT_EQ(rts.attr.rnr_retry, 7);
  EXPECT_EQ(rts.mask, ibv::kQpState | ibv::kQpTimeout | ibv::kQpRetryCnt | ibv::kQpRnrRetry | ibv::kQpSqPsn |
                          ibv::kQpMaxQpRdAtomic);
}

TEST(RdmaCell, WorstRailDecidesTheCell) {
  measure::NetCell c;
  c.rails = {{"mlx5_0:1", "mlx5_0:1", 2.1, 390.0}, {"mlx5_1:1", "mlx5_1:1", 2.4, 180.0}, {"mlx5_2:1", "mlx5_2:1", 2.0, 392.0}};
  measure::summarise_rails(c);
  ASSERT_TRUE(c.gbps && c.lat_median_us);
  EXPECT_DOUBLE_EQ(*c.gbps, 180.0);
  EXPECT_DOUBLE_EQ(*c.lat_median_us, 2.4);
}
