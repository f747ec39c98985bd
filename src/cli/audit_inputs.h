#pragma once
// Gathers what `ncdx audit` judges: the script, the YAML, the overrides (script first, then the
// command line), the env (process, --env-file, the script's exports) and the versions.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "analyze/config/env_file.h"
#include "analyze/config/hydra_override.h"
#include "analyze/config/run_script.h"
#include "core/result.h"

namespace ncdx::cli {

struct AuditFlags {
  std::string config, script, verl, nccl, torch, fabric, model_size, env_file, from;
  std::optional<int> nodes, gpus_per_node;
  std::optional<double> gpu_mem_gib;
  std::string format = "text";
  bool print = false, migrate = false, bare = false, no_process_env = false;
  std::vector<std::string> thresholds, overrides;
};

struct AuditInputs {
  std::optional<analyze::RunScript> script;
  std::optional<std::string> yaml_text;
  std::vector<analyze::Override> overrides;
  std::vector<analyze::EnvSetting> env;   // effective, later sources win: process < env file < script
};

core::Result<std::string> read_text_file(const std::string& path, std::size_t max_bytes);
core::Result<AuditInputs> load_audit_inputs(const AuditFlags& f);

}  // namespace ncdx::cli
