#include "probe/topo_smi_parse.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "core/strings.h"

namespace ncdx::probe {
namespace {

using core::Status;

struct Line {
  int number;
  std::string_view text;
  std::vector<std::string_view> tokens;
};

std::vector<std::string_view> tokenize(std::string_view s) { return core::split_ws(s); }

bool has_index_suffix(std::string_view t, std::string_view prefix) {
  if (t.size() <= prefix.size() || t.substr(0, prefix.size()) != prefix || t.size() > prefix.size() + 4)
    return false;
  return std::all_of(t.begin() + static_cast<long>(prefix.size()), t.end(),
                     [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

bool is_gpu_label(std::string_view t) { return has_index_suffix(t, "GPU"); }

// Column names old drivers print for NICs ("mlx5_0") or new ones ("NIC0").
bool is_device_name(std::string_view t) {
  if (t.empty() || t.size() > 32 || !std::isalpha(static_cast<unsigned char>(t[0]))) return false;
  return std::all_of(t.begin(), t.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
  });
}

bool is_extra_word(std::string_view t) {
  return t == "CPU" || t == "NUMA" || t == "GPU" || t == "Affinity" || t == "ID" || t == "...";
}

enum class Extra { cpu_affinity, numa_affinity, gpu_numa_id };

std::string where(std::string_view src, int line) {
  return std::string(src) + ":" + std::to_string(line) + ": ";
}

// Whether a bad cell is two codes glued together by a lost tab ("PIXNODE").
bool looks_glued(std::string_view cell) {
  static const char* codes[] = {"X", "PIX", "PXB", "PHB", "NODE", "SYS", "SOC", "NV"};
  for (const char* c : codes) {
    std::string_view p(c);
    if (cell.size() > p.size() && cell.substr(0, p.size()) == p) {
      auto rest = cell.substr(p.size());
      if (parse_link_code(rest)) return true;
      if (p == "NV") {  // NV18NODE
        std::size_t k = 0;
        while (k < rest.size() && std::isdigit(static_cast<unsigned char>(rest[k]))) ++k;
        if (k > 0 && parse_link_code(rest.substr(k))) return true;
      }
    }
  }
  return false;
}

std::optional<int> parse_numa(std::string_view t) {
  auto v = core::parse_int(t);
  if (v && *v >= 0 && *v < 4096) return static_cast<int>(*v);
  return std::nullopt;
}

}  // namespace

core::Result<TopoMatrix> parse_smi_topo(std::string_view text, std::string_view src) {
  std::vector<Line> lines;
  {
    int n = 0;
    for (auto raw : core::split(text, '\n')) {
      ++n;
      if (!raw.empty() && raw.back() == '\r') raw.remove_suffix(1);
      lines.push_back({n, raw, tokenize(raw)});
    }
  }

  // 1. The header: the first line whose first token is GPU0 (a prompt line before it is fine).
  // A row also starts with GPU0, but its next cell is a link code ("GPU0  X  NV18").
  std::size_t h = 0;
  int first_row_line = 0;
  for (; h < lines.size(); ++h) {
    const auto& tk = lines[h].tokens;
    if (tk.empty() || tk[0] != "GPU0") continue;
    if (tk.size() == 1 || !parse_link_code(tk[1])) break;
    if (!first_row_line) first_row_line = lines[h].number;
  }
  if (h == lines.size())
    return Status::bad_input(
        first_row_line ? where(src, first_row_line) +
                             "matrix row without the header line 'GPU0 GPU1 ...' above it (a truncated paste?)"
                       : std::string(src) +
                             ":1: no header line starting with 'GPU0' (expected the output of "
                             "`nvidia-smi topo -m`, header included)");
  const Line& header = lines[h];
  std::vector<std::string> columns;
  std::size_t t = 0;
  for (; t < header.tokens.size() && !is_extra_word(header.tokens[t]); ++t) {
    if (!is_device_name(header.tokens[t]))
      return Status::bad_input(where(src, header.number) + "header cell '" +
                               std::string(header.tokens[t]) + "' is not a device name (GPU#, NIC#, mlx5_#)");
    columns.emplace_back(header.tokens[t]);
  }
  bool abbreviated = false;
  std::vector<Extra> extras;
  for (; t < header.tokens.size(); ++t) {
    auto w = header.tokens[t];
    auto next = t + 1 < header.tokens.size() ? header.tokens[t + 1] : std::string_view{};
    if (w == "...") {
      abbreviated = true;
    } else if (w == "CPU" && next == "Affinity") {
      extras.push_back(Extra::cpu_affinity), ++t;
    } else if (w == "NUMA" && next == "Affinity") {
      extras.push_back(Extra::numa_affinity), ++t;
    } else if (w == "GPU" && next == "NUMA" && t + 2 < header.tokens.size() && header.tokens[t + 2] == "ID") {
      extras.push_back(Extra::gpu_numa_id), t += 2;
    } else {
      return Status::bad_input(where(src, header.number) + "unexpected header word '" + std::string(w) +
                               "' (expected CPU Affinity, NUMA Affinity, GPU NUMA ID or ...)");
    }
  }
  if (columns.empty() || columns.size() > 512)
    return Status::bad_input(where(src, header.number) + "header names no device columns");

  TopoMatrix m;
  m.source = "nvidia-smi";
  std::map<std::string, std::size_t, std::less<>> device_of;  // column name -> device index
  std::vector<std::size_t> col_device(columns.size());
  {
    std::vector<std::string> gpu_cols, nic_cols;
    std::set<std::string> seen;
    for (const auto& c : columns) {
      if (!seen.insert(c).second)
        return Status::bad_input(where(src, header.number) + "column '" + c + "' appears twice");
      (is_gpu_label(c) ? gpu_cols : nic_cols).push_back(c);
    }
    for (std::size_t i = 0; i < gpu_cols.size(); ++i) {
      Gpu g;
      g.index = static_cast<int>(*core::parse_int(std::string_view(gpu_cols[i]).substr(3)));
      m.gpus.push_back(g);
      device_of[gpu_cols[i]] = i;
    }
    for (std::size_t i = 0; i < nic_cols.size(); ++i) {
      Nic n;
      n.label = nic_cols[i];
      if (!has_index_suffix(nic_cols[i], "NIC")) n.name = nic_cols[i];  // old drivers: "mlx5_0"
      m.nics.push_back(n);
      device_of[nic_cols[i]] = gpu_cols.size() + i;
    }
    for (std::size_t c = 0; c < columns.size(); ++c) col_device[c] = device_of[columns[c]];
  }
  m.reset_links();
  if (abbreviated) {
    m.notes.push_back("matrix abbreviated with '...': columns after " + columns.back() +
                      " (NICs, CPU/NUMA affinity) are unknown");
    extras.clear();
  }

  // 2. Rows, until the legend.
  std::vector<bool> have_row(m.devices(), false);
  std::size_t i = h + 1;
  for (; i < lines.size(); ++i) {
    const Line& l = lines[i];
    if (l.tokens.empty()) continue;
    if (l.tokens[0] == "Legend:" || l.tokens[0] == "NIC" || l.tokens[0] == "X") break;
    auto it = device_of.find(l.tokens[0]);
    if (it == device_of.end())
      return Status::bad_input(where(src, l.number) + "row label '" + std::string(l.tokens[0]) +
                               "' is not a column of the header");
    const std::size_t row = it->second;
    if (have_row[row])
      return Status::bad_input(where(src, l.number) + "row " + std::string(l.tokens[0]) + " appears twice");
    have_row[row] = true;
    const bool is_gpu = row < m.gpus.size();
    const std::size_t ncells = l.tokens.size() - 1;
    if (ncells < columns.size())
      return Status::bad_input(where(src, l.number) + "row " + std::string(l.tokens[0]) + " has " +
                               std::to_string(ncells) + " cells, expected " + std::to_string(columns.size()) +
                               " link codes (a truncated paste?)");
    for (std::size_t c = 0; c < columns.size(); ++c) {
      auto cell = l.tokens[1 + c];
      auto link = parse_link_code(cell);
      if (!link)
        return Status::bad_input(
            where(src, l.number) + "row " + std::string(l.tokens[0]) + ", column " + columns[c] + ": '" +
            std::string(cell) + "' is not a link code" +
            (looks_glued(cell) ? " (two cells glued together by a lost tab?)" : "") +
            "; expected X, NV#, PIX, PXB, PHB, NODE, SYS or SOC");
      const std::size_t col = col_device[c];
      if ((col == row) != (link->type == LinkType::self))
        return Status::bad_input(where(src, l.number) + "row " + std::string(l.tokens[0]) + ", column " +
                                 columns[c] + ": '" + std::string(cell) +
                                 (col == row ? "' on the diagonal, expected X" : "' off the diagonal")+
                                 " (cells shifted by a lost tab?)");
      m.at(row, col) = *link;
    }
    // Remaining cells: the extra columns, GPU rows only (NIC rows leave them blank).
    std::size_t rest = 1 + columns.size();
    if (abbreviated && rest < l.tokens.size() && l.tokens[rest] == "...") ++rest;
    if (!is_gpu) {
      if (rest < l.tokens.size())
        return Status::bad_input(where(src, l.number) + "row " + std::string(l.tokens[0]) +
                                 " has extra cell '" + std::string(l.tokens[rest]) + "'");
      continue;
    }
    Gpu& g = m.gpus[row];
    for (std::size_t e = 0; e < extras.size() && rest + e < l.tokens.size(); ++e) {
      auto v = l.tokens[rest + e];
      if (v == "N/A") continue;
      switch (extras[e]) {
        case Extra::cpu_affinity:
          if (!parse_cpulist(v))
            return Status::bad_input(where(src, l.number) + "CPU Affinity '" + std::string(v) +
                                     "' is not a CPU list (e.g. 0-23,48-71)");
          g.cpu_affinity = std::string(v);
          break;
        case Extra::numa_affinity: {
          auto n = parse_numa(v);
          auto list = parse_cpulist(v);  // "0-1" on some systems: several nodes, leave unknown
          if (!n && !list)
            return Status::bad_input(where(src, l.number) + "NUMA Affinity '" + std::string(v) +
                                     "' is not a NUMA node number");
          g.numa_node = n;
          break;
        }
        case Extra::gpu_numa_id:
          break;  // the GPU's own memory NUMA node (Grace/C2C); N/A on PCIe systems
      }
    }
    if (rest + extras.size() < l.tokens.size())
      return Status::bad_input(where(src, l.number) + "row " + std::string(l.tokens[0]) +
                               " has extra cell '" + std::string(l.tokens[rest + extras.size()]) + "'");
  }

  // 3. NIC legend ("NIC0: mlx5_0"), anywhere after the rows.
  for (; i < lines.size(); ++i) {
    const auto& tk = lines[i].tokens;
    if (tk.size() == 2 && tk[0].size() > 1 && tk[0].back() == ':') {
      auto label = tk[0].substr(0, tk[0].size() - 1);
      auto it = device_of.find(label);
      if (it != device_of.end() && it->second >= m.gpus.size())
        m.nics[it->second - m.gpus.size()].name = std::string(tk[1]);
    }
  }

  // 4. Every GPU row must be there; NIC rows are optional (the GPU rows carry GPU<->NIC links).
  for (std::size_t d = 0; d < m.gpus.size(); ++d)
    if (!have_row[d])
      return Status::bad_input(std::string(src) + ":" + std::to_string(lines.back().number) + ": row " +
                               m.label(d) + " is missing (a truncated paste?)");
  bool missing_nic_rows = false;
  for (std::size_t d = m.gpus.size(); d < m.devices(); ++d) {
    if (have_row[d]) continue;
    missing_nic_rows = true;
    for (std::size_t g = 0; g < m.gpus.size(); ++g) m.at(d, g) = m.at(g, d);
  }
  if (missing_nic_rows) m.notes.push_back("some NIC rows are missing: NIC-to-NIC links unknown");
  for (std::size_t a = 0; a < m.devices(); ++a)
    for (std::size_t b = a + 1; b < m.devices(); ++b)
      if (m.at(a, b).known() && m.at(b, a).known() && !(m.at(a, b) == m.at(b, a))) {
        if (m.notes.size() < 8)
          m.notes.push_back("matrix is not symmetric: " + m.label(a) + "-" + m.label(b) + " is " +
                            to_string(m.at(a, b)) + " one way and " + to_string(m.at(b, a)) + " the other");
      }

  // 5. A NIC's NUMA node: that of the GPUs it reaches without crossing the SMP interconnect.
  for (std::size_t n = 0; n < m.nics.size(); ++n) {
    for (std::size_t g = 0; g < m.gpus.size(); ++g) {
      const auto& l = m.gpu_nic(g, n);
      if (m.gpus[g].numa_node && l.known() && l.type != LinkType::sys && l.type != LinkType::soc) {
        m.nics[n].numa_node = m.gpus[g].numa_node;
        break;
      }
    }
  }
  return m;
}

}  // namespace ncdx::probe
