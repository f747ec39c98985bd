#include "probe/topo_matrix.h"

#include <algorithm>
#include <cctype>
#include <set>

#include "core/ranges.h"
#include "core/strings.h"

namespace ncdx::probe {

std::string to_string(const Link& l) {
  switch (l.type) {
    case LinkType::self: return "X";
    case LinkType::nvlink: return "NV" + std::to_string(l.nvlinks);
    case LinkType::pix: return "PIX";
    case LinkType::pxb: return "PXB";
    case LinkType::phb: return "PHB";
    case LinkType::node: return "NODE";
    case LinkType::sys: return "SYS";
    case LinkType::soc: return "SOC";
    case LinkType::unknown: break;
  }
  return "?";
}

std::optional<Link> parse_link_code(std::string_view cell) {
  cell = core::trim(cell);
  if (cell == "X") return Link{LinkType::self, 0};
  if (cell == "PIX") return Link{LinkType::pix, 0};
  if (cell == "PXB") return Link{LinkType::pxb, 0};
  if (cell == "PHB") return Link{LinkType::phb, 0};
  if (cell == "NODE") return Link{LinkType::node, 0};
  if (cell == "SYS") return Link{LinkType::sys, 0};
  if (cell == "SOC") return Link{LinkType::soc, 0};
  if (cell.size() > 2 && cell.size() <= 5 && cell.substr(0, 2) == "NV") {
    auto digits = cell.substr(2);
    if (!std::all_of(digits.begin(), digits.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
      return std::nullopt;
    auto n = core::parse_int(digits);
    // NVLink counts per GPU pair are small (NV1..NV18 today); bound them to reject junk.
    if (!n || *n < 1 || *n > 64) return std::nullopt;
    return Link{LinkType::nvlink, static_cast<int>(*n)};
  }
  return std::nullopt;
}

int rank(const Link& l) {
  switch (l.type) {
    case LinkType::self: return 0;
    case LinkType::nvlink: return 1;
    case LinkType::pix: return 2;
    case LinkType::pxb: return 3;
    case LinkType::phb: return 4;
    case LinkType::node: return 5;
    case LinkType::sys:
    case LinkType::soc: return 6;
    case LinkType::unknown: break;
  }
  return 7;
}

std::string nccl_path_name(const Link& l) {
  switch (l.type) {
    case LinkType::self: return "LOC";
    case LinkType::nvlink: return "NVL";
    case LinkType::pix: return "PIX";
    case LinkType::pxb: return "PXB";
    case LinkType::phb:
    case LinkType::node: return "PHB";  // NCCL has no NODE: both go through the CPU (PATH_PHB)
    case LinkType::sys:
    case LinkType::soc: return "SYS";
    case LinkType::unknown: break;
  }
  return "";
}

Link link_from_nvml_level(int level) {
  switch (level) {
    case 0: return {LinkType::self, 0};   // NVML_TOPOLOGY_INTERNAL
    case 10: return {LinkType::pix, 0};   // NVML_TOPOLOGY_SINGLE
    case 20: return {LinkType::pxb, 0};   // NVML_TOPOLOGY_MULTIPLE
    case 30: return {LinkType::phb, 0};   // NVML_TOPOLOGY_HOSTBRIDGE
    case 40: return {LinkType::node, 0};  // NVML_TOPOLOGY_NODE
    case 50: return {LinkType::sys, 0};   // NVML_TOPOLOGY_SYSTEM
    default: return {};
  }
}

void TopoMatrix::reset_links() {
  const auto n = devices();
  links.assign(n * n, Link{});
  for (std::size_t i = 0; i < n; ++i) at(i, i) = Link{LinkType::self, 0};
}

std::string TopoMatrix::label(std::size_t device) const {
  if (device < gpus.size()) return "GPU" + std::to_string(gpus[device].index);
  const auto& nic = nics.at(device - gpus.size());
  return nic.label.empty() ? "NIC" + std::to_string(device - gpus.size()) : nic.label;
}

bool TopoMatrix::any_nvlink() const {
  for (std::size_t i = 0; i < gpus.size(); ++i)
    for (std::size_t j = 0; j < gpus.size(); ++j)
      if (i != j && gpu_gpu(i, j).is_nvlink()) return true;
  return false;
}

std::optional<std::vector<int>> parse_cpulist(std::string_view s) {
  std::set<int> cpus;
  s = core::trim(s);
  if (s.empty()) return std::vector<int>{};
  for (auto part : core::split(s, ',')) {
    part = core::trim(part);
    auto dash = part.find('-');
    auto lo = core::parse_int(part.substr(0, dash));
    auto hi = dash == std::string_view::npos ? lo : core::parse_int(part.substr(dash + 1));
    // Bound the range so "0-999999999" cannot allocate gigabytes.
    if (!lo || !hi || *lo < 0 || *hi < *lo || *hi > 65535) return std::nullopt;
    for (long long c = *lo; c <= *hi; ++c) cpus.insert(static_cast<int>(c));
  }
  return std::vector<int>(cpus.begin(), cpus.end());
}

std::string format_cpulist(const std::vector<int>& cpus) { return core::format_ranges(cpus); }

std::optional<std::string> cpumask_to_cpulist(std::string_view mask) {
  // Words are comma separated, most significant first, 32 bits each (Linux cpumask format).
  auto words = core::split(core::trim(mask), ',');
  if (words.empty() || words.size() > 2048) return std::nullopt;
  std::vector<int> cpus;
  int base = 0;
  for (auto it = words.rbegin(); it != words.rend(); ++it, base += 32) {
    auto w = core::trim(*it);
    if (w.empty() || w.size() > 8) return std::nullopt;
    unsigned long v = 0;
    for (char c : w) {
      int d = std::isdigit(static_cast<unsigned char>(c)) ? c - '0'
              : (c >= 'a' && c <= 'f')                    ? c - 'a' + 10
              : (c >= 'A' && c <= 'F')                    ? c - 'A' + 10
                                                          : -1;
      if (d < 0) return std::nullopt;
      v = v * 16 + static_cast<unsigned long>(d);
    }
    for (int b = 0; b < 32; ++b)
      if (v & (1ul << b)) cpus.push_back(base + b);
  }
  return format_cpulist(cpus);
}

}  // namespace ncdx::probe
