#pragma once
// Renderers for `ncdx topo`: the matrix aligned like nvidia-smi, the --pick block (shell lines
// the user can paste), and the JSON of a pick. They compute nothing.
#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

#include "analyze/topo/pick.h"
#include "core/finding.h"
#include "core/outcome.h"
#include "probe/topo_matrix.h"

namespace ncdx::report {

// width: the terminal's columns (core::output_columns; 0 = piped, every line whole). Shell lines
// (export, taskset, numactl) are never wrapped: they are meant to be pasted.
std::string render_topology(const probe::TopoMatrix& m, const std::string& input, bool color, std::size_t width = 0);
std::string render_pick(const probe::TopoMatrix& m, const analyze::TopoPick& p, std::size_t width = 0);
std::string render_topo_findings(const std::vector<core::Finding>& findings, bool color, std::size_t width = 0);
// What `topo` judged: each finding by its severity, each warning of the pick a WARN. The JSON
// summary and the exit code both come from it.
core::Tally topo_tally(const std::vector<core::Finding>& findings, const std::optional<analyze::TopoPick>& pick);
nlohmann::json pick_json(const probe::TopoMatrix& m, const analyze::TopoPick& p);
// The ncdx.topo/1 document: input, topology, pick (null without --pick), findings.
nlohmann::json topo_json(const probe::TopoMatrix& m, const std::string& input, const std::optional<analyze::TopoPick>& pick,
                         const std::vector<core::Finding>& findings, nlohmann::json context);

}  // namespace ncdx::report
