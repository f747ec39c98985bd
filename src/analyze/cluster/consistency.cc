#include "analyze/cluster/consistency.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "analyze/doctor/facts.h"
#include <fmt/format.h>

#include "core/strings.h"
#include "knowledge/doctor_fixes.h"

namespace ncdx::analyze {
namespace {

constexpr const char* kUnknown = "(unknown)";

std::optional<std::string> join_sorted(std::vector<std::string> v) {
  if (v.empty()) return std::nullopt;
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : ", ") + s;
  return out;
}

template <class T>
std::optional<std::string> str(const std::optional<T>& v) {
  if (!v) return std::nullopt;
  if constexpr (std::is_same_v<T, std::string>) return *v;
  else return std::to_string(*v);
}

std::optional<std::string> nccl_version(const NodeSnapshot& n) {
  std::vector<std::string> v;
  for (const auto& l : n.inventory.nccl_libs)
    if (l.version) v.push_back(*l.version);
  return join_sorted(v);
}
std::optional<std::string> cuda_runtime(const NodeSnapshot& n) { return str(n.inventory.cuda.runtime_version); }
std::optional<std::string> cuda_driver(const NodeSnapshot& n) {
  if (n.inventory.cuda.driver_version) return str(n.inventory.cuda.driver_version);
  return str(n.inventory.nvml.cuda_driver_version);
}
std::optional<std::string> driver(const NodeSnapshot& n) {
  if (n.inventory.nvml.driver_version) return n.inventory.nvml.driver_version;
  return n.inventory.os.driver_version;
}
std::optional<std::string> python_pkg(const NodeSnapshot& n, const char* name) {
  std::vector<std::string> v;
  for (const auto& p : n.inventory.python)
    if (p.name == name) v.push_back(p.version);
  return join_sorted(v);
}
std::optional<std::string> torch(const NodeSnapshot& n) { return python_pkg(n, "torch"); }
std::optional<std::string> gpus(const NodeSnapshot& n) { return std::to_string(gpu_count(n.inventory)); }
std::optional<std::string> gpu_model(const NodeSnapshot& n) {
  std::vector<std::string> v;
  for (const auto& g : n.inventory.nvml.gpus)
    if (g.name) v.push_back(*g.name);
  if (v.empty() && !n.inventory.pci_gpus.empty()) {
    for (const auto& p : n.inventory.pci_gpus) v.push_back("pci " + p.device.value_or("?"));
  }
  if (v.empty()) return std::string("none");
  return join_sorted(v);
}
std::optional<std::string> nic_count(const NodeSnapshot& n) {
  return std::to_string(n.inventory.pci_nics.size()) + " PCI NICs, " + std::to_string(n.inventory.ib.size()) +
         " RDMA devices";
}
std::optional<std::string> nic_rate(const NodeSnapshot& n) {
  std::vector<std::string> v;
  for (const auto& d : n.inventory.ib)
    for (const auto& p : d.ports) v.push_back(p.rate.value_or("?") + " " + p.link_layer.value_or("?"));
  if (v.empty()) return std::string("no RDMA ports");
  std::sort(v.begin(), v.end());
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : ", ") + s;  // counts matter: no unique
  return out;
}
std::optional<std::string> nccl_mtu(const NodeSnapshot& n) {
  // Names may differ per node (eth0 vs ens1f0); the MTUs of what NCCL would use must not.
  auto ifs = nccl_socket_interfaces(n.inventory.net, n.inventory.env);
  std::vector<std::string> v;
  for (const auto& name : ifs)
    for (const auto& i : n.inventory.net)
      if (i.name == name) v.push_back(i.mtu ? std::to_string(*i.mtu) : std::string("?"));
  if (v.empty()) return std::nullopt;
  return join_sorted(v);
}
std::optional<std::string> shm(const NodeSnapshot& n) { return str(n.inventory.os.shm_size_bytes); }
std::optional<std::string> memlock(const NodeSnapshot& n) { return n.inventory.os.memlock.soft; }
std::optional<std::string> kernel(const NodeSnapshot& n) { return n.inventory.os.kernel; }
std::optional<std::string> container(const NodeSnapshot& n) {
  return n.inventory.os.container ? *n.inventory.os.container : std::string("none");
}

}  // namespace

std::string short_host(const std::string& host) { return host.substr(0, host.find_first_of(".@")); }

const std::vector<ConsistencyRule>& consistency_rules() {
  static const std::vector<ConsistencyRule> rules = {
      {"versions.nccl", "NCCL library versions", core::Outcome::fail, nccl_version},
      {"versions.cuda_runtime", "CUDA runtime version", core::Outcome::fail, cuda_runtime},
      {"versions.cuda_driver", "CUDA driver API version", core::Outcome::warn, cuda_driver},
      {"versions.driver", "NVIDIA driver version", core::Outcome::warn, driver},
      {"versions.torch", "PyTorch version", core::Outcome::fail, torch},
      {"gpu.count", "GPU count", core::Outcome::fail, gpus},
      {"gpu.model", "GPU model", core::Outcome::warn, gpu_model},
      {"nic.count", "NIC and RDMA device count", core::Outcome::fail, nic_count},
      {"nic.rate", "RDMA port rate and link layer", core::Outcome::fail, nic_rate},
      {"net.mtu", "MTU of the interfaces NCCL would use", core::Outcome::fail, nccl_mtu},
      {"os.shm", "/dev/shm size", core::Outcome::warn, shm},
      {"os.memlock", "memlock limit (soft)", core::Outcome::warn, memlock},
      {"os.kernel", "kernel release", core::Outcome::warn, kernel},
      {"os.container", "container runtime", core::Outcome::warn, container},
  };
  return rules;
}

ConsistencyResult judge_values(const std::string& id, const std::string& title, core::Outcome on_deviation,
                               const std::vector<std::string>& hosts,
                               const std::vector<std::optional<std::string>>& values, const std::string& fix) {
  ConsistencyResult r;
  r.id = id;
  r.title = title;
  std::map<std::string, std::vector<std::string>> by;
  bool any_known = false;
  for (std::size_t i = 0; i < hosts.size() && i < values.size(); ++i) {
    by[values[i] ? *values[i] : kUnknown].push_back(hosts[i]);
    any_known = any_known || values[i].has_value();
  }
  for (auto& [v, h] : by) {
    std::sort(h.begin(), h.end());
    r.groups.push_back({v, h});
  }
  std::stable_sort(r.groups.begin(), r.groups.end(),
                   [](const ValueGroup& a, const ValueGroup& b) { return a.hosts.size() > b.hosts.size(); });
  if (!any_known) {
    r.status = core::Outcome::skip;
    r.evidence = "no node could tell";
    return r;
  }
  if (r.groups.size() == 1) {
    r.status = core::Outcome::pass;
    r.majority = r.groups[0].value;
    r.evidence = "all " + std::to_string(hosts.size()) + " nodes: " + r.groups[0].value;
    return r;
  }
  bool tie = r.groups[0].hosts.size() == r.groups[1].hosts.size();
  if (!tie) r.majority = r.groups[0].value;
  bool only_unknown = true;
  for (std::size_t g = tie ? 0 : 1; g < r.groups.size(); ++g) {
    for (const auto& h : r.groups[g].hosts) r.deviating.push_back(h);
    only_unknown = only_unknown && r.groups[g].value == kUnknown;
  }
  std::sort(r.deviating.begin(), r.deviating.end());
  // A node that cannot tell is a warning, not proof of a difference.
  r.status = only_unknown && on_deviation == core::Outcome::fail ? core::Outcome::warn : on_deviation;
  std::string ev = tie ? "no majority:" : "majority (" + std::to_string(r.groups[0].hosts.size()) + " nodes): " +
                                              r.groups[0].value + "; differ:";
  for (std::size_t g = tie ? 0 : 1; g < r.groups.size(); ++g)
    ev += " " + join_limited(r.groups[g].hosts) + " = " + r.groups[g].value + ";";
  ev.pop_back();
  r.evidence = ev;
  r.fix = fix;
  return r;
}

std::vector<ConsistencyResult> check_consistency(const std::vector<NodeSnapshot>& nodes) {
  std::vector<ConsistencyResult> out;
  std::vector<std::string> hosts;
  for (const auto& n : nodes) hosts.push_back(n.host);
  for (const auto& rule : consistency_rules()) {
    std::vector<std::optional<std::string>> v;
    for (const auto& n : nodes) v.push_back(rule.value(n));
    out.push_back(judge_values(rule.id, rule.title, rule.on_deviation, hosts, v,
                               knowledge::doctor_fix(std::string("cluster.") + rule.id)));
  }
  // NCCL_* settings: one comparison per variable any node sets (an unset variable is a value).
  std::set<std::string> keys;
  for (const auto& n : nodes)
    for (const auto& [k, val] : n.inventory.env)
      if (k.rfind("NCCL_", 0) == 0) keys.insert(k);
  for (const auto& k : keys) {
    std::vector<std::optional<std::string>> v;
    for (const auto& n : nodes) {
      auto it = n.inventory.env.find(k);
      v.push_back(it == n.inventory.env.end() ? std::string("(unset)") : it->second);
    }
    out.push_back(judge_values("env." + k, k + " across nodes", core::Outcome::fail, hosts, v,
                               knowledge::doctor_fix("cluster.env", {{"name", k}})));
  }
  // Hostnames: the short names must be unique (NCCL, torch.distributed and Slurm key on them).
  {
    ConsistencyResult r;
    r.id = "host.unique";
    r.title = "short hostnames are unique";
    std::map<std::string, std::vector<std::string>> by;
    for (const auto& h : hosts) by[short_host(h)].push_back(h);
    for (auto& [s, hs] : by) {
      if (hs.size() < 2) continue;
      std::sort(hs.begin(), hs.end());
      r.groups.push_back({s, hs});
      for (const auto& h : hs) r.deviating.push_back(h);
      r.evidence += std::string(r.evidence.empty() ? "" : "; ") + "'" + s + "' is " + join_limited(hs);
    }
    std::sort(r.deviating.begin(), r.deviating.end());
    if (r.deviating.empty()) {
      r.status = core::Outcome::pass;
      r.evidence = std::to_string(hosts.size()) + " distinct short names";
    } else {
      r.status = core::Outcome::fail;
      r.fix = knowledge::doctor_fix("cluster." + r.id);
    }
    out.push_back(std::move(r));
  }
  // Clock skew against the median offset (rank 0's clock is not special).
  {
    ConsistencyResult r;
    r.id = "clock.skew";
    r.title = "wall clocks agree (within 250 ms)";
    std::vector<double> offs;
    for (const auto& n : nodes)
      if (n.clock_offset_us) offs.push_back(*n.clock_offset_us);
    if (offs.size() < 2) {
      r.status = core::Outcome::skip;
      r.evidence = "fewer than two clock readings";
    } else {
      std::sort(offs.begin(), offs.end());
      double med = offs[offs.size() / 2];
      double worst = 0;
      for (const auto& n : nodes) {
        if (!n.clock_offset_us) continue;
        double d = std::fabs(*n.clock_offset_us - med);
        worst = std::max(worst, d);
        if (d > 250e3) {
          r.deviating.push_back(n.host);
          r.evidence += std::string(r.evidence.empty() ? "" : "; ") + n.host + " " +
                        fmt::format("{:+.1f}", (*n.clock_offset_us - med) / 1e3) + " ms";
        }
      }
      std::sort(r.deviating.begin(), r.deviating.end());
      if (r.deviating.empty()) {
        r.status = core::Outcome::pass;
        r.evidence = "largest offset from the median " + fmt::format("{:.3f}", worst / 1e3) + " ms";
      } else {
        r.status = core::Outcome::warn;
        r.evidence = "off the median clock: " + r.evidence;
        r.fix = knowledge::doctor_fix("cluster." + r.id);
      }
    }
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace ncdx::analyze
