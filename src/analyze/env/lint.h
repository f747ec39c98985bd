#pragma once
// Version-aware lint of NCCL / PyTorch-distributed environment variables.
// Every verdict is grounded in a fact table compiled into the binary (knowledge/data/
// nccl_env_vars.tsv, torch_env_vars.yaml) or the NCCL/PyTorch source they were read from, cited in
// EnvRow::source. Used by `ncdx env lint`, `ncdx audit` (env rows of the audit table) and
// `ncdx doctor` (the live environment).
#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "analyze/env/rows.h"
#include "core/outcome.h"
#include "core/semver.h"

namespace ncdx::analyze {

using core::Version;

// One row of the lint table. status is PASS, WARN or FAIL.
struct EnvRow {
  std::string parameter;    // variable name as given ("NCCL_MAX_RINGS")
  std::string value;        // value as given (secrets redacted by the caller's renderer)
  std::string recommended;  // what to set instead ("unset", "NCCL_MAX_NCHANNELS=8", "INFO only while debugging")
  std::string risk;         // what goes wrong, in a few words ("no effect", "init fails (ncclInvalidUsage)")
  core::Outcome status = core::Outcome::pass;  // PASS | WARN | FAIL
  std::string why;          // one or two sentences with the fact
  std::string source;       // citation: "nccl_env_vars.tsv: NCCL_MAX_RINGS", "NVIDIA/nccl src/graph/tuning.cc parseList", "src/misc/param.cc"
  std::string rule;         // stable rule id ("env.fake", "env.removed", "env.algo-global-tree", ...)
  std::string origin;       // where the value came from ("env", "/etc/nccl.conf:3", "run.env:12"); may be empty
};

// What ncdx knows about the cluster the environment is meant for (all optional).
struct ClusterShape {
  int nodes = 1;
  int gpus_per_node = 0;              // 0 = unknown
  std::optional<std::string> intra;   // "nvswitch" | "nvlink" | "pcie"
  std::optional<std::string> inter;   // "ib" | "roce" | "efa" | "socket" (multi-node only)
};

struct EnvLintInput {
  std::map<std::string, std::string> env;     // NAME -> VALUE (only the names to lint)
  EnvOrigins origin;                          // NAME -> "env" / "file:line" (optional)
  std::optional<Version> nccl, torch;         // nullopt = unknown: version-gated rules say so
  std::optional<ClusterShape> cluster;
  bool production = true;                     // debug-level logging is a WARN in production
  std::vector<std::string> engines;           // rollout engines in use: "vllm", "sglang"
  std::vector<std::string> interfaces;        // the node's network interfaces, if known
};

// Lints every NCCL_*, TORCH_NCCL_*, TORCH_FR_*, TORCH_DISTRIBUTED_* variable in input.env plus the
// combination rules. Rows are sorted by parameter name, then rule id (deterministic output).
// Variables unrelated to NCCL/PyTorch-distributed are ignored.
std::vector<EnvRow> lint_env(const EnvLintInput& input);
// The same rows held compactly (env/rows.h): what `env lint` renders, whatever the input's size.
// The rows point into `input`, which must outlive them.
EnvRows lint_env_rows(const EnvLintInput& input);
EnvRow to_row(const EnvRowView& v);

nlohmann::json to_json(const EnvRow& row);
nlohmann::json to_json(const EnvRowView& row);

}  // namespace ncdx::analyze
