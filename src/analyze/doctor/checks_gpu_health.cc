// gpu.health: one row that ties together, per GPU, what the other checks see separately — XIDs in
// the kernel log on its bus id, uncorrectable ECC, page retirement, row remapping and NVLink
// errors — so a failing GPU is named once with its bus id and UUID ("GPU3 0000:3b:00
// (GPU-…): XID 79 + 2 uncorrectable ECC + row remap pending") instead of across four rows, as a
// `dcgmi diag` user expects. XIDs on a bus id NVML does not list are a GPU that fell off the bus.
#include <algorithm>
#include <cctype>
#include <map>

#include "analyze/doctor/checks.h"
#include "analyze/doctor/facts.h"
#include "knowledge/doctor_fixes.h"

namespace ncdx::analyze {
namespace {

using probe::Inventory;
using probe::NvmlGpu;

// "00000000:3B:00.0" (NVML) and "0000:3b:00" (kernel XID text) → "0000:3b:00".
std::string bus_key(std::string id) {
  std::transform(id.begin(), id.end(), id.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (auto dot = id.rfind('.'); dot != std::string::npos && dot + 2 >= id.size()) id.resize(dot);
  auto colon = id.find(':');
  if (colon != std::string::npos && colon > 4) id = id.substr(colon - 4);  // 8-digit NVML domain → 4 digits
  else if (colon == 2) id = "0000:" + id;                                   // "3b:00" without a domain
  return id;
}

struct Health {
  std::vector<std::string> signs;
  bool fatal = false;
};

void add_gpu_signs(const NvmlGpu& g, Health& h) {
  auto unc = g.ecc_volatile_unc.value_or(0);
  if (unc > 0) {
    h.signs.push_back(std::to_string(unc) + " uncorrectable ECC since boot");
    h.fatal = true;
  } else if (g.ecc_aggregate_unc.value_or(0) > 0) {
    h.signs.push_back(std::to_string(*g.ecc_aggregate_unc) + " uncorrectable ECC (lifetime)");
  }
  if (g.retired_pending.value_or(false)) {
    h.signs.push_back("page retirement pending");
    h.fatal = true;
  }
  if (g.remap_failure.value_or(false)) {
    h.signs.push_back("row remapping FAILED");
    h.fatal = true;
  } else if (g.remap_pending.value_or(false)) {
    h.signs.push_back("row remap pending");
    h.fatal = true;
  }
  int inactive = 0;
  std::uint64_t errors = 0;
  for (const auto& l : g.nvlinks) {
    if (l.active && !*l.active) ++inactive;
    errors += l.replay.value_or(0) + l.recovery.value_or(0) + l.crc_flit.value_or(0) + l.crc_data.value_or(0);
  }
  bool any_active = std::any_of(g.nvlinks.begin(), g.nvlinks.end(), [](const auto& l) { return l.active.value_or(false); });
  if (inactive && any_active) h.signs.push_back(std::to_string(inactive) + " NVLink(s) down");
  if (errors) h.signs.push_back(std::to_string(errors) + " NVLink replay/recovery/CRC errors");
}

}  // namespace

CheckResult check_gpu_health(const Inventory& inv) {
  bool nvml = nvml_ok(inv), kmsg = inv.kmsg.source.state == probe::ProbeState::ok;
  if (!nvml && !kmsg) return skip("neither NVML nor the kernel log readable: " + nvml_skip_reason(inv));
  if (!nvml && inv.pci_gpus.empty() && inv.kmsg.xids.empty()) return skip("no NVIDIA GPU on PCI and no XID in the kernel log");
  std::map<std::string, std::vector<const probe::XidEvent*>> xids;
  for (const auto& x : inv.kmsg.xids) xids[bus_key(x.pci)].push_back(&x);
  std::vector<std::string> fails, warns;
  int seen = 0;
  auto judge = [&](const std::string& who, Health h, const std::vector<const probe::XidEvent*>* events) {
    if (events) {
      std::vector<std::string> parts;
      for (const auto* x : *events) {
        auto info = xid_info(x->xid);
        h.fatal |= info.fatal;
        parts.push_back("XID " + std::to_string(x->xid));
      }
      std::sort(parts.begin(), parts.end());
      parts.erase(std::unique(parts.begin(), parts.end()), parts.end());
      h.signs.insert(h.signs.begin(), parts.begin(), parts.end());
    }
    if (h.signs.empty()) return;
    std::string line = who + ": ";
    for (std::size_t i = 0; i < h.signs.size(); ++i) line += (i ? " + " : "") + h.signs[i];
    (h.fatal ? fails : warns).push_back(line);
  };
  std::map<std::string, bool> matched;
  for (const auto& g : inv.nvml.gpus) {
    ++seen;
    std::string key = g.bus_id ? bus_key(*g.bus_id) : std::string();
    std::string who = "GPU" + std::to_string(g.index) + (key.empty() ? "" : " " + key) + (g.uuid ? " (" + *g.uuid + ")" : "");
    Health h;
    add_gpu_signs(g, h);
    auto it = key.empty() ? xids.end() : xids.find(key);
    if (it != xids.end()) matched[key] = true;
    judge(who, std::move(h), it == xids.end() ? nullptr : &it->second);
  }
  for (const auto& [key, events] : xids) {
    if (matched.count(key)) continue;
    ++seen;
    judge("GPU at " + key + (nvml ? " (not listed by NVML)" : ""), Health{}, &events);
  }
  if (!fails.empty()) {
    auto all = fails;
    all.insert(all.end(), warns.begin(), warns.end());
    return fail(join_limited(all),
                knowledge::doctor_fix("gpu.health.fail"));
  }
  if (!warns.empty())
    return warn(join_limited(warns), knowledge::doctor_fix("gpu.health.warn"));
  if (!nvml) return pass("no XID in the kernel log (NVML not read: ECC, remap and NVLink unknown)");
  return pass("no XID, ECC, retirement, remap or NVLink error on " + std::to_string(seen) + " GPU(s)");
}

}  // namespace ncdx::analyze
