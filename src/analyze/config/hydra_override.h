#pragma once
// Hydra command-line overrides (hydra.cc "Override grammar"): `key=value`, `+key=value` (append),
// `++key=value` (append or override), `~key[=value]` (delete). Values are typed like Hydra does:
// null, true/false, ints, floats (incl. inf/nan), quoted strings, [lists] and {dicts}; OmegaConf
// interpolations (${...}) stay text. Sweeps and functions are refused. Config-group overrides
// (model_engine=megatron, actor@actor_rollout_ref.actor=megatron_actor) parse like any override;
// compose_verl tells them apart by the config's defaults list.
#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>

#include "core/result.h"

namespace ncdx::analyze {

enum class OverrideKind { change, add, force_add, remove };
const char* prefix_of(OverrideKind k);  // "", "+", "++", "~"

struct Override {
  OverrideKind kind = OverrideKind::change;
  std::string key;
  std::optional<nlohmann::json> value;  // absent only for `~key`
  std::string input;                    // the text as given (after shell quote removal)
  std::string origin;                   // "run.sh:12", "cli", ...
  std::string value_text() const;       // the text after '=' ("" when absent)
};

// Parses one override; errors are bad_input with what was expected.
core::Result<Override> parse_override(std::string_view text);

// Types one unquoted Hydra primitive ("8" -> 8, "0.6" -> 0.6, "True" -> true, "null" -> null).
nlohmann::json hydra_primitive(std::string_view text);

}  // namespace ncdx::analyze
