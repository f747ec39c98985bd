#include "analyze/doctor/facts.h"

#include <map>

#include "core/strings.h"
#include "knowledge/xid.h"

namespace ncdx::analyze {

bool nvml_ok(const probe::Inventory& inv) { return inv.nvml.source.state == probe::ProbeState::ok; }

int gpu_count(const probe::Inventory& inv) {
  if (nvml_ok(inv) && inv.nvml.device_count) return std::max(*inv.nvml.device_count, static_cast<int>(inv.pci_gpus.size()));
  return static_cast<int>(inv.pci_gpus.size());
}

bool has_ib(const probe::Inventory& inv) { return !inv.ib.empty(); }

std::string nvml_skip_reason(const probe::Inventory& inv) {
  const auto& s = inv.nvml.source;
  if (s.state == probe::ProbeState::absent) return inv.pci_gpus.empty() ? "no NVIDIA driver (and no NVIDIA GPU on PCI)" : "no NVIDIA driver: libnvidia-ml.so.1 not found";
  if (s.state == probe::ProbeState::skipped) return s.detail.empty() ? "NVML not probed" : s.detail;
  return std::string("NVML ") + probe::to_string(s.state) + ": " + s.detail;
}

bool nccl_ifname_match(std::string_view spec, std::string_view name) {
  if (spec.starts_with("=")) return name == spec.substr(1);
  return name.starts_with(spec);
}

std::vector<std::string> nccl_socket_interfaces(const std::vector<probe::NetIface>& net,
                                                const std::map<std::string, std::string>& env,
                                                std::string* rule) {
  std::vector<const probe::NetIface*> up;
  for (const auto& i : net)
    if (!i.operstate || *i.operstate == "up" || *i.operstate == "unknown") up.push_back(&i);
  auto pick = [&](auto pred) {
    std::vector<std::string> out;
    for (auto* i : up)
      if (pred(i->name)) out.push_back(i->name);
    return out;
  };
  auto it = env.find("NCCL_SOCKET_IFNAME");
  // Values of length <= 1 are ignored by NCCL (nccl_env_vars.tsv).
  if (it != env.end() && it->second.size() > 1) {
    std::string v = it->second;
    bool exclude = v.starts_with("^");
    if (exclude) v = v.substr(1);
    std::vector<std::string> specs;
    for (auto s : core::split(v, ','))
      if (!s.empty()) specs.emplace_back(s);
    if (rule) *rule = "NCCL_SOCKET_IFNAME=" + it->second;
    return pick([&](const std::string& n) {
      bool m = false;
      for (const auto& s : specs) m |= nccl_ifname_match(s, n);
      return exclude ? !m : m;
    });
  }
  auto ib = pick([](const std::string& n) { return n.starts_with("ib"); });
  if (!ib.empty()) {
    if (rule) *rule = "default: ib* interfaces first";
    return ib;
  }
  auto plain = pick([](const std::string& n) {
    return !n.starts_with("docker") && !n.starts_with("lo") && !n.starts_with("virbr");
  });
  if (!plain.empty()) {
    if (rule) *rule = "default: ^docker,lo,virbr";
    return plain;
  }
  auto docker = pick([](const std::string& n) { return n.starts_with("docker"); });
  if (!docker.empty()) {
    if (rule) *rule = "default fallback: docker*";
    return docker;
  }
  if (rule) *rule = "default fallback: lo";
  return pick([](const std::string& n) { return n.starts_with("lo"); });
}

const probe::PciDevice* find_pci(const probe::Inventory& inv, const std::string& bdf) {
  for (const auto& d : inv.pci_gpus)
    if (d.bdf == bdf) return &d;
  for (const auto& d : inv.pci_nics)
    if (d.bdf == bdf) return &d;
  return nullptr;
}

std::optional<std::string> pci_distance(const probe::PciDevice& a, const probe::PciDevice& b) {
  if (a.root.empty() || b.root.empty() || a.path.empty() || b.path.empty()) return std::nullopt;
  if (a.root != b.root) {
    if (a.numa_node && b.numa_node && *a.numa_node >= 0 && *a.numa_node == *b.numa_node) return "NODE";
    if (a.numa_node && b.numa_node) return "SYS";
    return std::nullopt;
  }
  // path = bridges from the root port down, then the device itself.
  std::size_t common = 0;
  while (common + 1 < a.path.size() && common + 1 < b.path.size() && a.path[common] == b.path[common]) ++common;
  if (common == 0) return "PHB";
  std::size_t below_a = a.path.size() - common, below_b = b.path.size() - common;
  // One switch: upstream port shared, each device at most one downstream port below it.
  if (common >= 2 && below_a <= 2 && below_b <= 2) return "PIX";
  return "PXB";
}

XidInfo xid_info(int xid) {
  // knowledge/xid.h (data/xid.yaml) is the shared table; "fatal" = severity error or worse.
  if (const auto* k = knowledge::xid_info(xid))
    return {k->name, k->severity >= core::Severity::error};
  if (!knowledge::xid_table().empty()) return {"unknown XID (not in the knowledge table)", false};
  // Fallback only if the embedded table failed to load.
  // Meanings after NVIDIA's XID catalog (docs.nvidia.com/deploy/xid-errors); "fatal" = the GPU
  // needs a reset/reboot or hardware triage before a job can trust it. To be replaced by
  // knowledge/xid.h (branch kb) when merged.
  static const std::map<int, XidInfo> table = {
      {13, {"graphics engine exception (often an application fault)", false}},
      {31, {"GPU memory page fault (illegal address in a kernel)", false}},
      {43, {"GPU stopped processing (channel reset)", false}},
      {45, {"preemptive cleanup after earlier errors", false}},
      {48, {"double-bit ECC error", true}},
      {61, {"internal micro-controller breakpoint/warning", true}},
      {62, {"internal micro-controller halt", true}},
      {63, {"ECC page retirement / row-remap recording event", false}},
      {64, {"ECC page retirement / row-remap recording failure", true}},
      {74, {"NVLink error", true}},
      {79, {"GPU has fallen off the bus", true}},
      {92, {"high single-bit ECC error rate", false}},
      {94, {"contained ECC error (affected job must restart)", true}},
      {95, {"uncontained ECC error (GPU reset required)", true}},
      {109, {"context switch timeout", false}},
      {119, {"GSP RPC timeout", true}},
      {120, {"GSP error", true}},
      {140, {"unrecovered ECC error", true}},
  };
  auto it = table.find(xid);
  if (it != table.end()) return it->second;
  return {"see NVIDIA XID catalog", false};
}

std::string join_limited(const std::vector<std::string>& items, std::size_t max) {
  if (items.size() <= max) return core::join(items, "; ");
  std::vector<std::string> head(items.begin(), items.begin() + static_cast<long>(max));
  return core::join(head, "; ") + "; … (" + std::to_string(items.size() - max) + " more)";
}

}  // namespace ncdx::analyze
