#pragma once
// Applies Hydra overrides to a config tree with Hydra's semantics (ConfigLoaderImpl.
// _apply_overrides_to_config over a struct-mode OmegaConf config):
//   key=v   the key must exist           -> "Could not override 'k'. To append to your config use +k=v"
//   +key=v  the key must not hold a value -> "Could not append to config. An item is already at 'k'."
//   ++key=v either
//   ~key    the key must hold a value     -> "Could not delete from config. 'k' does not exist."
// Dict values merge into dicts; everything else replaces.
#include <nlohmann/json.hpp>

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "analyze/config/hydra_override.h"

namespace ncdx::analyze {

// What the real config has at a key, when the tree given to apply_overrides is only a partial
// picture of it (ncdx's schema records some keys without their default).
enum class KeyTruth {
  tree,         // decide from the tree (strict Hydra; keys the schema does not know)
  exists,       // the real config has the key with a non-null value we did not materialise
  absent,       // the real config has no such key (this verl version / strategy)
  unknown,      // nobody knows: accept `key=v` as Hydra would if verl had it, but say so
};

struct ApplyIssue {
  std::string kind;      // "missing-key" | "append-existing" | "delete-missing" | "delete-mismatch" | "not-a-container"
  std::string key, input, origin;
  std::string message;   // Hydra's message
  bool certain = true;   // false when the verdict rests on ncdx's partial knowledge
};

struct ApplyResult {
  std::vector<ApplyIssue> issues;
  std::vector<std::string> unverified;  // keys accepted under KeyTruth::unknown
};

using KeyOracle = std::function<KeyTruth(const std::string& key)>;

// Applies in order; a failing override is skipped (and reported), the others still apply, so the
// audit can report every problem at once. `origins` (optional) records key -> origin of its value.
ApplyResult apply_overrides(nlohmann::json& cfg, const std::vector<Override>& overrides, const KeyOracle& oracle,
                            std::map<std::string, std::string>* origins = nullptr);

}  // namespace ncdx::analyze
