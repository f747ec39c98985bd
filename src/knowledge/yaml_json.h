#pragma once
// YAML -> JSON with OmegaConf's scalar typing, so a verl config read by ncdx has the same values
// (types included) that OmegaConf gives verl: plain scalars are resolved with PyYAML's YAML 1.1
// rules (yes/no/on/off are booleans, ~ and empty are null) plus OmegaConf's float resolver
// ("1e-6" is a float); quoted scalars stay strings.
#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

#include <map>
#include <string>
#include <string_view>

#include "core/result.h"

namespace ncdx::knowledge {

// Types one plain (unquoted) YAML scalar the way OmegaConf's YAML loader does.
nlohmann::json omegaconf_plain_scalar(std::string_view text);

// Converts a parsed node. `lines`, when given, receives dotted key -> 1-based line of every leaf.
// Bounded: more than `max_nodes` nodes (alias bombs) or nesting deeper than 200 is bad input.
// verl's largest trainer config expands to about 1 100 leaves (knowledge/data/verl_config.tsv), so
// 200 000 is a wide margin that still stops a billion-laughs file within a second, sanitizers on.
core::Result<nlohmann::json> yaml_to_json(const YAML::Node& node, std::map<std::string, int>* lines = nullptr,
                                          std::size_t max_nodes = 200'000);

// Parses YAML text (one document) into JSON; errors name `source:line:column`.
core::Result<nlohmann::json> parse_yaml_json(std::string_view text, std::string_view source,
                                             std::map<std::string, int>* lines = nullptr);

}  // namespace ncdx::knowledge
