// Doctor checks on GPUs through NVML and CUDA: ECC, retired pages, row remapping, thermals,
// clocks-event reasons, persistence/compute/MIG modes, memory in use, P2P, PCIe links, NVLink,
// NVSwitch fabric, CUDA driver/runtime.
#include <functional>
#include <set>

#include "analyze/doctor/checks.h"
#include "analyze/doctor/facts.h"
#include "knowledge/doctor_fixes.h"
#include "core/strings.h"

namespace ncdx::analyze {
using probe::Inventory;
using probe::NvmlGpu;

namespace {

std::string label(const NvmlGpu& g) { return "GPU" + std::to_string(g.index) + (g.bus_id ? " (" + *g.bus_id + ")" : ""); }

// Runs `judge` on every GPU; it returns 0 ok, 1 warn, 2 fail and appends evidence. `have`
// says whether the GPU reported the needed fields at all (for SKIP when none did).
struct Sweep {
  std::vector<std::string> warns, fails;
  int seen = 0;
};

template <class F>
Sweep sweep(const Inventory& inv, F judge) {
  Sweep s;
  for (const auto& g : inv.nvml.gpus) judge(g, s);
  return s;
}

CheckResult verdict(const Sweep& s, const std::string& ok_text, const std::string& skip_text, const std::string& fix_warn,
                    const std::string& fix_fail) {
  if (!s.fails.empty()) {
    auto all = s.fails;
    all.insert(all.end(), s.warns.begin(), s.warns.end());
    return fail(join_limited(all), fix_fail);
  }
  if (!s.warns.empty()) return warn(join_limited(s.warns), fix_warn);
  if (s.seen == 0) return skip(skip_text);
  return pass(ok_text + " on " + std::to_string(s.seen) + " GPU(s)");
}

#define NEED_NVML(inv) \
  if (!nvml_ok(inv)) return skip(nvml_skip_reason(inv))

}  // namespace

CheckResult check_gpu_count(const Inventory& inv) {
  NEED_NVML(inv);
  int n = inv.nvml.device_count.value_or(0);
  int pci = static_cast<int>(inv.pci_gpus.size());
  if (pci > n) return fail("NVML sees " + std::to_string(n) + " of " + std::to_string(pci) + " NVIDIA GPUs on PCI",
                           knowledge::doctor_fix("gpu.count.fail"));
  return pass(std::to_string(n) + " GPU(s)" + (inv.pci_gpus.empty() ? "" : ", matching PCI"));
}

CheckResult check_driver_match(const Inventory& inv) {
  NEED_NVML(inv);
  if (!inv.os.driver_version || !inv.nvml.driver_version) return skip("driver version not known from both /proc/driver/nvidia/version and NVML");
  if (*inv.os.driver_version != *inv.nvml.driver_version)
    return fail("kernel module " + *inv.os.driver_version + " vs user-space NVML " + *inv.nvml.driver_version,
                knowledge::doctor_fix("gpu.driver_match.fail"));
  return pass("kernel module and NVML both " + *inv.nvml.driver_version);
}

CheckResult check_ecc_mode(const Inventory& inv) {
  NEED_NVML(inv);
  auto s = sweep(inv, [](const NvmlGpu& g, Sweep& s) {
    if (!g.ecc_current) return;
    ++s.seen;
    if (!*g.ecc_current) s.warns.push_back(label(g) + " ECC off");
    if (g.ecc_pending && *g.ecc_pending != *g.ecc_current) s.warns.push_back(label(g) + " ECC change pending a reboot");
  });
  return verdict(s, "ECC enabled", "ECC mode not supported (consumer GPU)", knowledge::doctor_fix("gpu.ecc_mode.warn"), "");
}

CheckResult check_ecc_errors(const Inventory& inv) {
  NEED_NVML(inv);
  auto s = sweep(inv, [](const NvmlGpu& g, Sweep& s) {
    if (!g.ecc_volatile_unc && !g.ecc_aggregate_unc) return;
    ++s.seen;
    if (g.ecc_volatile_unc.value_or(0) > 0) s.fails.push_back(label(g) + " " + std::to_string(*g.ecc_volatile_unc) + " uncorrectable ECC errors since driver load");
    else if (g.ecc_aggregate_unc.value_or(0) > 0) s.warns.push_back(label(g) + " " + std::to_string(*g.ecc_aggregate_unc) + " uncorrectable ECC errors in its lifetime");
  });
  return verdict(s, "no uncorrectable ECC errors", "ECC counters not supported", knowledge::doctor_fix("gpu.ecc_errors.warn"),
                 knowledge::doctor_fix("gpu.ecc_errors.fail"));
}

CheckResult check_retired_pages(const Inventory& inv) {
  NEED_NVML(inv);
  auto s = sweep(inv, [](const NvmlGpu& g, Sweep& s) {
    if (!g.retired_pending && !g.retired_dbe) return;
    ++s.seen;
    if (g.retired_pending.value_or(false)) s.fails.push_back(label(g) + " page retirement pending");
    else if (g.retired_dbe.value_or(0) > 0) s.warns.push_back(label(g) + " " + std::to_string(*g.retired_dbe) + " pages retired for double-bit errors");
  });
  return verdict(s, "no pending page retirement", "page retirement not supported (Ampere and newer use row remapping)",
                 knowledge::doctor_fix("gpu.retired_pages.warn"), knowledge::doctor_fix("gpu.retired_pages.fail"));
}

CheckResult check_row_remap(const Inventory& inv) {
  NEED_NVML(inv);
  auto s = sweep(inv, [](const NvmlGpu& g, Sweep& s) {
    if (!g.remap_pending && !g.remap_failure) return;
    ++s.seen;
    if (g.remap_failure.value_or(false)) s.fails.push_back(label(g) + " row remapping FAILED (no spare rows)");
    else if (g.remap_pending.value_or(false)) s.fails.push_back(label(g) + " row remap pending (" + std::to_string(g.remap_unc.value_or(0)) + " uncorrectable rows)");
    else if (g.remap_unc.value_or(0) > 0) s.warns.push_back(label(g) + " " + std::to_string(*g.remap_unc) + " rows remapped for uncorrectable errors");
  });
  return verdict(s, "no pending or failed row remap", "row remapping not supported (pre-Ampere, or MIG instances exist)",
                 knowledge::doctor_fix("gpu.row_remap.warn"),
                 knowledge::doctor_fix("gpu.row_remap.fail"));
}

CheckResult check_temperature(const Inventory& inv) {
  NEED_NVML(inv);
  auto s = sweep(inv, [](const NvmlGpu& g, Sweep& s) {
    if (!g.temp || !g.temp_slowdown) return;
    ++s.seen;
    std::string t = label(g) + " " + std::to_string(*g.temp) + "°C (slowdown " + std::to_string(*g.temp_slowdown) + "°C)";
    if (*g.temp >= *g.temp_slowdown) s.fails.push_back(t);
    else if (*g.temp >= *g.temp_slowdown - 5) s.warns.push_back(t);
  });
  return verdict(s, "temperatures below slowdown", "temperature thresholds not reported",
                 knowledge::doctor_fix("gpu.temperature.warn"), knowledge::doctor_fix("gpu.temperature.fail"));
}

CheckResult check_throttle(const Inventory& inv) {
  NEED_NVML(inv);
  auto s = sweep(inv, [](const NvmlGpu& g, Sweep& s) {
    if (!g.clock_event_reasons) return;
    ++s.seen;
    auto r = *g.clock_event_reasons;
    std::vector<std::string> why;
    if (r & 0x8) why.push_back("HW slowdown");
    if (r & 0x40) why.push_back("HW thermal slowdown");
    if (r & 0x80) why.push_back("HW power brake");
    if (!why.empty()) {
      s.fails.push_back(label(g) + " " + core::join(why, "+"));
      return;
    }
    if (r & 0x20) why.push_back("SW thermal slowdown");
    if (r & 0x4) why.push_back("SW power cap");
    if (!why.empty()) s.warns.push_back(label(g) + " " + core::join(why, "+"));
  });
  return verdict(s, "no thermal/power clock slowdown", "clocks-event reasons not reported",
                 knowledge::doctor_fix("gpu.throttle.warn"),
                 knowledge::doctor_fix("gpu.throttle.fail"));
}

CheckResult check_power(const Inventory& inv) {
  NEED_NVML(inv);
  auto s = sweep(inv, [](const NvmlGpu& g, Sweep& s) {
    if (!g.power_mw || !g.power_limit_mw || *g.power_limit_mw == 0) return;
    ++s.seen;
    if (*g.power_mw * 100 >= *g.power_limit_mw * 98ULL)
      s.warns.push_back(label(g) + " drawing " + std::to_string(*g.power_mw / 1000) + " W of " + std::to_string(*g.power_limit_mw / 1000) + " W limit");
  });
  return verdict(s, "power below the enforced limit", "power readings not supported", knowledge::doctor_fix("gpu.power.warn"), "");
}

CheckResult check_persistence(const Inventory& inv) {
  NEED_NVML(inv);
  auto s = sweep(inv, [](const NvmlGpu& g, Sweep& s) {
    if (!g.persistence) return;
    ++s.seen;
    if (!*g.persistence) s.warns.push_back(label(g) + " persistence mode off");
  });
  return verdict(s, "persistence mode enabled", "persistence mode not reported", knowledge::doctor_fix("gpu.persistence.warn"), "");
}

CheckResult check_compute_mode(const Inventory& inv) {
  NEED_NVML(inv);
  auto s = sweep(inv, [](const NvmlGpu& g, Sweep& s) {
    if (!g.compute_mode) return;
    ++s.seen;
    if (*g.compute_mode == 2) s.fails.push_back(label(g) + " compute mode PROHIBITED");
    else if (*g.compute_mode == 3) s.warns.push_back(label(g) + " compute mode EXCLUSIVE_PROCESS");
  });
  return verdict(s, "compute mode DEFAULT", "compute mode not reported",
                 knowledge::doctor_fix("gpu.compute_mode.warn"),
                 knowledge::doctor_fix("gpu.compute_mode.fail"));
}

CheckResult check_mig(const Inventory& inv) {
  NEED_NVML(inv);
  auto s = sweep(inv, [](const NvmlGpu& g, Sweep& s) {
    if (!g.mig_current) return;
    ++s.seen;
    if (*g.mig_current == 1) s.warns.push_back(label(g) + " MIG enabled");
    if (g.mig_pending && *g.mig_pending != *g.mig_current) s.warns.push_back(label(g) + " MIG mode change pending a reset");
  });
  return verdict(s, "MIG off", "MIG not supported on these GPUs",
                 knowledge::doctor_fix("gpu.mig.warn"), "");
}

CheckResult check_memory_in_use(const Inventory& inv) {
  NEED_NVML(inv);
  auto s = sweep(inv, [](const NvmlGpu& g, Sweep& s) {
    if (!g.mem_total || !g.mem_used) return;
    ++s.seen;
    bool busy = !g.processes.empty() || *g.mem_used * 10 > *g.mem_total;
    if (busy)
      s.warns.push_back(label(g) + " " + core::human_bytes(static_cast<double>(*g.mem_used)) + " used, " + std::to_string(g.processes.size()) + " process(es)");
  });
  return verdict(s, "GPU memory free", "memory info not reported",
                 knowledge::doctor_fix("gpu.memory_in_use.warn"), "");
}

CheckResult check_p2p(const Inventory& inv) {
  NEED_NVML(inv);
  const auto& m = inv.nvml.p2p;
  std::vector<std::string> bad;
  int seen = 0;
  for (std::size_t i = 0; i < m.size(); ++i)
    for (std::size_t j = 0; j < m[i].size(); ++j)
      if (m[i][j]) {
        ++seen;
        if (*m[i][j] != 0) bad.push_back("GPU" + std::to_string(i) + "->GPU" + std::to_string(j) + " status " + std::to_string(*m[i][j]));
      }
  if (seen == 0) return skip(inv.nvml.gpus.size() < 2 ? "fewer than 2 GPUs" : "P2P matrix not probed (run without --quick)");
  if (!bad.empty())
    return warn(std::to_string(bad.size()) + " GPU pair(s) without P2P read: " + join_limited(bad, 4),
                knowledge::doctor_fix("gpu.p2p.warn"));
  return pass("P2P read OK between all " + std::to_string(seen) + " ordered GPU pairs");
}

CheckResult check_p2p_path(const Inventory& inv) {
  NEED_NVML(inv);
  const auto& t = inv.nvml.topology;
  if (t.size() < 2) return skip("fewer than 2 GPUs");
  std::vector<std::string> far;
  for (std::size_t i = 0; i < t.size(); ++i) {
    bool nvlink = false;
    for (const auto& l : inv.nvml.gpus[i].nvlinks) nvlink |= l.active.value_or(false);
    if (nvlink) continue;  // NVLink paths are always closer than PCIe for NCCL
    for (std::size_t j = i + 1; j < t[i].size(); ++j)
      if (t[i][j] && *t[i][j] > 20) far.push_back("GPU" + std::to_string(i) + "-GPU" + std::to_string(j) + (*t[i][j] >= 50 ? " SYS" : *t[i][j] >= 40 ? " NODE" : " PHB"));
  }
  if (!far.empty())
    return warn(std::to_string(far.size()) + " PCIe-only GPU pair(s) beyond a PCIe switch: " + join_limited(far, 4),
                knowledge::doctor_fix("gpu.p2p_path.warn"));
  return pass("every GPU pair is NVLink-connected or within one PCIe switch hierarchy");
}

CheckResult check_pcie_gpu_link(const Inventory& inv) {
  std::vector<std::string> warns, notes;
  int seen = 0;
  if (nvml_ok(inv)) {
    for (const auto& g : inv.nvml.gpus) {
      if (!g.pcie_width || !g.pcie_max_width) continue;
      ++seen;
      if (*g.pcie_width < *g.pcie_max_width) warns.push_back(label(g) + " x" + std::to_string(*g.pcie_width) + " of x" + std::to_string(*g.pcie_max_width));
      if (g.pcie_gen && g.pcie_max_gen && *g.pcie_gen < *g.pcie_max_gen) {
        bool idle = g.clock_event_reasons && (*g.clock_event_reasons & 0x1);
        std::string t = label(g) + " Gen" + std::to_string(*g.pcie_gen) + " of Gen" + std::to_string(*g.pcie_max_gen);
        (idle ? notes : warns).push_back(idle ? t + " (idle: links train down at idle)" : t);
      }
    }
  } else {
    for (const auto& d : inv.pci_gpus) {
      if (!d.cur_width || !d.max_width) continue;
      ++seen;
      if (*d.cur_width < *d.max_width) warns.push_back(d.bdf + " x" + std::to_string(*d.cur_width) + " of x" + std::to_string(*d.max_width));
    }
  }
  if (seen == 0) return skip(nvml_ok(inv) ? "PCIe link info not reported" : "no GPU PCIe link info in sysfs");
  if (!warns.empty())
    return warn(join_limited(warns, 4), knowledge::doctor_fix("pcie.gpu_link.warn"));
  return pass("PCIe links at full width on " + std::to_string(seen) + " GPU(s)" + (notes.empty() ? "" : "; " + join_limited(notes, 2)));
}

CheckResult check_pcie_replay(const Inventory& inv) {
  NEED_NVML(inv);
  auto s = sweep(inv, [](const NvmlGpu& g, Sweep& s) {
    if (!g.pcie_replay) return;
    ++s.seen;
    if (*g.pcie_replay >= 100) s.warns.push_back(label(g) + " PCIe replay counter " + std::to_string(*g.pcie_replay));
  });
  return verdict(s, "PCIe replay counters below 100", "PCIe replay counter not reported",
                 knowledge::doctor_fix("pcie.replay.warn"), "");
}

CheckResult check_nic_link(const Inventory& inv) {
  std::vector<std::string> warns;
  int seen = 0;
  for (const auto& d : inv.pci_nics) {
    if (!d.cur_width || !d.max_width || *d.max_width == 0) continue;
    ++seen;
    if (*d.cur_width < *d.max_width) warns.push_back(d.bdf + " x" + std::to_string(*d.cur_width) + " of x" + std::to_string(*d.max_width));
    else if (d.cur_speed_gts && d.max_speed_gts && *d.cur_speed_gts < *d.max_speed_gts) {
      char buf[96];
      std::snprintf(buf, sizeof buf, " %.1f of %.1f GT/s", *d.cur_speed_gts, *d.max_speed_gts);
      warns.push_back(d.bdf + buf);
    }
  }
  if (seen == 0) return skip("no NIC with PCIe link information");
  if (!warns.empty()) return warn(join_limited(warns, 4), knowledge::doctor_fix("pcie.nic_link.warn"));
  return pass(std::to_string(seen) + " NIC(s) at full PCIe speed and width");
}

CheckResult check_nvlink_state(const Inventory& inv) {
  NEED_NVML(inv);
  std::vector<std::string> down;
  int active = 0;
  for (const auto& g : inv.nvml.gpus)
    for (const auto& l : g.nvlinks) {
      if (l.active.value_or(false)) ++active;
      else if (l.active) down.push_back(label(g) + " link " + std::to_string(l.link));
    }
  if (active == 0 && down.empty()) return skip("no NVLink on these GPUs");
  if (active == 0) return skip("NVLink present but no link active (not used on this platform)");
  if (!down.empty())
    return fail(std::to_string(down.size()) + " NVLink link(s) inactive: " + join_limited(down, 4),
                knowledge::doctor_fix("nvlink.state.fail"));
  return pass(std::to_string(active) + " NVLink links active");
}

CheckResult check_nvlink_errors(const Inventory& inv) {
  NEED_NVML(inv);
  std::vector<std::string> bad;
  int seen = 0;
  for (const auto& g : inv.nvml.gpus)
    for (const auto& l : g.nvlinks) {
      if (!l.replay && !l.recovery && !l.crc_flit && !l.crc_data) continue;
      ++seen;
      std::vector<std::string> parts;
      for (auto [name, v] : {std::pair{"CRC flit", l.crc_flit}, std::pair{"CRC data", l.crc_data}, std::pair{"replay", l.replay}, std::pair{"recovery", l.recovery}})
        if (v.value_or(0) > 0) parts.push_back(std::string(name) + "=" + std::to_string(*v));
      if (!parts.empty()) bad.push_back(label(g) + " link " + std::to_string(l.link) + " " + core::join(parts, ","));
    }
  if (seen == 0) return skip("NVLink error counters not read (no NVLink, or --quick)");
  if (!bad.empty())
    return warn(std::to_string(bad.size()) + " link(s) with errors: " + join_limited(bad, 4),
                knowledge::doctor_fix("nvlink.errors.warn"));
  return pass("no NVLink CRC/replay/recovery errors on " + std::to_string(seen) + " links");
}

CheckResult check_nvlink_symmetry(const Inventory& inv) {
  NEED_NVML(inv);
  std::map<int, std::vector<std::string>> by_count;
  for (const auto& g : inv.nvml.gpus) {
    if (g.nvlinks.empty()) continue;
    int a = 0;
    for (const auto& l : g.nvlinks) a += l.active.value_or(false);
    by_count[a].push_back("GPU" + std::to_string(g.index));
  }
  if (by_count.empty()) return skip("no NVLink on these GPUs");
  if (by_count.size() > 1) {
    std::vector<std::string> parts;
    for (auto& [n, gs] : by_count) parts.push_back(std::to_string(n) + " active: " + join_limited(gs, 4));
    return warn("GPUs differ in active NVLink count: " + core::join(parts, " | "),
                knowledge::doctor_fix("nvlink.symmetry.warn"));
  }
  return pass("every GPU has " + std::to_string(by_count.begin()->first) + " active NVLink links");
}

CheckResult check_fabric(const Inventory& inv) {
  NEED_NVML(inv);
  auto s = sweep(inv, [](const NvmlGpu& g, Sweep& s) {
    if (!g.fabric_state || *g.fabric_state == 0) return;  // 0 = NOT_SUPPORTED
    ++s.seen;
    if (*g.fabric_state != 3) s.fails.push_back(label(g) + " fabric state " + (*g.fabric_state == 1 ? "NOT_STARTED" : "IN_PROGRESS"));
    else if (g.fabric_status.value_or(0) != 0) s.fails.push_back(label(g) + " fabric registration failed (status " + std::to_string(*g.fabric_status) + ")");
  });
  return verdict(s, "NVSwitch fabric registration completed", "no NVSwitch fabric (GPU fabric info not supported)", "",
                 knowledge::doctor_fix("nvlink.fabric.fail"));
}

CheckResult check_cuda_driver(const Inventory& inv) {
  const auto& c = inv.cuda;
  if (c.driver.state == probe::ProbeState::skipped) return skip(c.driver.detail);
  if (c.init_result && *c.init_result == 34)
    return fail(c.driver.detail + " (" + c.driver_library.value_or("?") + ")", knowledge::doctor_fix("cuda.driver.stub"));
  if (c.driver.state == probe::ProbeState::absent) {
    if (nvml_ok(inv)) return fail("NVML works but libcuda.so.1 does not load: " + c.driver.detail, knowledge::doctor_fix("cuda.driver.no-libcuda"));
    return skip(nvml_skip_reason(inv));
  }
  if (c.driver.state != probe::ProbeState::ok) {
    if (!nvml_ok(inv) && c.init_result && *c.init_result == 100) return skip("no NVIDIA driver: cuInit found no device");
    return fail(c.driver.detail, knowledge::doctor_fix("cuda.driver.failed"));
  }
  return pass("CUDA driver API " + std::to_string(c.driver_version.value_or(0) / 1000) + "." + std::to_string(c.driver_version.value_or(0) % 1000 / 10) +
              ", " + std::to_string(c.device_count.value_or(0)) + " device(s)");
}

CheckResult check_cuda_runtime(const Inventory& inv) {
  const auto& c = inv.cuda;
  if (!c.runtime_version) return skip(c.runtime.state == probe::ProbeState::skipped ? c.runtime.detail : "no libcudart on the loader path: " + c.runtime.detail);
  auto ver = [](int v) { return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10); };
  if (!c.driver_version) return skip("CUDA runtime " + ver(*c.runtime_version) + " found, driver version unknown (" + c.driver.detail + ")");
  if (*c.runtime_version > *c.driver_version)
    return fail("CUDA runtime " + ver(*c.runtime_version) + " is newer than the driver's CUDA " + ver(*c.driver_version),
                knowledge::doctor_fix("cuda.runtime.fail"));
  return pass("CUDA runtime " + ver(*c.runtime_version) + " <= driver " + ver(*c.driver_version));
}

CheckResult check_peer_access(const Inventory& inv) {
  const auto& m = inv.cuda.peer_access;
  if (m.empty()) return skip(inv.cuda.driver.state == probe::ProbeState::ok ? "fewer than 2 CUDA devices, or --quick" : "CUDA driver not usable: " + inv.cuda.driver.detail);
  std::vector<std::string> bad;
  for (std::size_t i = 0; i < m.size(); ++i)
    for (std::size_t j = 0; j < m[i].size(); ++j)
      if (m[i][j] && !*m[i][j]) bad.push_back(std::to_string(i) + "->" + std::to_string(j));
  if (!bad.empty()) return warn("cuDeviceCanAccessPeer false for " + join_limited(bad, 6), knowledge::doctor_fix("cuda.peer_access.warn"));
  return pass("peer access possible between all CUDA device pairs");
}

}  // namespace ncdx::analyze
