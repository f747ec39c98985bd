// Doctor checks on software: libnccl versions a job could load, torch's NCCL vs the system's,
// the Python stack, and a minimal NCCL/PyTorch env lint. The full env lint is envlint's
// `analyze/env_lint.h`; when it lands, the env.* checks registered in doctor_registry.cc should
// delegate to it (each takes the Inventory's redacted env map and returns one CheckResult).
#include <set>

#include "analyze/doctor_checks.h"
#include "analyze/doctor_facts.h"
#include "core/strings.h"

namespace ncdx::analyze {
using probe::Inventory;

CheckResult check_nccl_versions(const Inventory& inv) {
  if (inv.nccl_libs.empty()) return skip("no libnccl found in system, CUDA, or Python library directories");
  std::map<std::string, std::vector<std::string>> by_version;
  for (const auto& l : inv.nccl_libs) by_version[l.version.value_or("unknown")].push_back(l.path);
  std::vector<std::string> parts;
  for (auto& [v, paths] : by_version) parts.push_back(v + ": " + join_limited(paths, 2));
  std::string ev = std::to_string(inv.nccl_libs.size()) + " libnccl file(s); " + core::join(parts, " | ");
  by_version.erase("unknown");
  if (by_version.size() > 1)
    return warn(ev, "Which one a job loads depends on LD_LIBRARY_PATH, LD_PRELOAD and the Python wheel; keep one NCCL version per job and per cluster (NCCL_DEBUG=VERSION prints the loaded one).");
  return pass(ev);
}

CheckResult check_torch_nccl(const Inventory& inv) {
  const probe::PyPackage* torch = nullptr;
  for (const auto& p : inv.python)
    if (p.name == "torch") torch = &p;
  if (!torch) return skip("torch not installed in the Python environments found");
  std::optional<std::string> torch_nccl;
  for (const auto& p : inv.python)
    if (p.name.starts_with("nvidia_nccl_cu") && p.site == torch->site) torch_nccl = p.version;
  for (const auto& l : inv.nccl_libs)
    if (!torch_nccl && (l.origin == "torch" || l.origin == "python") && l.path.starts_with(torch->site)) torch_nccl = l.version;
  if (!torch_nccl) return skip("torch " + torch->version + " without a separate NCCL wheel (statically linked or unknown)");
  std::set<std::string> system;
  for (const auto& l : inv.nccl_libs)
    if ((l.origin == "system" || l.origin == "cuda" || l.origin == "env") && l.version) system.insert(*l.version);
  std::string ev = "torch " + torch->version + " uses NCCL " + *torch_nccl;
  if (system.empty()) return pass(ev + "; no other system libnccl");
  system.erase(*torch_nccl);
  if (!system.empty())
    return warn(ev + " but the system also has NCCL " + core::join({system.begin(), system.end()}, ", "),
                "An LD_LIBRARY_PATH/LD_PRELOAD pointing at the system NCCL overrides torch's; make every rank load the same version.");
  return pass(ev + ", same as the system NCCL");
}

CheckResult check_python_stack(const Inventory& inv) {
  if (inv.python.empty()) return skip("no torch/vllm/sglang/ray/verl/megatron/deepspeed packages found");
  std::vector<std::string> items;
  for (const auto& p : inv.python) items.push_back(p.name + " " + p.version);
  std::sort(items.begin(), items.end());
  items.erase(std::unique(items.begin(), items.end()), items.end());
  std::set<std::string> torch_versions;
  for (const auto& p : inv.python)
    if (p.name == "torch") torch_versions.insert(p.version);
  if (torch_versions.size() > 1)
    return warn(join_limited(items, 8), "Several torch versions are installed in different environments; make sure every rank activates the same one.");
  return pass(join_limited(items, 8));
}

namespace {
std::vector<std::string> set_vars(const Inventory& inv, std::initializer_list<const char*> names) {
  std::vector<std::string> out;
  for (const char* n : names)
    if (auto it = inv.env.find(n); it != inv.env.end()) out.push_back(std::string(n) + "=" + it->second);
  return out;
}
}  // namespace

CheckResult check_env_fake(const Inventory& inv) {
  auto v = set_vars(inv, {"NCCL_MAX_RINGS", "NCCL_IB_MTU", "NCCL_TIMEOUT", "NCCL_CHECKS_DISABLE", "NCCL_SINGLE_RING_THRESHOLD"});
  if (!v.empty())
    return warn("set but read by no NCCL version: " + core::join(v, ", "),
                "Remove them: NCCL_MAX_RINGS -> NCCL_MAX_NCHANNELS; NCCL_IB_MTU -> set the MTU on the NIC/switch; NCCL_TIMEOUT -> init_process_group(timeout=...).");
  return pass("no invented NCCL variables set");
}

CheckResult check_env_removed(const Inventory& inv) {
  auto v = set_vars(inv, {"NCCL_LL_THRESHOLD", "NCCL_TREE_THRESHOLD", "NCCL_RINGS", "NCCL_IB_GDR_LEVEL", "NCCL_IB_CUDA_SUPPORT", "NCCL_THREAD_THRESHOLD"});
  if (!v.empty())
    return warn("removed from NCCL, now no-ops: " + core::join(v, ", "),
                "NCCL_LL_THRESHOLD/NCCL_TREE_THRESHOLD -> NCCL_PROTO/NCCL_ALGO; NCCL_IB_GDR_LEVEL -> NCCL_NET_GDR_LEVEL; NCCL_RINGS -> NCCL_GRAPH_FILE.");
  return pass("no removed NCCL variables set");
}

CheckResult check_env_torch_aliases(const Inventory& inv) {
  auto v = set_vars(inv, {"NCCL_ASYNC_ERROR_HANDLING", "NCCL_BLOCKING_WAIT", "NCCL_DESYNC_DEBUG", "NCCL_ENABLE_TIMING"});
  if (!v.empty())
    return warn("deprecated PyTorch aliases (not NCCL variables): " + core::join(v, ", "),
                "Use the TORCH_NCCL_* names (TORCH_NCCL_ASYNC_ERROR_HANDLING, TORCH_NCCL_BLOCKING_WAIT, ...); when both are set the TORCH_ name wins.");
  return pass("no deprecated PyTorch NCCL_* aliases set");
}

CheckResult check_env_disable(const Inventory& inv) {
  std::vector<std::string> bad;
  auto on = [&](const char* n) {
    auto it = inv.env.find(n);
    return it != inv.env.end() && !it->second.empty() && it->second != "0";
  };
  bool nvlink = false;
  for (const auto& g : inv.nvml.gpus)
    for (const auto& l : g.nvlinks) nvlink |= l.active.value_or(false);
  if (on("NCCL_P2P_DISABLE") && gpu_count(inv) >= 2) bad.push_back("NCCL_P2P_DISABLE=" + inv.env.at("NCCL_P2P_DISABLE") + (nvlink ? " on an NVLink node" : ""));
  if (on("NCCL_IB_DISABLE") && has_ib(inv)) bad.push_back("NCCL_IB_DISABLE=" + inv.env.at("NCCL_IB_DISABLE") + " with RDMA devices present");
  if (on("NCCL_SHM_DISABLE") && gpu_count(inv) >= 2) bad.push_back("NCCL_SHM_DISABLE=" + inv.env.at("NCCL_SHM_DISABLE"));
  if (!bad.empty())
    return warn("transport disabled: " + core::join(bad, ", "), "Unset these unless they work around a confirmed problem: they force slower paths (host memory, TCP sockets).");
  return pass("no NCCL transport disabled");
}

CheckResult check_env_levels(const Inventory& inv) {
  // Exact, case-sensitive strings, or integers (nccl_facts §1.2); anything else is ignored silently.
  static const std::set<std::string> ok = {"LOC", "NVL", "NVB", "C2C", "PIX", "PXB", "P2C", "PXN", "PHB", "SYS"};
  std::vector<std::string> bad;
  for (const char* n : {"NCCL_P2P_LEVEL", "NCCL_NET_GDR_LEVEL"}) {
    auto it = inv.env.find(n);
    if (it == inv.env.end() || it->second.empty()) continue;
    if (!ok.count(it->second) && !core::parse_int(it->second)) bad.push_back(std::string(n) + "=" + it->second);
  }
  if (!bad.empty())
    return warn("values NCCL ignores silently: " + core::join(bad, ", "), "Use one of LOC NVL NVB C2C PIX PXB P2C PXN PHB SYS (upper case, exact).");
  return pass("NCCL_P2P_LEVEL / NCCL_NET_GDR_LEVEL unset or valid");
}

}  // namespace ncdx::analyze
