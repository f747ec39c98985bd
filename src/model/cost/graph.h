#pragma once
// The per-pattern results of NCCL's topology search that the tuning model reads
// (struct ncclTopoGraph, src/graph/search.cc): channels, per-channel bandwidths and path types.
// They come from NCCL's own `Pattern ...` log lines when available, else from our estimate
// (graph_estimate.h).
#include <array>
#include <string_view>

#include "model/cost/types.h"

namespace ncdx::model::cost {

// NCCL path types in their order of distance (src/graph/topo.h @v2.30.7-1: LOC, NVL, NVB, C2C,
// PIX, PXB, P2C, PXN, PHB, SYS, NET, DIS). Older releases lack C2C/P2C (v2.18.6-1: LOC..DIS
// without them); the model only compares types, so one enum serves all versions.
enum class PathType : int { LOC = 0, NVL, NVB, C2C, PIX, PXB, P2C, PXN, PHB, SYS, NET, DIS };
const char* name(PathType t);
bool parse_path_type(std::string_view s, PathType& out);

struct Graph {
  int nchannels = 0;
  double bw_intra = 0;      // GB/s per channel
  double bw_inter = 0;
  PathType type_intra = PathType::SYS;
  PathType type_inter = PathType::SYS;
  bool same_channels = true;
  double latency_inter = 0; // 0 for NCCL's built-in nets
  int pattern = 4;          // 1 BALANCED_TREE, 2 SPLIT_TREE, 3 TREE, 4 RING, 5 NVLS, 6 COLLNET_DIRECT
  bool from_log = false;    // read from NCCL's log rather than estimated
};

// One graph per algorithm (NCCL's graphs[a]); Tree/Ring/CollNet*/NVLS* as in init.cc.
using Graphs = std::array<Graph, kNumAlgos>;

}  // namespace ncdx::model::cost
