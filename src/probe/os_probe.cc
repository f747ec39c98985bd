#include "probe/os_probe.h"

#include <set>
#include <sys/statvfs.h>

#include "core/strings.h"

namespace ncdx::probe {
namespace {

Limit parse_limit(std::string_view limits, std::string_view name) {
  Limit out;
  for (auto line : core::split(limits, '\n')) {
    if (!line.starts_with(name)) continue;
    // Columns are aligned with spaces; values follow the name.
    auto rest = line.substr(name.size());
    std::vector<std::string> cols;
    for (auto tok : core::split(rest, ' '))
      if (!tok.empty()) cols.emplace_back(tok);
    if (cols.size() >= 2) {
      out.soft = cols[0];
      out.hard = cols[1];
    }
  }
  return out;
}

std::optional<std::string> detect_container(const SysReader& r) {
  if (r.exists("/.dockerenv")) return "docker";
  if (r.exists("/run/.containerenv")) return "podman";
  // /proc/1/environ would tell too, but it holds secrets and must never reach a bundle.
  if (auto cg = r.text("/proc/self/cgroup")) {
    if (cg->find("kubepods") != std::string::npos) return "kubernetes";
    if (cg->find("docker") != std::string::npos) return "docker";
    if (cg->find("containerd") != std::string::npos) return "containerd";
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::uint64_t> parse_tmpfs_size(std::string_view v, std::optional<std::uint64_t> mem_total) {
  if (v.empty()) return std::nullopt;
  char suffix = v.back();
  std::uint64_t mult = 1;
  std::string_view num = v;
  if (suffix == '%') {
    auto p = core::parse_int(v.substr(0, v.size() - 1));
    if (!p || !mem_total) return std::nullopt;
    return *mem_total / 100 * static_cast<std::uint64_t>(*p);
  }
  switch (suffix) {
    case 'k': case 'K': mult = 1ULL << 10; break;
    case 'm': case 'M': mult = 1ULL << 20; break;
    case 'g': case 'G': mult = 1ULL << 30; break;
    default: mult = 0;
  }
  if (mult) num = v.substr(0, v.size() - 1); else mult = 1;
  auto p = core::parse_int(num);
  if (!p || *p < 0) return std::nullopt;
  return static_cast<std::uint64_t>(*p) * mult;
}

std::optional<std::uint64_t> shm_size_from_mounts(std::string_view mounts, std::optional<std::uint64_t> mem_total,
                                                  std::string* line_out) {
  std::optional<std::uint64_t> size;
  for (auto line : core::split(mounts, '\n')) {
    auto f = core::split(line, ' ');
    if (f.size() < 4 || f[1] != "/dev/shm") continue;
    if (line_out) *line_out = std::string(line);
    size.reset();  // the last mount on /dev/shm wins (it hides the earlier ones)
    bool found = false;
    for (auto opt : core::split(f[3], ','))
      if (opt.starts_with("size=")) {
        size = parse_tmpfs_size(opt.substr(5), mem_total);
        found = true;
      }
    if (!found && f[2] == "tmpfs" && mem_total) size = *mem_total / 2;  // tmpfs default
  }
  return size;
}

OsInfo probe_os(const SysReader& r) {
  OsInfo os;
  os.hostname = r.text("/proc/sys/kernel/hostname");
  os.kernel = r.text("/proc/sys/kernel/osrelease");
  if (auto v = r.text("/proc/driver/nvidia/version")) {
    auto first = std::string(core::split(*v, '\n')[0]);
    os.driver_banner = first;
    // "NVRM version: NVIDIA UNIX x86_64 Kernel Module  570.124.06  Thu ..."
    auto pos = first.find("Kernel Module");
    if (pos != std::string::npos) {
      std::string rest = first.substr(pos + 13);  // split() returns views: keep the string alive
      for (auto tok : core::split(rest, ' '))
        if (!tok.empty()) {
          os.driver_version = std::string(tok);
          break;
        }
    }
  }
  if (auto mi = r.text("/proc/meminfo"))
    for (auto line : core::split(*mi, '\n'))
      if (line.starts_with("MemTotal:")) {
        for (auto tok : core::split(line.substr(9), ' '))
          if (auto n = core::parse_int(tok)) os.mem_total_bytes = static_cast<std::uint64_t>(*n) * 1024;
      }
  auto mounts = r.text("/proc/self/mounts");
  if (!mounts) mounts = r.text("/proc/mounts");
  if (mounts) {
    std::string line;
    os.shm_size_bytes = shm_size_from_mounts(*mounts, os.mem_total_bytes, &line);
    if (!line.empty()) os.shm_source = line;
  }
  if (r.live()) {
    struct statvfs st{};
    if (statvfs("/dev/shm", &st) == 0) os.shm_free_bytes = static_cast<std::uint64_t>(st.f_bavail) * st.f_frsize;
  }
  if (auto lim = r.text("/proc/self/limits")) {
    os.memlock = parse_limit(*lim, "Max locked memory");
    os.nofile = parse_limit(*lim, "Max open files");
  }
  os.cmdline = r.text("/proc/cmdline");
  if (r.exists("/sys/kernel/iommu_groups")) os.iommu_groups = static_cast<int>(r.list("/sys/kernel/iommu_groups").size());
  if (os.cmdline) {
    bool pt = false;
    for (auto tok : core::split(*os.cmdline, ' '))
      if (tok == "iommu=pt" || tok == "iommu.passthrough=1") pt = true;
    os.iommu_passthrough = pt;
  }
  for (const auto& n : r.list("/sys/devices/system/node"))
    if (n.starts_with("node") && n.size() > 4 && std::isdigit(static_cast<unsigned char>(n[4])))
      os.numa_nodes.push_back(n + ": " + r.text("/sys/devices/system/node/" + n + "/cpulist").value_or("?"));
  std::set<std::string> govs;
  int with = 0;
  for (const auto& c : r.list("/sys/devices/system/cpu")) {
    if (!c.starts_with("cpu") || c.size() < 4 || !std::isdigit(static_cast<unsigned char>(c[3]))) continue;
    if (auto g = r.text("/sys/devices/system/cpu/" + c + "/cpufreq/scaling_governor")) {
      govs.insert(*g);
      ++with;
    }
  }
  os.governors.assign(govs.begin(), govs.end());
  if (with) os.cpus_with_governor = with;
  os.container = detect_container(r);
  if (auto v = r.text("/sys/fs/cgroup/cpu.max")) os.cgroup_cpu_max = *v;
  else if (auto q = r.text("/sys/fs/cgroup/cpu/cpu.cfs_quota_us"); q && *q != "-1")
    os.cgroup_cpu_max = *q + " " + r.text("/sys/fs/cgroup/cpu/cpu.cfs_period_us").value_or("100000");
  auto mem = r.text("/sys/fs/cgroup/memory.max");
  if (!mem) mem = r.text("/sys/fs/cgroup/memory/memory.limit_in_bytes");
  if (mem) {
    auto n = core::parse_int(*mem);
    // cgroup v1 prints a huge page-aligned number for "no limit".
    if (*mem == "max" || (n && *n >= (1LL << 62))) os.cgroup_memory_unlimited = true;
    else if (n) os.cgroup_memory_max = static_cast<std::uint64_t>(*n);
  }
  if (auto mods = r.text("/proc/modules")) {
    os.modules_known = true;
    static const std::set<std::string> interesting = {
        "nvidia", "nvidia_uvm", "nvidia_peermem", "nv_peer_mem", "nvidia_fs", "gdrdrv", "ib_core",
        "mlx5_core", "mlx5_ib", "ib_uverbs", "rdma_ucm", "efa"};
    for (auto line : core::split(*mods, '\n')) {
      auto name = std::string(core::split(line, ' ')[0]);
      if (interesting.count(name)) os.modules.push_back(name);
    }
  }
  return os;
}

}  // namespace ncdx::probe
