// Doctor checks on software: libnccl versions a job could load, torch's NCCL vs the system's,
// the Python stack, and the NCCL/PyTorch env of the node (through envlint's analyze/env/lint.h).
#include <set>

#include <functional>

#include "analyze/doctor/checks.h"
#include "analyze/env/lint.h"
#include "analyze/doctor/facts.h"
#include "knowledge/doctor_fixes.h"
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
    return warn(ev, knowledge::doctor_fix("sw.nccl_versions.warn"));
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
                knowledge::doctor_fix("sw.torch_nccl.warn"));
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
    return warn(join_limited(items, 8), knowledge::doctor_fix("sw.python_stack.warn"));
  return pass(join_limited(items, 8));
}

namespace {
// The env.* checks delegate to envlint's analyze/env/lint.h (lint_env), told what this node is:
// GPU count and interconnect, NCCL and torch versions seen, interfaces. Rows are grouped by
// envlint rule id into the doctor checks below; env.values takes every other non-PASS row.
std::vector<EnvRow> lint_rows(const Inventory& inv) {
  EnvLintInput in;
  in.env = inv.env;
  for (const auto& l : inv.nccl_libs)
    if (l.version && !in.nccl) in.nccl = Version::parse(*l.version);
  for (const auto& p : inv.python)
    if (p.name.starts_with("nvidia_nccl_cu")) in.nccl = Version::parse(p.version);  // torch's NCCL wins
  for (const auto& p : inv.python)
    if (p.name == "torch") in.torch = Version::parse(p.version);
  ClusterShape shape;
  shape.gpus_per_node = gpu_count(inv);
  bool nvlink = false, nvswitch = false;
  for (const auto& g : inv.nvml.gpus)
    for (const auto& l : g.nvlinks)
      if (l.active.value_or(false)) {
        nvlink = true;
        nvswitch |= l.remote_type.value_or(-1) == 2;
      }
  if (shape.gpus_per_node > 0) shape.intra = nvswitch ? "nvswitch" : nvlink ? "nvlink" : "pcie";
  if (has_ib(inv)) {
    bool roce = false;
    for (const auto& d : inv.ib)
      for (const auto& p : d.ports) roce |= p.link_layer.value_or("") == "Ethernet";
    shape.inter = roce ? "roce" : "ib";
  }
  in.cluster = shape;
  for (const auto& n : inv.net) in.interfaces.push_back(n.name);
  return lint_env(in);
}

const std::set<std::string> kNoEffect = {"env.fake", "env.never-read", "env.log-only", "env.unknown", "env.external-plugin"};
const std::set<std::string> kRemoved = {"env.removed", "env.not-yet", "env.registration-bug"};
const std::set<std::string> kAliases = {"env.pytorch-alias", "env.legacy-alias", "env.deprecated", "torch.deprecated-alias"};

CheckResult from_rows(const Inventory& inv, const std::function<bool(const EnvRow&)>& pick, const std::string& ok_text) {
  std::vector<std::string> ev, fixes;
  bool failed = false;
  for (const auto& r : lint_rows(inv)) {
    if (r.status == core::Outcome::pass || !pick(r)) continue;
    failed |= r.status == core::Outcome::fail;
    ev.push_back(r.parameter + "=" + r.value + " (" + r.risk + ")");
    if (!r.recommended.empty()) fixes.push_back(r.parameter + ": " + r.recommended);
  }
  if (ev.empty()) return pass(ok_text);
  std::string fix = knowledge::doctor_fix("env.lint", {{"recommended", join_limited(fixes, 4)}, {"rows", std::to_string(ev.size())}});
  return failed ? fail(join_limited(ev, 4), fix) : warn(join_limited(ev, 4), fix);
}
}  // namespace

CheckResult check_env_fake(const Inventory& inv) {
  return from_rows(inv, [](const EnvRow& r) { return kNoEffect.count(r.rule) > 0; }, "no invented or never-read NCCL variables set");
}

CheckResult check_env_removed(const Inventory& inv) {
  return from_rows(inv, [](const EnvRow& r) { return kRemoved.count(r.rule) > 0; }, "no removed or not-yet-supported NCCL variables set");
}

CheckResult check_env_torch_aliases(const Inventory& inv) {
  return from_rows(inv, [](const EnvRow& r) { return kAliases.count(r.rule) > 0; }, "no deprecated or alias names set");
}

CheckResult check_env_values(const Inventory& inv) {
  return from_rows(inv, [](const EnvRow& r) { return !kNoEffect.count(r.rule) && !kRemoved.count(r.rule) && !kAliases.count(r.rule); },
                   "NCCL/PyTorch variable values valid for this node");
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
    return warn("transport disabled: " + core::join(bad, ", "), knowledge::doctor_fix("env.disable_flags.warn"));
  return pass("no NCCL transport disabled");
}

}  // namespace ncdx::analyze
