#pragma once
// Parser for the text of `nvidia-smi topo -m` as users paste it: tabs or runs of spaces between
// cells, a shell prompt before the header, the "CPU Affinity / NUMA Affinity / GPU NUMA ID"
// columns (any subset), NIC columns with the "NIC Legend" (NIC0: mlx5_0) or old drivers' HCA
// names as column headers, the legend block, and matrices abbreviated with "...". Anything it
// cannot read unambiguously (glued cells such as "PIXNODE", a missing header, a short row, a
// diagonal that is not X) is bad input: Status bad_input (exit 65) naming the line.
#include <string_view>

#include "core/result.h"
#include "probe/topo_matrix.h"

namespace ncdx::probe {

// source_name is used in error messages ("topo.txt:8: ...").
core::Result<TopoMatrix> parse_smi_topo(std::string_view text, std::string_view source_name);

}  // namespace ncdx::probe
