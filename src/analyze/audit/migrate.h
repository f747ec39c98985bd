#pragma once
// `ncdx audit --migrate`: the run's overrides and env rewritten for the target verl version:
// invented keys -> the real key (or dropped), renamed keys -> the current name, `+` dropped on keys
// that exist, keys this version ignores annotated; env variables NCCL never reads commented out.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "analyze/env/lint.h"
#include "analyze/config/hydra_override.h"
#include "core/semver.h"
#include "knowledge/verl_schema.h"

namespace ncdx::analyze {

struct MigrateInput {
  std::vector<Override> overrides;
  std::vector<std::pair<std::string, std::optional<std::string>>> env;  // exported by the script / env file
  std::vector<EnvRow> env_rows;
  core::Version verl;
  knowledge::Strategy strategy = knowledge::Strategy::fsdp;
  std::optional<std::string> config_path, config_name;
  std::string module = "verl.trainer.main_ppo";
};

struct MigratedOverride {
  std::string text;     // empty = dropped
  std::string comment;  // why it changed (empty = unchanged)
  std::string input;
};

std::vector<MigratedOverride> migrate_overrides(const MigrateInput& in, const knowledge::VerlSchema& schema);
// The shell text: env block, change log as comments, then one clean python3 -m command.
std::string render_migration(const MigrateInput& in, const knowledge::VerlSchema& schema);

// Shell-quotes a word only when needed (single quotes).
std::string shell_quote(const std::string& s);

}  // namespace ncdx::analyze
