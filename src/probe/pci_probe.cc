#include "probe/pci_probe.h"

#include <map>

#include "core/strings.h"

namespace ncdx::probe {

std::optional<double> parse_link_speed(std::string_view s) {
  auto tok = core::split(core::trim(s), ' ');
  if (tok.empty()) return std::nullopt;
  return core::parse_double(tok[0]);
}

std::optional<int> pcie_gen_from_speed(double gts) {
  if (gts <= 0) return std::nullopt;
  if (gts < 4) return 1;
  if (gts < 7) return 2;
  if (gts < 12) return 3;
  if (gts < 24) return 4;
  if (gts < 48) return 5;
  if (gts < 96) return 6;
  return 7;
}

PciDevice read_pci_device(const SysReader& r, const std::string& bdf) {
  PciDevice d;
  d.bdf = bdf;
  std::string real = r.resolve("/sys/bus/pci/devices/" + bdf);
  // /sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0 -> root pci0000:00, path of bdfs.
  for (auto part : core::split(real, '/')) {
    if (part.starts_with("pci")) d.root = std::string(part);
    else if (!d.root.empty() && part.find(':') != std::string_view::npos) d.path.emplace_back(part);
  }
  std::string base = real;
  d.vendor = r.text(base + "/vendor");
  d.device = r.text(base + "/device");
  d.klass = r.text(base + "/class");
  if (auto n = r.integer(base + "/numa_node")) d.numa_node = static_cast<int>(*n);
  if (auto s = r.text(base + "/current_link_speed")) d.cur_speed_gts = parse_link_speed(*s);
  if (auto s = r.text(base + "/max_link_speed")) d.max_speed_gts = parse_link_speed(*s);
  if (auto w = r.integer(base + "/current_link_width")) d.cur_width = static_cast<int>(*w);
  if (auto w = r.integer(base + "/max_link_width")) d.max_width = static_cast<int>(*w);
  if (auto l = r.link(base + "/driver")) d.driver = l->substr(l->rfind('/') + 1);
  return d;
}

PciScan probe_pci(const SysReader& r) {
  PciScan out;
  for (const auto& bdf : r.list("/sys/bus/pci/devices")) {
    auto klass = r.text("/sys/bus/pci/devices/" + bdf + "/class");
    auto vendor = r.text("/sys/bus/pci/devices/" + bdf + "/vendor");
    if (!klass) continue;
    bool nvidia_gpu = vendor && core::to_lower(*vendor) == "0x10de" && klass->starts_with("0x03");
    bool nic = klass->starts_with("0x02");  // network controllers, InfiniBand included (0x0207)
    if (nvidia_gpu) out.gpus.push_back(read_pci_device(r, bdf));
    else if (nic) out.nics.push_back(read_pci_device(r, bdf));
  }
  return out;
}

std::optional<int> acs_control_from_config(std::string_view cfg) {
  if (cfg.size() <= 256) return std::nullopt;
  auto u32 = [&](std::size_t off) -> std::uint32_t {
    return static_cast<std::uint8_t>(cfg[off]) | static_cast<std::uint8_t>(cfg[off + 1]) << 8 |
           static_cast<std::uint8_t>(cfg[off + 2]) << 16 | static_cast<std::uint32_t>(static_cast<std::uint8_t>(cfg[off + 3])) << 24;
  };
  std::size_t off = 0x100;
  for (int guard = 0; guard < 64 && off >= 0x100 && off + 8 <= cfg.size(); ++guard) {
    std::uint32_t h = u32(off);
    if (h == 0 || h == 0xffffffff) break;
    if ((h & 0xffff) == 0x000d) return static_cast<int>(u32(off + 4) >> 16);  // ACS Control at +6
    off = (h >> 20) & 0xffc;
  }
  return -1;
}

std::vector<AcsBridge> probe_acs(const SysReader& r, const std::vector<PciDevice>& devices, SourceState& state) {
  std::map<std::string, AcsBridge> bridges;
  int unreadable = 0, read = 0;
  for (const auto& d : devices) {
    for (std::size_t i = 0; i + 1 < d.path.size(); ++i) {
      const std::string& b = d.path[i];
      auto& br = bridges[b];
      br.below.push_back(d.bdf);
      if (!br.bdf.empty()) continue;
      br.bdf = b;
      auto cfg = r.raw("/sys/bus/pci/devices/" + b + "/config", 4096);
      auto ctrl = cfg ? acs_control_from_config(*cfg) : std::nullopt;
      if (!ctrl) {
        br.state = AcsState::unreadable;
        ++unreadable;
      } else if (*ctrl < 0) {
        br.state = AcsState::absent;
        ++read;
      } else {
        br.ctrl = *ctrl;
        // P2P Request Redirect (bit 2), Completion Redirect (3), Egress Control (5) route
        // peer traffic through the root complex.
        br.state = (*ctrl & 0x2c) ? AcsState::enabled : AcsState::disabled;
        ++read;
      }
    }
  }
  std::vector<AcsBridge> out;
  for (auto& [k, v] : bridges) out.push_back(std::move(v));
  if (out.empty()) state = {ProbeState::skipped, "no PCI bridges above GPUs or NICs"};
  else if (read == 0) state = {ProbeState::failed, "PCI config space beyond 256 bytes is not readable (needs root)"};
  else state = {ProbeState::ok, unreadable ? std::to_string(unreadable) + " bridges unreadable" : ""};
  return out;
}

}  // namespace ncdx::probe
