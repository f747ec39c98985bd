// Doctor checks on the operating system: driver presence, /dev/shm, ulimits, IOMMU, ACS, CPU
// governor, NUMA, cgroup limits, hostname, kernel XIDs.
#include <set>

#include "analyze/doctor/checks.h"
#include "analyze/doctor/facts.h"
#include "knowledge/doctor_fixes.h"
#include "core/strings.h"

namespace ncdx::analyze {
using probe::Inventory;

namespace {
constexpr std::uint64_t kGiB = 1ULL << 30;
std::string gib(std::uint64_t b) { return core::human_bytes(static_cast<double>(b)); }
}  // namespace

CheckResult check_driver_loaded(const Inventory& inv) {
  std::vector<std::string> unbound;
  for (const auto& g : inv.pci_gpus)
    if (!g.driver || *g.driver != "nvidia") unbound.push_back(g.bdf + (g.driver ? " (driver " + *g.driver + ")" : " (no driver)"));
  if (nvml_ok(inv))
    return unbound.empty() ? pass("driver " + inv.nvml.driver_version.value_or("?") + ", NVML sees " +
                                  std::to_string(inv.nvml.device_count.value_or(0)) + " GPU(s)")
                           : fail("NVML works but these NVIDIA GPUs are not bound to nvidia: " + join_limited(unbound),
                                  knowledge::doctor_fix("os.driver.unbound"));
  if (inv.pci_gpus.empty()) {
    if (inv.nvml.source.state == probe::ProbeState::failed) return fail(inv.nvml.source.detail, knowledge::doctor_fix("os.driver.nvml-failed"));
    return skip("no NVIDIA GPU on PCI");
  }
  std::string ev = std::to_string(inv.pci_gpus.size()) + " NVIDIA GPU(s) on PCI";
  if (!unbound.empty()) ev += ", " + std::to_string(unbound.size()) + " without the nvidia driver: " + join_limited(unbound, 3);
  if (inv.nvml.source.state == probe::ProbeState::skipped) {
    if (unbound.empty()) return pass(ev + "; all bound to nvidia (NVML not probed: " + inv.nvml.source.detail + ")");
    return fail(ev, knowledge::doctor_fix("os.driver.not-loaded"));
  }
  return fail(ev + "; NVML: " + inv.nvml.source.detail,
              knowledge::doctor_fix("os.driver.mismatch"));
}

CheckResult check_shm_size(const Inventory& inv) {
  if (!inv.os.shm_size_bytes) return skip("no /dev/shm tmpfs size in the mount table");
  int gpus = gpu_count(inv);
  std::string ev = "/dev/shm " + gib(*inv.os.shm_size_bytes) + ", " + std::to_string(gpus) + " GPU(s)";
  std::string fix = knowledge::doctor_fix(inv.os.container ? "os.shm_size.container" : "os.shm_size.host");
  if (gpus >= 2 && *inv.os.shm_size_bytes < kGiB) return fail(ev + ": NCCL's SHM transport and PyTorch workers need more than 1 GiB", fix);
  return pass(ev);
}

CheckResult check_shm_free(const Inventory& inv) {
  if (!inv.os.shm_free_bytes) return skip("free space is measured only on the live machine (statvfs)");
  std::string ev = gib(*inv.os.shm_free_bytes) + " free in /dev/shm";
  if (gpu_count(inv) >= 2 && *inv.os.shm_free_bytes < kGiB)
    return warn(ev, knowledge::doctor_fix("os.shm_free.warn"));
  return pass(ev);
}

CheckResult check_memlock(const Inventory& inv) {
  if (!has_ib(inv)) return skip("no InfiniBand/RoCE device: memlock matters for RDMA registration only");
  if (!inv.os.memlock.soft) return skip("/proc/self/limits not readable");
  std::string ev = "memlock soft=" + *inv.os.memlock.soft + " hard=" + inv.os.memlock.hard.value_or("?") + " with " +
                   std::to_string(inv.ib.size()) + " RDMA device(s)";
  if (*inv.os.memlock.soft != "unlimited")
    return fail(ev, knowledge::doctor_fix("os.memlock.fail"));
  return pass(ev);
}

CheckResult check_nofile(const Inventory& inv) {
  if (!inv.os.nofile.soft) return skip("/proc/self/limits not readable");
  auto n = core::parse_int(*inv.os.nofile.soft);
  std::string ev = "nofile soft=" + *inv.os.nofile.soft;
  if (n && *n < 4096) return warn(ev, knowledge::doctor_fix("os.nofile.warn"));
  return pass(ev);
}

CheckResult check_iommu(const Inventory& inv) {
  if (!inv.os.cmdline && !inv.os.iommu_groups) return skip("kernel cmdline and /sys/kernel/iommu_groups not readable");
  int groups = inv.os.iommu_groups.value_or(0);
  if (groups == 0) return pass("IOMMU off (no IOMMU groups)");
  if (inv.os.iommu_passthrough.value_or(false)) return pass("IOMMU on in passthrough mode (iommu=pt), " + std::to_string(groups) + " groups");
  std::string ev = "IOMMU translating DMA (" + std::to_string(groups) + " groups, no iommu=pt on the cmdline)";
  if (gpu_count(inv) == 0) return pass(ev + "; no GPUs");
  return warn(ev + ": GPU peer-to-peer and GPUDirect RDMA traffic is remapped or redirected",
              knowledge::doctor_fix("os.iommu.warn"));
}

CheckResult check_acs(const Inventory& inv) {
  if (inv.acs_source.state == probe::ProbeState::skipped) return skip(inv.acs_source.detail);
  if (inv.acs_source.state == probe::ProbeState::failed) return skip(inv.acs_source.detail);
  std::vector<std::string> bad;
  std::set<std::string> gpus;
  for (const auto& g : inv.pci_gpus) gpus.insert(g.bdf);
  for (const auto& b : inv.acs) {
    if (b.state != probe::AcsState::enabled) continue;
    bool gpu_below = false;
    for (const auto& d : b.below) gpu_below |= gpus.count(d) > 0;
    if (!gpu_below) continue;
    char hex[16];
    std::snprintf(hex, sizeof hex, "0x%04x", b.ctrl.value_or(0));
    bad.push_back(b.bdf + " ACSCtl=" + hex + " above " + join_limited(b.below, 3));
  }
  int unreadable = 0;
  for (const auto& b : inv.acs) unreadable += b.state == probe::AcsState::unreadable;
  if (!bad.empty())
    return fail("ACS P2P redirect enabled on " + std::to_string(bad.size()) + " bridge(s): " + join_limited(bad, 4),
                knowledge::doctor_fix("os.acs.fail"));
  return pass(std::to_string(inv.acs.size()) + " bridge(s) above GPUs/NICs, none redirecting P2P" +
              (unreadable ? " (" + std::to_string(unreadable) + " unreadable)" : ""));
}

CheckResult check_cpu_governor(const Inventory& inv) {
  if (inv.os.governors.empty()) return skip("no cpufreq scaling_governor (VM or no cpufreq driver)");
  std::string ev = "governor(s): " + core::join(inv.os.governors, ", ") + " on " + std::to_string(inv.os.cpus_with_governor.value_or(0)) + " CPUs";
  for (const auto& g : inv.os.governors)
    if (g != "performance")
      return warn(ev, knowledge::doctor_fix("os.cpu_governor.warn"));
  return pass(ev);
}

CheckResult check_numa(const Inventory& inv) {
  if (inv.os.numa_nodes.empty()) return skip("/sys/devices/system/node not readable");
  std::string ev = std::to_string(inv.os.numa_nodes.size()) + " NUMA node(s)";
  if (inv.os.numa_nodes.size() > 1) {
    std::vector<std::string> unknown;
    for (const auto& g : inv.pci_gpus)
      if (!g.numa_node || *g.numa_node < 0) unknown.push_back(g.bdf);
    if (!unknown.empty())
      return warn(ev + "; GPU NUMA node unknown (-1) for " + join_limited(unknown, 4),
                  knowledge::doctor_fix("os.numa.warn"));
  }
  return pass(ev);
}

CheckResult check_cgroup_cpu(const Inventory& inv) {
  if (!inv.os.cgroup_cpu_max) return skip("no cgroup CPU limit file");
  auto f = core::split(*inv.os.cgroup_cpu_max, ' ');
  if (f.empty() || f[0] == "max") return pass("no cgroup CPU quota");
  auto q = core::parse_double(f[0]);
  auto p = f.size() > 1 ? core::parse_double(f[1]) : std::optional<double>(100000);
  if (!q || !p || *p <= 0) return skip("cannot parse cgroup cpu.max '" + *inv.os.cgroup_cpu_max + "'");
  double cpus = *q / *p;
  char buf[64];
  std::snprintf(buf, sizeof buf, "cgroup CPU quota %.1f CPUs", cpus);
  int gpus = gpu_count(inv);
  if (gpus > 0 && cpus < 2.0 * gpus)
    return warn(std::string(buf) + " for " + std::to_string(gpus) + " GPU(s)",
                knowledge::doctor_fix("os.cgroup_cpu.warn"));
  return pass(buf);
}

CheckResult check_cgroup_memory(const Inventory& inv) {
  if (inv.os.cgroup_memory_unlimited) return pass("no cgroup memory limit");
  if (!inv.os.cgroup_memory_max) return skip("no cgroup memory limit file");
  std::string ev = "cgroup memory limit " + gib(*inv.os.cgroup_memory_max);
  if (inv.os.shm_size_bytes && *inv.os.shm_size_bytes > *inv.os.cgroup_memory_max)
    return warn(ev + " is below /dev/shm " + gib(*inv.os.shm_size_bytes) + ": tmpfs pages count against the limit",
                knowledge::doctor_fix("os.cgroup_memory.warn"));
  return pass(ev);
}

CheckResult check_hostname(const Inventory& inv) {
  if (!inv.os.hostname) return skip("/proc/sys/kernel/hostname not readable");
  if (inv.os.hostname->empty() || *inv.os.hostname == "localhost" || *inv.os.hostname == "localhost.localdomain")
    return warn("hostname '" + *inv.os.hostname + "'", knowledge::doctor_fix("os.hostname.warn"));
  return pass("hostname " + *inv.os.hostname);
}

CheckResult check_xid(const Inventory& inv) {
  if (inv.kmsg.source.state != probe::ProbeState::ok) return skip("kernel messages not read: " + inv.kmsg.source.detail);
  if (inv.kmsg.xids.empty())
    return pass("no NVIDIA XID in " + std::to_string(inv.kmsg.lines.value_or(0)) + " kernel messages (" + inv.kmsg.source.detail + ")");
  std::vector<std::string> items;
  bool fatal = false;
  for (const auto& x : inv.kmsg.xids) {
    auto info = xid_info(x.xid);
    fatal |= info.fatal;
    items.push_back("XID " + std::to_string(x.xid) + " on " + x.pci + " (" + info.meaning + ")");
  }
  std::sort(items.begin(), items.end());
  items.erase(std::unique(items.begin(), items.end()), items.end());
  std::string ev = std::to_string(inv.kmsg.xids.size()) + " XID event(s) since boot: " + join_limited(items, 4);
  if (fatal) return fail(ev, knowledge::doctor_fix("kernel.xid.fail"));
  return warn(ev, knowledge::doctor_fix("kernel.xid.warn"));
}

}  // namespace ncdx::analyze
