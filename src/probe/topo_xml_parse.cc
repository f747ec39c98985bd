#include "probe/topo_xml_parse.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "core/strings.h"
#include "probe/xml_reader.h"

namespace ncdx::probe {
namespace {

using core::Status;

// One GPU or NIC found in the tree, with where it hangs.
struct Found {
  bool is_gpu = false;
  const XmlElement* el = nullptr;       // the <pci> (or <nic> for CPU-attached NICs)
  int cpu = -1;                         // index of the enclosing <cpu>
  std::vector<const XmlElement*> bridges;  // PCI bridges from the CPU down to the device
  Gpu gpu;
  Nic nic;
};

std::optional<unsigned long> parse_hex(std::string_view s) {
  s = core::trim(s);
  if (s.substr(0, 2) == "0x" || s.substr(0, 2) == "0X") s.remove_prefix(2);
  if (s.empty() || s.size() > 8) return std::nullopt;
  unsigned long v = 0;
  for (char c : s) {
    if (!std::isxdigit(static_cast<unsigned char>(c))) return std::nullopt;
    v = v * 16 + static_cast<unsigned long>(std::isdigit(static_cast<unsigned char>(c)) ? c - '0'
                                                                                       : std::tolower(c) - 'a' + 10);
  }
  return v;
}

// "16 GT/s", "32.0 GT/s PCIe", "32 GT/s PCIe/s", "" -> GT/s.
std::optional<double> parse_gts(std::string_view s) {
  s = core::trim(s);
  std::size_t k = 0;
  while (k < s.size() && (std::isdigit(static_cast<unsigned char>(s[k])) || s[k] == '.')) ++k;
  auto v = core::parse_double(s.substr(0, k));
  if (!v || *v <= 0 || *v > 1000) return std::nullopt;
  return v;
}

enum class PciKind { bridge, gpu, nic, other };

PciKind classify(const XmlElement& pci) {
  if (auto cls = pci.attr("class")) {
    if (auto v = parse_hex(*cls)) {
      unsigned long base = *v >> 16, sub = (*v >> 8) & 0xff;
      if (base == 0x03) return PciKind::gpu;
      if (base == 0x02) return PciKind::nic;
      if (base == 0x06 && sub == 0x04) return PciKind::bridge;
      return PciKind::other;  // NVSwitch (0x0680), storage, ...
    }
  }
  // No class (minimal vendor files): infer from the content.
  for (const auto& c : pci.children) {
    if (c.name == "gpu") return PciKind::gpu;
    if (c.name == "nic") return PciKind::nic;
  }
  for (const auto& c : pci.children)
    if (c.name == "pci") return PciKind::bridge;
  return PciKind::other;
}

std::string lower(std::string_view s) { return core::to_lower(core::trim(s)); }

class Builder {
 public:
  explicit Builder(std::string_view src) : src_(src) {}

  core::Result<TopoMatrix> build(const XmlElement& root) {
    if (root.name == "graphs")
      return Status::bad_input(std::string(src_) + ":" + std::to_string(root.line) +
                               ": this is an NCCL graph file (NCCL_GRAPH_FILE: <graphs>), not a topology "
                               "file (NCCL_TOPO_FILE / NCCL_TOPO_DUMP_FILE: <system>)");
    if (root.name != "system")
      return Status::bad_input(at(root) + "root element is <" + root.name + ">, expected <system>");
    int cpu_index = 0;
    for (const auto& c : root.children) {
      if (c.name != "cpu") continue;
      CpuInfo info;
      if (auto n = c.attr("numaid")) {
        auto v = core::parse_int(*n);
        if (!v || *v < 0 || *v > 4095) return Status::bad_input(at(c) + "numaid '" + std::string(*n) + "' is not a NUMA node");
        info.numa = static_cast<int>(*v);
      }
      if (auto a = c.attr("affinity"); a && !core::trim(*a).empty()) {
        auto list = cpumask_to_cpulist(*a);
        if (!list) return Status::bad_input(at(c) + "affinity '" + std::string(*a) + "' is not a CPU mask");
        info.affinity = *list;
      }
      cpus_.push_back(info);
      std::vector<const XmlElement*> chain;
      for (const auto& d : c.children) {
        if (d.name == "pci") {
          if (auto st = walk(d, cpu_index, chain, 1); !st) return st;
        } else if (d.name == "nic") {
          add_nics(d, nullptr, cpu_index, chain);
        }
      }
      ++cpu_index;
    }
    return finish(root);
  }

 private:
  struct CpuInfo {
    std::optional<int> numa;
    std::string affinity;
  };
  std::string_view src_;
  std::vector<CpuInfo> cpus_;
  std::vector<Found> found_;
  std::vector<std::string> notes_;
  int unclassified_ = 0;

  std::string at(const XmlElement& e) const { return std::string(src_) + ":" + std::to_string(e.line) + ": "; }

  core::Status walk(const XmlElement& pci, int cpu, std::vector<const XmlElement*>& chain, int depth) {
    if (depth > 32) return Status::bad_input(at(pci) + "PCI tree deeper than 32 levels");
    if (!pci.attr("busid")) return Status::bad_input(at(pci) + "<pci> without a busid attribute");
    if (found_.size() > 4096) return Status::bad_input(at(pci) + "more than 4096 devices");
    switch (classify(pci)) {
      case PciKind::bridge:
        chain.push_back(&pci);
        for (const auto& c : pci.children)
          if (c.name == "pci")
            if (auto st = walk(c, cpu, chain, depth + 1); !st) return st;
        chain.pop_back();
        return {};
      case PciKind::gpu: return add_gpu(pci, cpu, chain);
      case PciKind::nic: {
        bool any = false;
        for (const auto& c : pci.children)
          if (c.name == "nic") any |= add_nics(c, &pci, cpu, chain);
        if (!any) add_nic(nullptr, &pci, cpu, chain);
        return {};
      }
      case PciKind::other:
        if (!pci.attr("class")) ++unclassified_;
        return {};
    }
    return {};
  }

  void fill_pcie(const XmlElement& pci, std::optional<double>& gts, std::optional<int>& width) {
    if (auto s = pci.attr("link_speed")) gts = parse_gts(*s);
    if (auto w = pci.attr("link_width")) {
      auto v = core::parse_int(core::trim(*w));
      if (v && *v > 0 && *v <= 32) width = static_cast<int>(*v);
    }
  }

  core::Status add_gpu(const XmlElement& pci, int cpu, const std::vector<const XmlElement*>& chain) {
    Found f;
    f.is_gpu = true;
    f.el = &pci;
    f.cpu = cpu;
    f.bridges = chain;
    f.gpu.index = -1;
    f.gpu.bus_id = lower(*pci.attr("busid"));
    f.gpu.numa_node = cpus_[static_cast<std::size_t>(cpu)].numa;
    f.gpu.cpu_affinity = cpus_[static_cast<std::size_t>(cpu)].affinity;
    fill_pcie(pci, f.gpu.pcie_gts, f.gpu.pcie_width);
    for (const auto& c : pci.children) {
      if (c.name != "gpu") continue;
      if (auto d = c.attr("dev")) {
        auto v = core::parse_int(core::trim(*d));
        if (!v || *v < 0 || *v > 4095) return Status::bad_input(at(c) + "gpu dev '" + std::string(*d) + "' is not a device index");
        f.gpu.index = static_cast<int>(*v);
      }
      if (auto s = c.attr("sm")) {
        auto v = core::parse_int(core::trim(*s));
        if (!v || *v < 10 || *v > 1000) return Status::bad_input(at(c) + "gpu sm '" + std::string(*s) + "' is not a compute capability");
        f.gpu.sm = static_cast<int>(*v);
      }
    }
    found_.push_back(std::move(f));
    return {};
  }

  bool add_nics(const XmlElement& nic, const XmlElement* pci, int cpu, const std::vector<const XmlElement*>& chain) {
    bool any = false;
    for (const auto& n : nic.children)
      if (n.name == "net") add_nic(&n, pci, cpu, chain), any = true;
    if (!any && !pci) add_nic(nullptr, nullptr, cpu, chain), any = true;
    return any;
  }

  void add_nic(const XmlElement* net, const XmlElement* pci, int cpu, const std::vector<const XmlElement*>& chain) {
    Found f;
    f.el = pci;
    f.cpu = cpu;
    f.bridges = chain;
    f.nic.numa_node = cpus_[static_cast<std::size_t>(cpu)].numa;
    if (pci) f.nic.bus_id = lower(*pci->attr("busid"));
    if (net) {
      if (auto n = net->attr("name")) f.nic.name = std::string(core::trim(*n)).substr(0, 64);
      if (auto s = net->attr("speed")) {
        auto v = core::parse_double(core::trim(*s));
        if (v && *v > 0 && *v < 1e8) f.nic.port_gbps = *v / 1000.0;  // NCCL speed is Mb/s
      }
    }
    found_.push_back(std::move(f));
  }

  Link path(const Found& a, const Found& b) const {
    if (a.cpu != b.cpu) return {LinkType::sys, 0};
    std::size_t common = 0;
    while (common < a.bridges.size() && common < b.bridges.size() && a.bridges[common] == b.bridges[common]) ++common;
    if (common == 0) return {LinkType::node, 0};
    std::size_t crossed = (a.bridges.size() - common) + (b.bridges.size() - common) + 1;
    return {crossed == 1 ? LinkType::pix : LinkType::pxb, 0};
  }

  core::Result<TopoMatrix> finish(const XmlElement& root) {
    std::vector<std::size_t> gpus, nics;
    for (std::size_t i = 0; i < found_.size(); ++i) (found_[i].is_gpu ? gpus : nics).push_back(i);
    if (gpus.empty()) {
      std::string why = unclassified_ ? "; its " + std::to_string(unclassified_) +
                                            " PCI devices have no class (a partial file that NCCL merges "
                                            "with the topology it detects)"
                                      : "";
      return Status::bad_input(at(root) + "no GPU in this topology file (no <pci class=\"0x03....\"> and no <gpu>)" + why);
    }
    // Indices: <gpu dev=> where given; the others in PCI bus id order after them (NVML's order).
    std::set<int> used;
    for (auto i : gpus) {
      int idx = found_[i].gpu.index;
      if (idx >= 0 && !used.insert(idx).second)
        return Status::bad_input(at(*found_[i].el) + "two GPUs have dev=\"" + std::to_string(idx) + "\"");
    }
    std::vector<std::size_t> unnamed;
    for (auto i : gpus)
      if (found_[i].gpu.index < 0) unnamed.push_back(i);
    std::sort(unnamed.begin(), unnamed.end(), [&](auto x, auto y) { return found_[x].gpu.bus_id < found_[y].gpu.bus_id; });
    int next = 0;
    for (auto i : unnamed) {
      while (used.count(next)) ++next;
      found_[i].gpu.index = next;
      used.insert(next);
    }
    if (!unnamed.empty()) notes_.push_back("GPU indices assigned in PCI bus id order (the file has no <gpu dev=>)");
    std::sort(gpus.begin(), gpus.end(), [&](auto x, auto y) { return found_[x].gpu.index < found_[y].gpu.index; });

    TopoMatrix m;
    m.source = "nccl-xml";
    for (auto i : gpus) m.gpus.push_back(found_[i].gpu);
    for (std::size_t k = 0; k < nics.size(); ++k) {
      Nic n = found_[nics[k]].nic;
      n.label = "NIC" + std::to_string(k);
      m.nics.push_back(n);
    }
    m.reset_links();
    std::vector<std::size_t> order = gpus;
    order.insert(order.end(), nics.begin(), nics.end());
    for (std::size_t a = 0; a < order.size(); ++a)
      for (std::size_t b = 0; b < order.size(); ++b)
        if (a != b) m.at(a, b) = path(found_[order[a]], found_[order[b]]);
    if (auto st = nvlinks(m, gpus); !st) return st;
    if (unclassified_) notes_.push_back(std::to_string(unclassified_) + " PCI devices without a class were ignored");
    m.notes = std::move(notes_);
    return m;
  }

  core::Status nvlinks(TopoMatrix& m, const std::vector<std::size_t>& gpus) {
    std::map<std::string, std::size_t> by_bus;
    for (std::size_t g = 0; g < gpus.size(); ++g) by_bus[m.gpus[g].bus_id] = g;
    std::vector<int> to_switch(gpus.size(), 0);
    bool any_element = false;
    std::vector<std::vector<int>> direct(gpus.size(), std::vector<int>(gpus.size(), 0));
    for (std::size_t g = 0; g < gpus.size(); ++g) {
      for (const auto& gpu_el : found_[gpus[g]].el->children) {
        if (gpu_el.name != "gpu") continue;
        for (const auto& l : gpu_el.children) {
          if (l.name != "nvlink") continue;
          any_element = true;
          auto count = core::parse_int(core::trim(l.attr("count").value_or("")));
          if (!count || *count < 1 || *count > 64)
            return Status::bad_input(at(l) + "nvlink count must be 1..64");
          auto tclass = parse_hex(l.attr("tclass").value_or("")).value_or(0);
          auto target = lower(l.attr("target").value_or(""));
          if (tclass == 0x068000) {
            to_switch[g] += static_cast<int>(*count);
          } else if ((tclass >> 16) == 0x03) {
            auto it = by_bus.find(target);
            if (it == by_bus.end()) {
              notes_.push_back(m.label(g) + ": <nvlink target=\"" + target + "\"> names no GPU of this file; ignored");
            } else if (it->second == g) {
              notes_.push_back(m.label(g) + ": <nvlink target> names the GPU itself; ignored");
            } else {
              direct[g][it->second] = static_cast<int>(*count);
            }
          } else {
            notes_.push_back(m.label(g) + ": NVLink to a non-GPU, non-NVSwitch device (C2C/CPU) ignored");
          }
        }
      }
    }
    if (!any_element && gpus.size() > 1)
      notes_.push_back("the file lists no <nvlink>: GPU-to-GPU codes are PCIe paths only (NCCL finds NVLinks "
                       "through NVML at run time)");
    for (std::size_t a = 0; a < gpus.size(); ++a)
      for (std::size_t b = 0; b < gpus.size(); ++b) {
        if (a == b) continue;
        // A pair listed both ways must not count twice; through NVSwitches the pair gets the
        // smaller of the two GPUs' link counts (what nvidia-smi prints on HGX: NV18).
        int n = std::max(direct[a][b], direct[b][a]);
        if (to_switch[a] && to_switch[b]) n = std::max(n, std::min(to_switch[a], to_switch[b]));
        if (n > 0) m.at(a, b) = Link{LinkType::nvlink, n};
      }
    return {};
  }
};

}  // namespace

core::Result<TopoMatrix> parse_nccl_topo_xml(std::string_view text, std::string_view source_name) {
  auto doc = parse_xml(text, source_name);
  if (!doc) return doc.status();
  return Builder(source_name).build(*doc);
}

}  // namespace ncdx::probe
