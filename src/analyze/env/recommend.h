#pragma once
// Env blocks ncdx emits: recommendations for a scale tier and fabric (`ncdx env recommend`) and
// the debug block (`ncdx env debug`). Only variables that the target NCCL / PyTorch version reads
// are set; advice that needs a site-specific value (an interface, an HCA list) is a comment.
// Every block passes lint_env (tests/unit/analyze/env/recommend_test.cc checks each tier x fabric).
#include <optional>
#include <string>
#include <vector>

#include "analyze/env/lint.h"
#include "core/result.h"
#include "probe/topo_matrix.h"

namespace ncdx::analyze {

struct EnvRec {
  std::string name, value;  // empty name: a comment-only line
  std::string reason;       // one line
  std::string source;       // citation
};

inline const std::vector<std::string>& fabrics() {
  static const std::vector<std::string> f = {"nvswitch", "nvlink", "pcie", "ib", "roce", "efa", "socket"};
  return f;
}

struct RecommendInput {
  int nodes = 1;
  int gpus_per_node = 8;
  std::string fabric;  // one of fabrics()
  std::optional<Version> nccl, torch;
  // The intra-node fabric when known separately (from a doctor/topo snapshot), so that an
  // inter-node --fabric (ib, roce, ...) and the node's NVLink/PCIe layout both count.
  std::optional<std::string> intra = std::nullopt;
};

// Intra-node fabric of a node's topology: "nvswitch" (8+ GPUs, every pair NVLink), "nvlink" (some
// NVLink), "pcie" (no NVLink); nullopt when the matrix is unknown.
std::optional<std::string> intra_fabric_of(const probe::TopoMatrix& m);

// "1-8 GPUs", "9-30 GPUs", "31+ GPUs" by total GPU count.
std::string scale_tier(int total_gpus);
// The cluster shape the recommendation is for (used to lint it).
ClusterShape shape_of(const RecommendInput& in);
core::Result<std::vector<EnvRec>> recommend_env(const RecommendInput& in);

struct DebugInput {
  std::optional<Version> nccl, torch;
  std::vector<std::string> subsys;  // empty: NCCL's default set plus NET
  std::string log_dir = "/tmp";
};
core::Result<std::vector<EnvRec>> debug_env(const DebugInput& in);

}  // namespace ncdx::analyze
