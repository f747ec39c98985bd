// Doctor checks on the network: the socket interface NCCL would pick, MTUs, IB/RoCE port state,
// rate, error counters, RoCE v2 GIDs, GPUDirect RDMA module, GPU<->NIC PCIe distance.
#include <set>

#include "analyze/doctor/checks.h"
#include "analyze/doctor/facts.h"
#include "knowledge/doctor_fixes.h"
#include "core/semver.h"
#include "core/strings.h"

namespace ncdx::analyze {
using probe::Inventory;

namespace {
#define NEED_IB(inv) \
  if (!has_ib(inv)) return skip("no InfiniBand/RoCE device in /sys/class/infiniband")
std::string port_name(const probe::IbDevice& d, const probe::IbPort& p) { return d.name + ":" + std::to_string(p.port); }
}  // namespace

CheckResult check_socket_ifname(const Inventory& inv) {
  if (inv.net.empty()) return skip("/sys/class/net not readable");
  std::string rule;
  auto ifs = nccl_socket_interfaces(inv.net, inv.env, &rule);
  if (ifs.empty())
    return fail("no up interface matches (" + rule + ")", knowledge::doctor_fix("net.socket_ifname.none-up"));
  std::string ev = "NCCL would use " + join_limited(ifs, 4) + " (" + rule + ")";
  bool only_lo = true, docker = false;
  for (const auto& i : ifs) {
    only_lo &= i.starts_with("lo");
    docker |= i.starts_with("docker");
  }
  if (only_lo) return warn(ev + ": loopback only, other nodes cannot connect", knowledge::doctor_fix("net.socket_ifname.loopback-only"));
  if (docker) return warn(ev + ": a docker bridge is not reachable from other nodes", knowledge::doctor_fix("net.socket_ifname.docker-bridge"));
  return pass(ev);
}

CheckResult check_mtu(const Inventory& inv) {
  auto ifs = nccl_socket_interfaces(inv.net, inv.env);
  std::map<int, std::vector<std::string>> by_mtu;
  for (const auto& i : inv.net)
    if (std::find(ifs.begin(), ifs.end(), i.name) != ifs.end() && !i.name.starts_with("lo") && i.mtu) by_mtu[*i.mtu].push_back(i.name);
  if (by_mtu.empty()) return skip("no non-loopback interface NCCL would use");
  if (by_mtu.size() > 1) {
    std::vector<std::string> parts;
    for (auto& [m, names] : by_mtu) parts.push_back("MTU " + std::to_string(m) + ": " + core::join(names, ","));
    return warn("interfaces NCCL may use differ in MTU: " + core::join(parts, " | "),
                knowledge::doctor_fix("net.mtu.warn"));
  }
  return pass("MTU " + std::to_string(by_mtu.begin()->first) + " on " + core::join(by_mtu.begin()->second, ","));
}

CheckResult check_ib_port_state(const Inventory& inv) {
  NEED_IB(inv);
  std::vector<std::string> bad, unreadable;
  int ports = 0;
  for (const auto& d : inv.ib)
    for (const auto& p : d.ports) {
      ++ports;
      if (!p.state) {
        unreadable.push_back(port_name(d, p));
        continue;
      }
      bool active = p.state->find("ACTIVE") != std::string::npos && p.state->find("DEFER") == std::string::npos;
      bool up = !p.phys_state || p.phys_state->find("LinkUp") != std::string::npos;
      if (!active || !up) bad.push_back(port_name(d, p) + " " + *p.state + " / " + p.phys_state.value_or("?"));
    }
  if (!bad.empty())
    return fail(std::to_string(bad.size()) + " of " + std::to_string(ports) + " port(s) not ACTIVE/LinkUp: " + join_limited(bad, 4),
                knowledge::doctor_fix("ib.port_state.fail"));
  if (ports == 0) return skip("RDMA devices without ports");
  if (!unreadable.empty()) return warn("port state unreadable for " + join_limited(unreadable, 4), knowledge::doctor_fix("ib.port_state.unreadable"));
  return pass(std::to_string(ports) + " port(s) ACTIVE/LinkUp");
}

CheckResult check_ib_rate(const Inventory& inv) {
  NEED_IB(inv);
  std::map<std::string, double> best;  // by link layer
  for (const auto& d : inv.ib)
    for (const auto& p : d.ports)
      if (p.rate_gbps && p.state && p.state->find("ACTIVE") != std::string::npos)
        best[p.link_layer.value_or("?")] = std::max(best[p.link_layer.value_or("?")], *p.rate_gbps);
  if (best.empty()) return skip("no ACTIVE port with a rate");
  std::vector<std::string> slow;
  int n = 0;
  for (const auto& d : inv.ib)
    for (const auto& p : d.ports) {
      if (!p.rate_gbps || !p.state || p.state->find("ACTIVE") == std::string::npos) continue;
      ++n;
      double b = best[p.link_layer.value_or("?")];
      if (*p.rate_gbps < b) slow.push_back(port_name(d, p) + " " + p.rate.value_or("?") + " (others " + std::to_string(static_cast<long long>(b)) + " Gb/s)");
    }
  if (!slow.empty())
    return warn(std::to_string(slow.size()) + " port(s) below the fabric rate: " + join_limited(slow, 4),
                knowledge::doctor_fix("ib.port_rate.warn"));
  return pass(std::to_string(n) + " active port(s) at the same rate");
}

CheckResult check_ib_counters(const Inventory& inv) {
  NEED_IB(inv);
  static const std::map<std::string, std::uint64_t> watched = {
      {"symbol_error", 65535}, {"link_error_recovery", 255}, {"link_downed", 255}, {"port_rcv_errors", 65535},
      {"port_rcv_remote_physical_errors", 65535}, {"port_xmit_discards", 65535}, {"local_link_integrity_errors", 15},
      {"excessive_buffer_overrun_errors", 15}};
  std::vector<std::string> bad;
  int seen = 0;
  for (const auto& d : inv.ib)
    for (const auto& p : d.ports) {
      if (p.counters.empty()) continue;
      ++seen;
      std::vector<std::string> parts;
      for (const auto& [name, max] : watched)
        if (auto it = p.counters.find(name); it != p.counters.end() && it->second > 0)
          parts.push_back(name + "=" + std::to_string(it->second) + (it->second >= max ? " (saturated)" : ""));
      if (!parts.empty()) bad.push_back(port_name(d, p) + " " + core::join(parts, ","));
    }
  if (seen == 0) return skip("no port counters readable");
  if (!bad.empty())
    return warn(join_limited(bad, 4),
                knowledge::doctor_fix("ib.counters.warn"));
  return pass("no link error counters on " + std::to_string(seen) + " port(s)");
}

CheckResult check_roce_gid(const Inventory& inv) {
  NEED_IB(inv);
  std::vector<std::string> bad;
  int roce = 0;
  for (const auto& d : inv.ib)
    for (const auto& p : d.ports) {
      if (!p.link_layer || *p.link_layer != "Ethernet") continue;
      ++roce;
      bool v2 = false;
      for (const auto& g : p.gids) v2 |= g.type && g.type->find("RoCE v2") != std::string::npos;
      if (!v2) bad.push_back(port_name(d, p) + " (" + std::to_string(p.gids.size()) + " GIDs, none RoCE v2)");
    }
  if (roce == 0) return skip("no RoCE (Ethernet link layer) port");
  // NCCL picks the RoCE v2 GID itself from 2.21 (NCCL_IB_GID_INDEX=-1); an older NCCL on the node
  // needs the index set, which the lint would call wrong advice for a newer one.
  bool old_nccl = false;
  for (const auto& l : inv.nccl_libs)
    if (auto v = l.version ? core::Version::parse(core::canonical_nccl_version(*l.version)) : std::nullopt)
      old_nccl |= *v < core::V("2.21.0");
  if (!bad.empty())
    return fail("RoCE port(s) without a RoCE v2 GID: " + join_limited(bad, 4),
                knowledge::doctor_fix(old_nccl ? "ib.roce_gid.fail-old-nccl" : "ib.roce_gid.fail"));
  return pass(std::to_string(roce) + " RoCE port(s) with a RoCE v2 GID");
}

CheckResult check_peermem(const Inventory& inv) {
  NEED_IB(inv);
  if (gpu_count(inv) == 0) return skip("no GPUs");
  if (!inv.os.modules_known) return skip("/proc/modules not readable");
  for (const auto& m : inv.os.modules)
    if (m == "nvidia_peermem" || m == "nv_peer_mem") return pass(m + " loaded");
  return warn("neither nvidia_peermem nor nv_peer_mem is loaded while " + std::to_string(inv.ib.size()) + " RDMA device(s) and GPUs are present",
              knowledge::doctor_fix("ib.peermem.warn"));
}

CheckResult check_gpu_nic_affinity(const Inventory& inv) {
  NEED_IB(inv);
  if (inv.pci_gpus.empty()) return skip("no GPUs on PCI");
  std::vector<const probe::PciDevice*> nics;
  for (const auto& d : inv.ib)
    if (d.pci_bdf)
      if (auto* p = find_pci(inv, *d.pci_bdf)) nics.push_back(p);
  if (nics.empty()) return skip("RDMA devices have no PCI placement in sysfs");
  static const std::map<std::string, int> rank = {{"PIX", 1}, {"PXB", 2}, {"PHB", 3}, {"NODE", 4}, {"SYS", 5}};
  std::vector<std::string> far;
  int known = 0;
  for (const auto& g : inv.pci_gpus) {
    std::optional<std::string> best;
    for (auto* n : nics)
      if (auto d = pci_distance(g, *n); d && (!best || rank.at(*d) < rank.at(*best))) best = d;
    if (!best) continue;
    ++known;
    if (rank.at(*best) > 2) far.push_back(g.bdf + " nearest NIC " + *best);
  }
  if (known == 0) return skip("PCI paths of GPUs/NICs unknown");
  if (!far.empty())
    return warn(std::to_string(far.size()) + " GPU(s) without a NIC under a common PCIe switch: " + join_limited(far, 4),
                knowledge::doctor_fix("ib.gpu_nic_affinity.warn"));
  return pass("every GPU has a NIC at PIX/PXB distance");
}

}  // namespace ncdx::analyze
