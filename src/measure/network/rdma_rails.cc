#include "measure/network/rdma_rails.h"

#include <algorithm>
#include <charconv>

#include "core/strings.h"

namespace ncdx::measure {
namespace {

bool parse_int(std::string_view s, int* out) {
  if (s.empty()) return false;
  auto r = std::from_chars(s.data(), s.data() + s.size(), *out);
  return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

std::string env_or(const std::map<std::string, std::string>& env, const char* k) {
  auto it = env.find(k);
  return it == env.end() ? std::string() : std::string(core::trim(it->second));
}

// sysfs prints GIDs in full form, eight groups of four hex digits (kernel sysfs.c show_port_gid).
bool gid_zero(std::string_view g) { return g.find_first_not_of("0:") == std::string_view::npos; }
bool gid_v4_mapped(std::string_view g) { return g.size() == 39 && g.substr(0, 30) == "0000:0000:0000:0000:0000:ffff:"; }

}  // namespace

std::optional<HcaSpec> parse_hca_spec(std::string_view v, std::string* err) {
  HcaSpec s;
  v = core::trim(v);
  if (!v.empty() && v[0] == '^') s.exclude = true, v.remove_prefix(1);
  if (!v.empty() && v[0] == '=') s.exact = true, v.remove_prefix(1);
  if (v.empty()) {
    if (s.exclude || s.exact) {
      *err = "NCCL_IB_HCA: expected a device name after '^'/'='";
      return std::nullopt;
    }
    return s;
  }
  for (auto item : core::split(v, ',')) {
    item = core::trim(item);
    if (item.empty()) continue;  // NCCL's list parser skips empty entries too
    HcaSpec::Item it;
    auto colon = item.find(':');
    it.dev = std::string(item.substr(0, colon));
    if (it.dev.empty()) {
      *err = "NCCL_IB_HCA: expected dev[:port] in '" + std::string(item) + "'";
      return std::nullopt;
    }
    if (colon != std::string_view::npos) {
      auto rest = item.substr(colon + 1);
      auto port = rest.substr(0, rest.find(':'));  // rail/plane fields after it (2.30) are ignored
      if (!parse_int(port, &it.port) || it.port < 1 || it.port > 255) {
        *err = "NCCL_IB_HCA: expected a port number 1-255 after ':' in '" + std::string(item) + "'";
        return std::nullopt;
      }
    }
    s.items.push_back(std::move(it));
  }
  return s;
}

bool hca_selected(const HcaSpec& s, std::string_view dev, int port) {
  if (s.items.empty()) return true;
  bool match = std::any_of(s.items.begin(), s.items.end(), [&](const HcaSpec::Item& it) {
    bool name = s.exact ? dev == it.dev : dev.substr(0, it.dev.size()) == it.dev;
    return name && (it.port < 0 || it.port == port);
  });
  return match != s.exclude;
}

int auto_gid_index(const std::vector<probe::IbGid>& gids, int roce, bool ipv4) {
  const std::string want = roce == 1 ? "IB/RoCE v1" : "RoCE v2";
  for (const auto& g : gids) {
    if (!g.type || core::trim(*g.type) != want || gid_zero(g.gid)) continue;
    if (gid_v4_mapped(g.gid) == ipv4) return g.index;
  }
  return -1;
}

RailChoice choose_rails(const std::vector<probe::IbDevice>& devs, const std::map<std::string, std::string>& env) {
  RailChoice out;
  std::string err;
  auto spec = parse_hca_spec(env_or(env, "NCCL_IB_HCA"), &err);
  int fixed_gid = -1, roce = 2;
  std::string fam = env_or(env, "NCCL_IB_ADDR_FAMILY");
  if (auto g = env_or(env, "NCCL_IB_GID_INDEX"); !g.empty() && !parse_int(g, &fixed_gid))
    err = "NCCL_IB_GID_INDEX: expected an integer, got '" + g + "'";
  if (auto r = env_or(env, "NCCL_IB_ROCE_VERSION_NUM"); !r.empty() && (!parse_int(r, &roce) || (roce != 1 && roce != 2)))
    err = "NCCL_IB_ROCE_VERSION_NUM: expected 1 or 2, got '" + r + "'";
  if (!fam.empty() && fam != "AF_INET" && fam != "AF_INET6")
    err = "NCCL_IB_ADDR_FAMILY: expected AF_INET or AF_INET6, got '" + fam + "'";
  if (!spec || !err.empty()) {
    out.why_none = err;
    return out;
  }
  std::vector<const probe::IbDevice*> sorted;
  for (const auto& d : devs) sorted.push_back(&d);
  std::sort(sorted.begin(), sorted.end(), [](auto* a, auto* b) { return a->name < b->name; });
  std::vector<std::string> seen;
  for (const auto* d : sorted) {
    for (const auto& p : d->ports) {
      std::string state = p.state ? std::string(core::trim(*p.state)) : "unknown";
      seen.push_back(d->name + ":" + std::to_string(p.port) + " " + state);
      if (state.find("ACTIVE") == std::string::npos || state.find("DEFER") != std::string::npos) continue;
      if (!hca_selected(*spec, d->name, p.port)) {
        seen.back() += " (excluded by NCCL_IB_HCA)";
        continue;
      }
      RdmaRail r;
      r.dev = d->name;
      r.port = p.port;
      r.ethernet = p.link_layer && core::trim(*p.link_layer) == "Ethernet";
      r.rate_gbps = p.rate_gbps;
      r.gid_index = fixed_gid >= 0 ? fixed_gid : r.ethernet ? auto_gid_index(p.gids, roce, fam != "AF_INET6") : 0;
      if (r.gid_index < 0) {
        seen.back() += " (no RoCE v" + std::to_string(roce) + " " + (fam.empty() ? "AF_INET" : fam) + " GID)";
        continue;
      }
      for (const auto& g : p.gids)
        if (g.index == r.gid_index) r.gid = g.gid;
      out.rails.push_back(std::move(r));
    }
  }
  if (out.rails.empty())
    out.why_none = seen.empty() ? "no RDMA device in /sys/class/infiniband" : "no usable port: " + core::join(seen, ", ");
  return out;
}

}  // namespace ncdx::measure
