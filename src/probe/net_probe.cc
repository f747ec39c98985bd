#include "probe/net_probe.h"

#include <algorithm>

#include "core/strings.h"

namespace ncdx::probe {
namespace {

std::optional<std::string> bdf_of(const SysReader& r, const std::string& dev_link) {
  if (!r.link(dev_link)) return std::nullopt;
  std::string real = r.resolve(dev_link);
  auto name = real.substr(real.rfind('/') + 1);
  if (name.find(':') == std::string::npos) return std::nullopt;  // not a PCI function
  return name;
}

bool zero_gid(std::string_view g) {
  for (char c : g)
    if (c != '0' && c != ':') return false;
  return true;
}

}  // namespace

std::optional<double> parse_ib_rate(std::string_view s) {
  auto tok = core::split(core::trim(s), ' ');
  if (tok.empty()) return std::nullopt;
  return core::parse_double(tok[0]);
}

std::vector<NetIface> probe_net(const SysReader& r) {
  std::vector<NetIface> out;
  for (const auto& n : r.list("/sys/class/net")) {
    std::string b = "/sys/class/net/" + n;
    if (!r.exists(b + "/mtu")) continue;  // bonding_masters and similar files
    NetIface i;
    i.name = n;
    i.operstate = r.text(b + "/operstate");
    if (auto s = r.integer(b + "/speed"); s && *s > 0) i.speed_mbps = static_cast<int>(*s);
    if (auto m = r.integer(b + "/mtu")) i.mtu = static_cast<int>(*m);
    if (auto t = r.integer(b + "/type")) i.type = static_cast<int>(*t);
    i.pci_bdf = bdf_of(r, b + "/device");
    out.push_back(std::move(i));
  }
  return out;
}

std::vector<IbDevice> probe_ib(const SysReader& r) {
  std::vector<IbDevice> out;
  for (const auto& name : r.list("/sys/class/infiniband")) {
    std::string b = "/sys/class/infiniband/" + name;
    IbDevice d;
    d.name = name;
    d.fw_ver = r.text(b + "/fw_ver");
    d.hca_type = r.text(b + "/hca_type");
    d.pci_bdf = bdf_of(r, b + "/device");
    for (const auto& pn : r.list(b + "/ports")) {
      auto num = core::parse_int(pn);
      if (!num) continue;
      std::string pb = b + "/ports/" + pn;
      IbPort p;
      p.port = static_cast<int>(*num);
      for (auto [field, dst] : {std::pair{"state", &p.state}, std::pair{"phys_state", &p.phys_state},
                                std::pair{"rate", &p.rate}, std::pair{"link_layer", &p.link_layer}}) {
        *dst = r.text(pb + "/" + field);
        if (!*dst && r.unreadable(pb + "/" + field)) p.unreadable.push_back(field);
      }
      if (p.rate) p.rate_gbps = parse_ib_rate(*p.rate);
      // GID tables hold up to 256 entries; the ones NCCL picks from are near the start.
      for (const auto& gi : r.list(pb + "/gids")) {
        auto idx = core::parse_int(gi);
        if (!idx || *idx >= 32) continue;
        auto g = r.text(pb + "/gids/" + gi);
        if (!g || zero_gid(*g)) continue;
        IbGid gid;
        gid.index = static_cast<int>(*idx);
        gid.gid = *g;
        gid.type = r.text(pb + "/gid_attrs/types/" + gi);  // EINVAL for empty entries: normal
        gid.ndev = r.text(pb + "/gid_attrs/ndevs/" + gi);
        p.gids.push_back(std::move(gid));
      }
      std::sort(p.gids.begin(), p.gids.end(), [](const IbGid& a, const IbGid& b) { return a.index < b.index; });
      for (const auto& c : r.list(pb + "/counters")) {
        if (auto v = r.integer(pb + "/counters/" + c); v && *v >= 0) p.counters[c] = static_cast<std::uint64_t>(*v);
        else if (r.unreadable(pb + "/counters/" + c)) p.unreadable.push_back("counters/" + c);
      }
      d.ports.push_back(std::move(p));
    }
    std::sort(d.ports.begin(), d.ports.end(), [](const IbPort& a, const IbPort& b) { return a.port < b.port; });
    out.push_back(std::move(d));
  }
  return out;
}

}  // namespace ncdx::probe
