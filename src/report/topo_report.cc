#include "report/topo_report.h"

#include <algorithm>
#include <cctype>
#include <sstream>

#include "core/json.h"
#include "core/outcome.h"
#include "core/strings.h"
#include "core/term.h"
#include "probe/topo_json.h"
#include "report/summary_json.h"

namespace ncdx::report {

using probe::LinkType;

namespace {

std::string pad(const std::string& s, std::size_t w) {
  return s.size() >= w ? s : s + std::string(w - s.size(), ' ');
}

core::Color color_of(const probe::Link& l) {
  switch (l.type) {
    case LinkType::nvlink: return core::Color::green;
    case LinkType::pix:
    case LinkType::pxb: return core::Color::blue;
    case LinkType::sys:
    case LinkType::soc: return core::Color::yellow;
    default: return core::Color::none;
  }
}

std::string gpu_list(const probe::TopoMatrix& m, const analyze::TopoPick& p, const char* sep, bool prefix) {
  std::vector<std::string> v;
  for (auto g : p.gpus) v.push_back((prefix ? "GPU" : "") + std::to_string(m.gpus[g].index));
  return core::join(v, sep);
}

std::string nic_names(const probe::TopoMatrix& m, const std::vector<std::size_t>& nics) {
  std::vector<std::string> v;
  for (auto n : nics) v.push_back(m.nics[n].name.empty() ? m.label(m.gpus.size() + n) : m.nics[n].name);
  return core::join(v, ",");
}

}  // namespace

std::string render_topology(const probe::TopoMatrix& m, const std::string& input, bool color) {
  std::ostringstream out;
  out << "Topology from " << (input.empty() ? m.source : input) << " (" << m.source << "): " << m.gpus.size()
      << " GPU" << (m.gpus.size() == 1 ? "" : "s") << ", " << m.nics.size() << " NIC"
      << (m.nics.size() == 1 ? "" : "s") << "\n\n";
  std::size_t w = 4;
  for (std::size_t d = 0; d < m.devices(); ++d) w = std::max(w, m.label(d).size());
  w += 2;
  bool any_cpu = false, any_numa = false;
  for (const auto& g : m.gpus) any_cpu |= !g.cpu_affinity.empty(), any_numa |= g.numa_node.has_value();
  out << std::string(w, ' ');
  for (std::size_t d = 0; d < m.devices(); ++d) out << pad(m.label(d), w);
  if (any_cpu) out << pad("CPU Affinity", 16);
  if (any_numa) out << "NUMA Affinity";
  {
    std::string h = out.str();
    while (!h.empty() && h.back() == ' ') h.pop_back();
    out.str(h);
    out.seekp(0, std::ios::end);
  }
  out << "\n";
  for (std::size_t a = 0; a < m.devices(); ++a) {
    std::string line = pad(m.label(a), w);
    for (std::size_t b = 0; b < m.devices(); ++b) {
      const auto& l = m.at(a, b);
      std::string cell = l.type == LinkType::self ? " X" : probe::to_string(l);
      line += core::paint(cell, color_of(l), color) + std::string(w - std::min(w, cell.size()), ' ');
    }
    if (a < m.gpus.size()) {
      if (any_cpu) line += pad(m.gpus[a].cpu_affinity.empty() ? "N/A" : m.gpus[a].cpu_affinity, 16);
      if (any_numa) line += m.gpus[a].numa_node ? std::to_string(*m.gpus[a].numa_node) : "N/A";
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out << line << "\n";
  }
  bool named = false;
  for (const auto& n : m.nics) named |= !n.name.empty();
  if (named) {
    out << "\nNIC Legend:\n";
    for (std::size_t n = 0; n < m.nics.size(); ++n) {
      out << "  " << m.label(m.gpus.size() + n) << ": " << (m.nics[n].name.empty() ? "?" : m.nics[n].name);
      if (m.nics[n].port_gbps) out << " (" << *m.nics[n].port_gbps << " Gb/s)";
      out << "\n";
    }
  }
  out << "\nLegend: X self, NV# # bonded NVLinks, PIX one PCIe switch, PXB several PCIe switches, PHB PCIe host "
         "bridge,\n        NODE host bridges within a NUMA node, SYS across NUMA nodes (NCCL: NVL < PIX < PXB < PHB "
         "(also NODE) < SYS)\n";
  if (!m.notes.empty()) {
    out << "\nNotes:\n";
    for (const auto& n : m.notes) out << "  - " << n << "\n";
  }
  return out.str();
}

std::string render_pick(const probe::TopoMatrix& m, const analyze::TopoPick& p) {
  std::ostringstream out;
  out << "Best " << p.gpus.size() << " of " << m.gpus.size() << " GPUs: " << gpu_list(m, p, ", ", true) << "\n";
  out << "  worst link " << (p.gpus.size() > 1 ? probe::to_string(p.score.worst) : std::string("-"));
  out << ", " << p.score.nvlinks << " NVLinks between them, "
      << (p.score.numa_nodes ? std::to_string(p.score.numa_nodes) + " NUMA node" + (p.score.numa_nodes == 1 ? "" : "s")
                             : std::string("NUMA nodes unknown"))
      << (p.exhaustive ? "" : " (greedy search)") << "; compared "
      << p.candidates << " subsets\n\n";
  out << "export CUDA_DEVICE_ORDER=PCI_BUS_ID   # CUDA's default order (FASTEST_FIRST) may differ from nvidia-smi's\n";
  out << "export CUDA_VISIBLE_DEVICES=" << gpu_list(m, p, ",", false) << "\n";
  if (p.hca_applies)
    out << "export NCCL_IB_HCA==" << core::join(p.hca, ",") << "   # '=' = exact names (NCCL matches prefixes otherwise)\n";
  else if (!p.hca.empty())
    out << "# nearest NICs: " << core::join(p.hca, ",") << " (not IB verbs HCAs: NCCL_IB_HCA does not select them)\n";
  out << "\n# local rank -> GPU, CPU binding, nearest NIC\n";
  for (std::size_t r = 0; r < p.bindings.size(); ++r) {
    const auto& b = p.bindings[r];
    out << "rank " << r << ": GPU" << b.gpu;
    out << "  taskset -c " << (b.cpus.empty() ? "?" : b.cpus);
    if (b.numa_node)
      out << "  numactl --cpunodebind " << *b.numa_node << " --membind " << *b.numa_node;
    else
      out << "  numactl: NUMA node unknown";
    if (!b.nics.empty()) out << "  NIC " << nic_names(m, b.nics) << " (" << probe::to_string(b.nic_link) << ")";
    out << "\n";
  }
  if (!p.warnings.empty()) {
    out << "\nWarnings:\n";
    for (const auto& w : p.warnings) out << "  - " << w << "\n";
  }
  return out.str();
}

std::string render_topo_findings(const std::vector<core::Finding>& findings, bool color) {
  if (findings.empty()) return "";
  std::ostringstream out;
  out << "\nFindings:\n";
  for (const auto& f : findings) {
    auto c = core::color_of(core::outcome_of(f.severity));
    std::string sev = core::to_string(f.severity);
    for (auto& ch : sev) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    out << "  " << core::paint(sev, c, color) << " " << f.id << ": " << f.title << "\n";
    out << "       " << f.summary << "\n";
    for (const auto& x : f.fixes) out << "       fix: " << x.action << "\n";
  }
  return out.str();
}

core::Tally topo_tally(const std::vector<core::Finding>& findings, const std::optional<analyze::TopoPick>& pick) {
  core::Tally n = core::tally_of(findings, [](const core::Finding& f) { return core::outcome_of(f.severity); });
  if (pick)
    for (std::size_t i = 0; i < pick->warnings.size(); ++i) n.add(core::Outcome::warn);
  return n;
}

nlohmann::json pick_json(const probe::TopoMatrix& m, const analyze::TopoPick& p) {
  nlohmann::json j;
  j["k"] = p.gpus.size();
  nlohmann::json gpus = nlohmann::json::array();
  for (auto g : p.gpus) gpus.push_back(m.gpus[g].index);
  j["gpus"] = gpus;
  j["cuda_visible_devices"] = gpu_list(m, p, ",", false);
  j["score"] = {{"worst_link", p.gpus.size() > 1 ? nlohmann::json(probe::to_string(p.score.worst)) : nlohmann::json(nullptr)},
                {"worst_rank", p.score.worst_rank},
                {"nvlinks", p.score.nvlinks},
                {"numa_nodes", p.score.numa_nodes},
                {"nic_rank_sum", m.nics.empty() ? nlohmann::json(nullptr) : nlohmann::json(p.score.nic_rank_sum)}};
  j["exhaustive"] = p.exhaustive;
  j["candidates"] = p.candidates;
  nlohmann::json bs = nlohmann::json::array();
  for (const auto& b : p.bindings) {
    nlohmann::json nics = nlohmann::json::array();
    for (auto n : b.nics) nics.push_back(m.nics[n].name.empty() ? m.label(m.gpus.size() + n) : m.nics[n].name);
    bs.push_back({{"gpu", b.gpu},
                  {"cpus", b.cpus.empty() ? nlohmann::json(nullptr) : nlohmann::json(b.cpus)},
                  {"numa_node", core::opt_json(b.numa_node)},
                  {"taskset", b.cpus.empty() ? nlohmann::json(nullptr) : nlohmann::json("taskset -c " + b.cpus)},
                  {"numactl", b.numa_node ? nlohmann::json("numactl --cpunodebind " + std::to_string(*b.numa_node) +
                                                           " --membind " + std::to_string(*b.numa_node))
                                          : nlohmann::json(nullptr)},
                  {"nics", nics},
                  {"nic_link", b.nic_link.known() ? nlohmann::json(probe::to_string(b.nic_link)) : nlohmann::json(nullptr)}});
  }
  j["bindings"] = bs;
  j["nccl_ib_hca"] = p.hca_applies ? nlohmann::json("=" + core::join(p.hca, ",")) : nlohmann::json(nullptr);
  j["warnings"] = p.warnings;
  return j;
}

nlohmann::json topo_json(const probe::TopoMatrix& m, const std::string& input, const std::optional<analyze::TopoPick>& pick,
                         const std::vector<core::Finding>& findings, nlohmann::json context) {
  nlohmann::json j;
  j["schema"] = "ncdx.topo/1";
  j["context"] = std::move(context);
  j["input"] = input;
  j["topology"] = probe::to_json(m);
  j["pick"] = pick ? pick_json(m, *pick) : nlohmann::json(nullptr);
  j["findings"] = nlohmann::json::array();
  for (const auto& f : findings) j["findings"].push_back(core::to_json(f));
  j["summary"] = summary_json(topo_tally(findings, pick));
  return j;
}

}  // namespace ncdx::report
