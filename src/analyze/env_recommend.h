#pragma once
// Env blocks ncdx emits: recommendations for a scale tier and fabric (`ncdx env recommend`) and
// the debug block (`ncdx env debug`). Only variables that the target NCCL / PyTorch version reads
// are set; advice that needs a site-specific value (an interface, an HCA list) is a comment.
// Every block passes lint_env (tests/unit/analyze/env_recommend_test.cc checks each tier x fabric).
#include <optional>
#include <string>
#include <vector>

#include "analyze/env_lint.h"
#include "core/result.h"

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
};

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
