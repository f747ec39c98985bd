#include "analyze/config/node_shape.h"

#include <fstream>
#include <sstream>

#include "analyze/env/recommend.h"
#include "core/json.h"
#include "probe/topo_json.h"

namespace ncdx::analyze {

core::Result<NodeShape> node_shape_from_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return core::Status::not_found(path + ": cannot open");
  std::ostringstream ss;
  ss << f.rdbuf();
  auto j = core::parse_json(ss.str(), path);
  if (!j) return j.status();
  // A doctor report/snapshot or `ncdx topo --json` output: the "topology" object, or the document.
  const nlohmann::json& topo = j->contains("topology") ? (*j)["topology"] : *j;
  auto m = probe::topo_from_json(topo, path);
  if (!m) return m.status();
  return NodeShape{static_cast<int>(m->gpus.size()), intra_fabric_of(*m)};
}

}  // namespace ncdx::analyze
