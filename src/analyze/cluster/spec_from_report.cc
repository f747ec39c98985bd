#include "analyze/cluster/spec_from_report.h"

#include "core/json.h"
#include "probe/inventory.h"

namespace ncdx::analyze {

namespace {

// `host`: the cluster report's name for the node; empty = the inventory's own hostname.
core::Result<NodeSnapshot> node_of(const nlohmann::json& inv, const std::string& host, const std::string& where) {
  auto i = probe::inventory_from_json(inv, where);
  if (!i.ok()) return i.status();
  NodeSnapshot n;
  n.host = !host.empty() ? host : i->os.hostname.value_or("this node");
  n.inventory = std::move(*i);
  return n;
}

}  // namespace

core::Result<DerivedSpec> spec_from_report(std::string_view text, const std::string& name) {
  // doctor's text output starts with its table, not '{': say what was expected, not a JSON error.
  auto doc = core::parse_json(text, name);
  if (!doc.ok())
    return core::Status::bad_input(name + ": not JSON (expected the output of `ncdx doctor --json` or `ncdx doctor --cluster --json`)");
  const auto& j = *doc;
  const std::string schema = j.is_object() && j.contains("schema") && j["schema"].is_string() ? j["schema"].get<std::string>() : "";
  std::vector<NodeSnapshot> nodes;
  if (schema == "ncdx.doctor/1") {
    if (!j.contains("inventory")) return core::Status::bad_input(name + ": ncdx.doctor/1 report without \"inventory\"");
    auto n = node_of(j["inventory"], "", name + ": inventory");
    if (!n.ok()) return n.status();
    nodes.push_back(std::move(*n));
  } else if (schema == "ncdx.cluster/1") {
    if (!j.contains("nodes") || !j["nodes"].is_array() || j["nodes"].empty())
      return core::Status::bad_input(name + ": ncdx.cluster/1 report without a \"nodes\" list");
    for (std::size_t k = 0; k < j["nodes"].size(); ++k) {
      const auto& x = j["nodes"][k];
      const std::string where = name + ": nodes[" + std::to_string(k) + "]";
      if (!x.is_object() || !x.contains("snapshot")) return core::Status::bad_input(where + " has no \"snapshot\"");
      std::string host = x.contains("host") && x["host"].is_string() ? x["host"].get<std::string>() : "";
      auto n = node_of(x["snapshot"], host, where + ".snapshot");
      if (!n.ok()) return n.status();
      nodes.push_back(std::move(*n));
    }
  } else {
    return core::Status::bad_input(name + ": \"schema\" is \"" + schema +
                                   "\", expected ncdx.doctor/1 (ncdx doctor --json) or ncdx.cluster/1 (ncdx doctor --cluster --json)");
  }
  // One rank per GPU NVML saw: the model's ranks are GPUs, however many processes the doctor run had.
  std::vector<int> gpus;
  for (const auto& n : nodes) {
    gpus.push_back(static_cast<int>(n.inventory.nvml.gpus.size()));
    if (gpus.back() == 0) {
      DerivedSpec none;
      none.why_not = "NVML saw no GPU on " + n.host + " (no driver, or NVML not read: --quick leaves it out); give --spec";
      return none;
    }
  }
  return spec_from_snapshots(nodes, gpus, "from the report's nodes and the GPUs NVML saw on each");
}

}  // namespace ncdx::analyze
