#pragma once
// A node's shape (GPU count, intra-node fabric) read from a doctor snapshot/report or `ncdx topo
// --json` output: what `env recommend --from` and `audit --from` use instead of flags.
#include <optional>
#include <string>

#include "core/result.h"

namespace ncdx::analyze {

struct NodeShape {
  int gpus = 0;
  std::optional<std::string> intra;  // "nvswitch", "nvlink", "pcie"; nullopt when unknown
};

// Bad JSON or a missing topology is bad input (65) naming the file; a missing file 66.
core::Result<NodeShape> node_shape_from_file(const std::string& path);

}  // namespace ncdx::analyze
