// NCCL socket-interface selection, PCIe distance, and the check registry's contract.
#include <gtest/gtest.h>

#include <set>

#include "analyze/doctor/check.h"
#include "analyze/doctor/facts.h"

using namespace ncdx;
using probe::NetIface;

namespace {
NetIface iface(std::string name, std::string state = "up") {
  NetIface i;
  i.name = std::move(name);
  i.operstate = std::move(state);
  i.mtu = 1500;
  return i;
}
}  // namespace

TEST(DoctorFacts, SocketIfnameDefaultPrefersIb) {
  std::vector<NetIface> net = {iface("lo", "unknown"), iface("docker0"), iface("eth0"), iface("ib0")};
  std::string rule;
  EXPECT_EQ(analyze::nccl_socket_interfaces(net, {}, &rule), std::vector<std::string>{"ib0"});
  net.pop_back();
  EXPECT_EQ(analyze::nccl_socket_interfaces(net, {}), std::vector<std::string>{"eth0"});
  net = {iface("lo", "unknown"), iface("docker0")};
  EXPECT_EQ(analyze::nccl_socket_interfaces(net, {}), std::vector<std::string>{"docker0"});
  net = {iface("lo", "unknown"), iface("eth0", "down")};
  EXPECT_EQ(analyze::nccl_socket_interfaces(net, {}), std::vector<std::string>{"lo"});
}

TEST(DoctorFacts, SocketIfnameSyntax) {
  std::vector<NetIface> net = {iface("eth0"), iface("eth10"), iface("ens1"), iface("docker0")};
  auto pick = [&](std::string v) { return analyze::nccl_socket_interfaces(net, {{"NCCL_SOCKET_IFNAME", v}}); };
  EXPECT_EQ(pick("eth"), (std::vector<std::string>{"eth0", "eth10"}));       // prefix
  EXPECT_EQ(pick("=eth0"), std::vector<std::string>{"eth0"});                // exact
  EXPECT_EQ(pick("^eth,docker"), std::vector<std::string>{"ens1"});          // exclude
  EXPECT_EQ(pick("^=eth0"), (std::vector<std::string>{"eth10", "ens1", "docker0"}));
  EXPECT_TRUE(pick("bond").empty());                                         // matches nothing
  // Values of length <= 1 are ignored, so the default (^docker,lo,virbr) applies.
  EXPECT_EQ(pick("e"), (std::vector<std::string>{"eth0", "eth10", "ens1"}));
}

TEST(DoctorFacts, PciDistance) {
  probe::PciDevice g, n;
  g.root = n.root = "pci0000:00";
  g.numa_node = n.numa_node = 0;
  g.path = {"0000:00:01.0", "0000:01:00.0", "0000:02:00.0", "0000:03:00.0"};
  n.path = {"0000:00:01.0", "0000:01:00.0", "0000:02:01.0", "0000:04:00.0"};
  EXPECT_EQ(analyze::pci_distance(g, n), "PIX");
  n.path = {"0000:00:01.0", "0000:05:00.0", "0000:06:00.0", "0000:07:00.0", "0000:08:00.0"};
  EXPECT_EQ(analyze::pci_distance(g, n), "PXB");
  n.path = {"0000:00:02.0", "0000:09:00.0"};
  EXPECT_EQ(analyze::pci_distance(g, n), "PHB");
  n.root = "pci0000:80";
  EXPECT_EQ(analyze::pci_distance(g, n), "NODE");
  n.numa_node = 1;
  EXPECT_EQ(analyze::pci_distance(g, n), "SYS");
  n.path.clear();
  EXPECT_FALSE(analyze::pci_distance(g, n));
}

TEST(DoctorFacts, RegistryContract) {
  const auto& checks = analyze::doctor_checks();
  EXPECT_GE(checks.size(), 40u);
  std::set<std::string> ids;
  for (const auto& c : checks) {
    EXPECT_TRUE(ids.insert(c.id).second) << "duplicate id " << c.id;
    EXPECT_NE(std::string(c.title), "");
    EXPECT_NE(std::string(c.fact), "") << c.id << " cites no fact";
    EXPECT_TRUE(std::string(c.cost) == "quick" || std::string(c.cost) == "full") << c.id;
    EXPECT_TRUE(c.run);
  }
}

TEST(DoctorFacts, EmptyInventoryRunsEveryCheckWithoutCrash) {
  probe::Inventory inv;
  auto out = analyze::run_doctor_checks(inv);
  EXPECT_EQ(out.size(), analyze::doctor_checks().size());
  EXPECT_EQ(core::exit_code_of(out, [](const analyze::CheckOutcome& o) { return o.result.status; }), 0);  // nothing known: everything SKIP or PASS
  for (const auto& o : out)
    if (o.result.status == core::Outcome::skip) { EXPECT_FALSE(o.result.evidence.empty()) << o.def->id << " skips without a reason"; }
}

TEST(DoctorFacts, XidTable) {
  EXPECT_TRUE(analyze::xid_info(79).fatal);
  EXPECT_FALSE(analyze::xid_info(13).fatal);
  EXPECT_FALSE(analyze::xid_info(424242).meaning.empty());
}
