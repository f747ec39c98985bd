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
#include "report/text_wrap.h"
#include "core/table.h"

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

// A line to paste with its comment: the comment moves above it when the two do not fit, the
// command itself is never wrapped.
std::string shell_line(const std::string& command, const std::string& comment, std::size_t width) {
  std::string one = command + "   # " + comment + "\n";
  return fits_width(one, width) ? one : hanging("# ", comment, width) + command + "\n";
}

// head, then fields two spaces apart; a field that would pass the width starts an indented line
// (a command such as `numactl --cpunodebind 0 --membind 0` is never split).
std::string fields_line(const std::string& head, const std::vector<std::string>& fields, std::size_t width) {
  std::string out = head, line = head;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    std::string next = (i ? "  " : "") + fields[i];
    if (i && width && !fits_width(line + next, width)) {
      out += "\n" + std::string(head.size(), ' ');
      line = std::string(head.size(), ' ');
      next = fields[i];
    }
    out += next;
    line += next;
  }
  return out + "\n";
}

// The width of one matrix column: the longest device label plus two spaces (at least 6).
std::size_t cell_width(const probe::TopoMatrix& m) {
  std::size_t w = 4;
  for (std::size_t d = 0; d < m.devices(); ++d) w = std::max(w, m.label(d).size());
  return w + 2;
}

// The matrix as nvidia-smi prints it, devices [first, last) as the columns (every device is a
// row), with the CPU/NUMA affinity columns or without them.
std::string matrix_block(const probe::TopoMatrix& m, std::size_t first, std::size_t last, bool affinity, bool color) {
  std::size_t w = cell_width(m);
  bool any_cpu = false, any_numa = false;
  for (const auto& g : m.gpus) any_cpu |= !g.cpu_affinity.empty(), any_numa |= g.numa_node.has_value();
  any_cpu &= affinity, any_numa &= affinity;
  auto trim = [](std::string line) {
    while (!line.empty() && line.back() == ' ') line.pop_back();
    return line + "\n";
  };
  std::string head = std::string(w, ' ');
  for (std::size_t d = first; d < last; ++d) head += pad(m.label(d), w);
  if (any_cpu) head += pad("CPU Affinity", 16);
  if (any_numa) head += "NUMA Affinity";
  std::string out = trim(head);
  for (std::size_t a = 0; a < m.devices(); ++a) {
    std::string line = pad(m.label(a), w);
    for (std::size_t b = first; b < last; ++b) {
      const auto& l = m.at(a, b);
      std::string cell = l.type == LinkType::self ? " X" : probe::to_string(l);
      line += core::paint(cell, color_of(l), color) + std::string(w - std::min(w, cell.size()), ' ');
    }
    if (a < m.gpus.size()) {
      if (any_cpu) line += pad(m.gpus[a].cpu_affinity.empty() ? "N/A" : m.gpus[a].cpu_affinity, 16);
      if (any_numa) line += m.gpus[a].numa_node ? std::to_string(*m.gpus[a].numa_node) : "N/A";
    }
    out += trim(line);
  }
  return out;
}

// A matrix wider than the terminal: the affinity columns become a list of their own, then the
// device columns are shown a block at a time (each block with every row), as R and numpy print
// wide matrices. Cells are never cut: "NV12" and "SYS" are the answer.
std::string fitted_matrix(const probe::TopoMatrix& m, std::size_t width, bool color) {
  std::string full = matrix_block(m, 0, m.devices(), true, color);
  if (fits_width(full, width)) return full;
  std::string out = matrix_block(m, 0, m.devices(), false, color);
  if (!fits_width(out, width)) {
    const std::size_t w = cell_width(m);
    const std::size_t per = std::max<std::size_t>(1, width > w ? (width - w) / w : 1);
    out.clear();
    for (std::size_t first = 0; first < m.devices(); first += per)
      out += (first ? "\n" : "") + matrix_block(m, first, std::min(m.devices(), first + per), false, color);
  }
  core::Table aff({"", "CPU Affinity", "NUMA Affinity"});
  for (const auto& g : m.gpus)
    if (!g.cpu_affinity.empty() || g.numa_node)
      aff.add({"GPU" + std::to_string(g.index), g.cpu_affinity.empty() ? "N/A" : g.cpu_affinity,
               g.numa_node ? std::to_string(*g.numa_node) : "N/A"});
  if (aff.size()) out += "\n" + aff.render(color, 0, width);
  return out;
}

}  // namespace

std::string render_topology(const probe::TopoMatrix& m, const std::string& input, bool color, std::size_t width) {
  std::ostringstream out;
  out << hanging("", "Topology from " + (input.empty() ? m.source : input) + " (" + m.source + "): " + std::to_string(m.gpus.size()) +
                         " GPU" + (m.gpus.size() == 1 ? "" : "s") + ", " + std::to_string(m.nics.size()) + " NIC" +
                         (m.nics.size() == 1 ? "" : "s"),
                 width)
      << "\n";
  out << fitted_matrix(m, width, color);
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
  // Piped: nvidia-smi's two legend lines; on a terminal the same text wrapped to it.
  if (width == 0)
    out << "\nLegend: X self, NV# # bonded NVLinks, PIX one PCIe switch, PXB several PCIe switches, PHB PCIe host "
           "bridge,\n        NODE host bridges within a NUMA node, SYS across NUMA nodes (NCCL: NVL < PIX < PXB < PHB "
           "(also NODE) < SYS)\n";
  else
    out << "\n"
        << hanging("Legend: ", "X self, NV# # bonded NVLinks, PIX one PCIe switch, PXB several PCIe switches, PHB PCIe host bridge, "
                               "NODE host bridges within a NUMA node, SYS across NUMA nodes (NCCL: NVL < PIX < PXB < PHB (also NODE) < SYS)",
                   width);
  if (!m.notes.empty()) {
    out << "\nNotes:\n";
    for (const auto& n : m.notes) out << hanging("  - ", n, width);
  }
  return out.str();
}

std::string render_pick(const probe::TopoMatrix& m, const analyze::TopoPick& p, std::size_t width) {
  std::ostringstream out;
  out << hanging("", "Best " + std::to_string(p.gpus.size()) + " of " + std::to_string(m.gpus.size()) +
                         " GPUs: " + gpu_list(m, p, ", ", true), width);
  out << hanging("  ", "worst link " + (p.gpus.size() > 1 ? probe::to_string(p.score.worst) : std::string("-")) + ", " +
                           std::to_string(p.score.nvlinks) + " NVLinks between them, " +
                           (p.score.numa_nodes ? std::to_string(p.score.numa_nodes) + " NUMA node" + (p.score.numa_nodes == 1 ? "" : "s")
                                               : std::string("NUMA nodes unknown")) +
                           (p.exhaustive ? "" : " (greedy search)") + "; compared " + std::to_string(p.candidates) + " subsets",
                 width)
      << "\n";
  out << shell_line("export CUDA_DEVICE_ORDER=PCI_BUS_ID", "CUDA's default order (FASTEST_FIRST) may differ from nvidia-smi's", width);
  out << "export CUDA_VISIBLE_DEVICES=" << gpu_list(m, p, ",", false) << "\n";
  if (p.hca_applies)
    out << shell_line("export NCCL_IB_HCA==" + core::join(p.hca, ","), "'=' = exact names (NCCL matches prefixes otherwise)", width);
  else if (!p.hca.empty())
    out << hanging("# ", "nearest NICs: " + core::join(p.hca, ",") + " (not IB verbs HCAs: NCCL_IB_HCA does not select them)", width);
  out << "\n# local rank -> GPU, CPU binding, nearest NIC\n";
  for (std::size_t r = 0; r < p.bindings.size(); ++r) {
    const auto& b = p.bindings[r];
    std::vector<std::string> fields = {"GPU" + std::to_string(b.gpu), "taskset -c " + (b.cpus.empty() ? "?" : b.cpus)};
    if (b.numa_node)
      fields.push_back("numactl --cpunodebind " + std::to_string(*b.numa_node) + " --membind " + std::to_string(*b.numa_node));
    else
      fields.push_back("numactl: NUMA node unknown");
    if (!b.nics.empty()) fields.push_back("NIC " + nic_names(m, b.nics) + " (" + probe::to_string(b.nic_link) + ")");
    out << fields_line("rank " + std::to_string(r) + ": ", fields, width);
  }
  if (!p.warnings.empty()) {
    out << "\nWarnings:\n";
    for (const auto& w : p.warnings) out << hanging("  - ", w, width);
  }
  return out.str();
}

std::string render_topo_findings(const std::vector<core::Finding>& findings, bool color, std::size_t width) {
  if (findings.empty()) return "";
  std::ostringstream out;
  out << "\nFindings:\n";
  for (const auto& f : findings) {
    auto c = core::color_of(core::outcome_of(f.severity));
    std::string sev = core::to_string(f.severity);
    for (auto& ch : sev) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    out << hanging("  " + core::paint(sev, c, color) + " ", f.id + ": " + f.title, width, 3 + sev.size());
    out << hanging("       ", f.summary, width);
    for (const auto& x : f.fixes) out << hanging("       fix: ", x.action, width);
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
