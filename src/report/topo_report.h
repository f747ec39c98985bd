#pragma once
// Renderers for `ncdx topo`: the matrix aligned like nvidia-smi, the --pick block (shell lines
// the user can paste), and the JSON of a pick. They compute nothing.
#include <nlohmann/json.hpp>

#include <string>

#include "analyze/topo_pick.h"
#include "probe/topo_matrix.h"

namespace ncdx::report {

std::string render_topology(const probe::TopoMatrix& m, const std::string& input, bool color);
std::string render_pick(const probe::TopoMatrix& m, const analyze::TopoPick& p);
nlohmann::json pick_json(const probe::TopoMatrix& m, const analyze::TopoPick& p);

}  // namespace ncdx::report
