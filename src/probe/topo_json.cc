#include "probe/topo_json.h"

#include "core/json.h"

namespace ncdx::probe {

using nlohmann::json;

namespace {
json str_or_null(const std::string& s) { return s.empty() ? json(nullptr) : json(s); }

std::string get_str(const json& o, const char* k) {
  auto it = o.find(k);
  return it != o.end() && it->is_string() ? it->get<std::string>() : std::string();
}
template <class T>
std::optional<T> get_num(const json& o, const char* k) {
  auto it = o.find(k);
  if (it == o.end() || !it->is_number()) return std::nullopt;
  return it->get<T>();
}
}  // namespace

json to_json(const TopoMatrix& m) {
  json j;
  j["source"] = str_or_null(m.source);
  json devices = json::array();
  for (std::size_t d = 0; d < m.devices(); ++d) devices.push_back(m.label(d));
  j["devices"] = devices;
  json gpus = json::array();
  for (const auto& g : m.gpus)
    gpus.push_back({{"index", g.index},
                    {"name", str_or_null(g.name)},
                    {"bus_id", str_or_null(g.bus_id)},
                    {"numa_node", core::opt_json(g.numa_node)},
                    {"cpu_affinity", str_or_null(g.cpu_affinity)},
                    {"sm", core::opt_json(g.sm)},
                    {"pcie_gts", core::opt_json(g.pcie_gts)},
                    {"pcie_width", core::opt_json(g.pcie_width)}});
  j["gpus"] = gpus;
  json nics = json::array();
  for (std::size_t n = 0; n < m.nics.size(); ++n) {
    const auto& x = m.nics[n];
    nics.push_back({{"label", m.label(m.gpus.size() + n)},
                    {"name", str_or_null(x.name)},
                    {"bus_id", str_or_null(x.bus_id)},
                    {"port_gbps", core::opt_json(x.port_gbps)},
                    {"numa_node", core::opt_json(x.numa_node)}});
  }
  j["nics"] = nics;
  json rows = json::array();
  for (std::size_t a = 0; a < m.devices(); ++a) {
    json row = json::array();
    for (std::size_t b = 0; b < m.devices(); ++b)
      row.push_back(m.at(a, b).known() ? json(to_string(m.at(a, b))) : json(nullptr));
    rows.push_back(row);
  }
  j["matrix"] = rows;
  j["notes"] = m.notes;
  return j;
}

core::Result<TopoMatrix> topo_from_json(const json& j, std::string_view src) {
  auto bad = [&](const std::string& what) {
    return core::Status::bad_input(std::string(src) + ": topology." + what);
  };
  if (!j.is_object()) return bad(" is not an object");
  TopoMatrix m;
  m.source = get_str(j, "source");
  if (!j.contains("gpus") || !j["gpus"].is_array()) return bad("gpus: expected an array");
  if (j["gpus"].size() > 4096) return bad("gpus: too many entries");
  for (std::size_t i = 0; i < j["gpus"].size(); ++i) {
    const auto& g = j["gpus"][i];
    if (!g.is_object()) return bad("gpus[" + std::to_string(i) + "]: expected an object");
    Gpu x;
    auto idx = get_num<int>(g, "index");
    if (!idx || *idx < 0) return bad("gpus[" + std::to_string(i) + "].index: expected a GPU index");
    x.index = *idx;
    x.name = get_str(g, "name");
    x.bus_id = get_str(g, "bus_id");
    x.numa_node = get_num<int>(g, "numa_node");
    x.cpu_affinity = get_str(g, "cpu_affinity");
    if (!x.cpu_affinity.empty() && !parse_cpulist(x.cpu_affinity))
      return bad("gpus[" + std::to_string(i) + "].cpu_affinity: not a CPU list");
    x.sm = get_num<int>(g, "sm");
    x.pcie_gts = get_num<double>(g, "pcie_gts");
    x.pcie_width = get_num<int>(g, "pcie_width");
    m.gpus.push_back(x);
  }
  if (j.contains("nics")) {
    if (!j["nics"].is_array() || j["nics"].size() > 4096) return bad("nics: expected an array");
    for (const auto& n : j["nics"]) {
      if (!n.is_object()) return bad("nics: expected objects");
      Nic x;
      x.label = get_str(n, "label");
      x.name = get_str(n, "name");
      x.bus_id = get_str(n, "bus_id");
      x.port_gbps = get_num<double>(n, "port_gbps");
      x.numa_node = get_num<int>(n, "numa_node");
      m.nics.push_back(x);
    }
  }
  m.reset_links();
  if (!j.contains("matrix") || !j["matrix"].is_array() || j["matrix"].size() != m.devices())
    return bad("matrix: expected " + std::to_string(m.devices()) + " rows (GPUs then NICs)");
  for (std::size_t a = 0; a < m.devices(); ++a) {
    const auto& row = j["matrix"][a];
    if (!row.is_array() || row.size() != m.devices())
      return bad("matrix[" + std::to_string(a) + "]: expected " + std::to_string(m.devices()) + " cells");
    for (std::size_t b = 0; b < m.devices(); ++b) {
      if (row[b].is_null()) {
        if (a == b) return bad("matrix[" + std::to_string(a) + "][" + std::to_string(a) + "]: expected X");
        continue;
      }
      auto l = row[b].is_string() ? parse_link_code(row[b].get<std::string>()) : std::nullopt;
      if (!l || ((a == b) != (l->type == LinkType::self)))
        return bad("matrix[" + std::to_string(a) + "][" + std::to_string(b) + "]: not a valid link code here");
      m.at(a, b) = *l;
    }
  }
  if (j.contains("notes") && j["notes"].is_array())
    for (const auto& n : j["notes"])
      if (n.is_string()) m.notes.push_back(n.get<std::string>());
  return m;
}

}  // namespace ncdx::probe
