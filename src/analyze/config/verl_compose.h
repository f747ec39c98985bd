#pragma once
// The effective verl config: verl's released defaults for (verl version, entry-point config,
// config-group choices such as model_engine=megatron) + a YAML file + Hydra overrides, with Hydra's
// override semantics. In `bare` mode the YAML alone is the base and
// every override is checked strictly against it (exactly what Hydra's compose does; this is what
// the OmegaConf/Hydra oracle test compares).
#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "analyze/config/hydra_apply.h"
#include "analyze/config/hydra_override.h"
#include "core/result.h"
#include "core/semver.h"
#include "knowledge/verl_schema.h"

namespace ncdx::analyze {

struct ComposeInput {
  std::optional<std::string> yaml_text;
  std::string yaml_name;                 // for error messages
  std::vector<Override> overrides;       // in order: script, then command line
  core::Version verl;
  knowledge::Strategy strategy = knowledge::Strategy::fsdp;
  std::string config;                    // VerlFacts config id; empty = the strategy's trainer config
  bool bare = false;
};

struct ComposedConfig {
  nlohmann::json tree = nlohmann::json::object();
  std::map<std::string, std::string> origin;   // dotted key -> "default" | "file.yaml:12" | "run.sh:40" | "cli"
  ApplyResult applied;
  std::string config;                    // the config composed
  std::vector<std::string> groups;       // config-group overrides applied ("model_engine=megatron")
  // What the composed actor says (actor_rollout_ref.actor.strategy == megatron), else the input's.
  knowledge::Strategy strategy = knowledge::Strategy::fsdp;
};

// Bad YAML is bad input (file:line:column). Override problems are reported in `applied.issues`
// (in bare mode the caller turns the first one into exit 65, like Hydra raising).
core::Result<ComposedConfig> compose_verl(const ComposeInput& in);

// Which trainer config a run uses: the megatron one when the config name says so or when
// actor_rollout_ref.actor.strategy=megatron is given.
knowledge::Strategy detect_strategy(const std::optional<std::string>& config_name,
                                    const std::vector<Override>& overrides,
                                    const std::optional<nlohmann::json>& yaml_tree);

}  // namespace ncdx::analyze
