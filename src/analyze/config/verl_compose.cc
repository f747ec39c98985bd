#include "analyze/config/verl_compose.h"

#include <algorithm>

#include "analyze/config/config_tree.h"
#include "core/strings.h"
#include "knowledge/yaml_json.h"

namespace ncdx::analyze {

knowledge::Strategy detect_strategy(const std::optional<std::string>& config_name,
                                    const std::vector<Override>& overrides,
                                    const std::optional<nlohmann::json>& yaml_tree) {
  auto s = knowledge::Strategy::fsdp;
  if (config_name && config_name->find("megatron") != std::string::npos) s = knowledge::Strategy::megatron;
  if (yaml_tree) {
    if (auto v = get_string(*yaml_tree, "actor_rollout_ref.actor.strategy"))
      s = *v == "megatron" ? knowledge::Strategy::megatron : knowledge::Strategy::fsdp;
  }
  for (const auto& o : overrides)
    if (o.key == "actor_rollout_ref.actor.strategy" && o.value && o.value->is_string())
      s = o.value->get<std::string>() == "megatron" ? knowledge::Strategy::megatron : knowledge::Strategy::fsdp;
  return s;
}

namespace {

// Hydra's defaults-list step: overrides whose key is a config-group choice of the config select
// that group's option (verl_groups.tsv); the rest apply to the composed config afterwards.
std::vector<Override> take_group_overrides(const knowledge::VerlFacts& facts, const ComposeInput& in, ComposedConfig& out) {
  std::vector<Override> rest;
  auto choices = facts.choices(out.config, in.verl);
  for (const auto& o : in.overrides) {
    auto it = choices.find(o.key);
    bool group_syntax = o.key.find('@') != std::string::npos || o.key.find('/') != std::string::npos;
    if (it == choices.end()) {
      if (group_syntax) {
        out.applied.issues.push_back({"group-missing", o.key, o.input, o.origin,
                                      "Could not override '" + o.key + "'. No match in the defaults list.", true});
        continue;
      }
      rest.push_back(o);
      continue;
    }
    if (o.kind == OverrideKind::remove || !o.value || !o.value->is_string()) {
      rest.push_back(o);  // not a choice of an option: Hydra treats it as a config key
      continue;
    }
    const std::string option = o.value->get<std::string>();
    const std::string group = o.key.substr(0, o.key.find('@'));
    const knowledge::VerlGroupOption* found = nullptr;
    for (const auto& opt : it->second)
      if (opt.option == option) found = &opt;
    if (!found) {
      std::vector<std::string> names;
      for (const auto& opt : it->second) names.push_back(opt.option);
      std::sort(names.begin(), names.end());
      out.applied.issues.push_back({"group-option", o.key, o.input, o.origin,
                                    "Could not find '" + group + "/" + option + "'. Available options in '" + group +
                                        "': " + core::join(names, ", "),
                                    true});
      continue;
    }
    if (found->status.rfind("error", 0) == 0) {
      out.applied.issues.push_back({"group-option", o.key, o.input, o.origin, "Hydra: " + found->status.substr(7), true});
      continue;
    }
    if (found->status == "ok") out.groups.push_back(o.key + "=" + option);
    out.origin[o.key] = o.origin;
  }
  return rest;
}

}  // namespace

core::Result<ComposedConfig> compose_verl(const ComposeInput& in) {
  ComposedConfig out;
  out.config = in.config.empty() ? knowledge::VerlSchema::config_for(in.strategy) : in.config;
  std::vector<Override> rest = in.overrides;
  if (!in.bare) {
    auto s = knowledge::VerlSchema::get();
    if (!s) return s.status();
    const auto& facts = (*s)->facts();
    rest = take_group_overrides(facts, in, out);
    out.tree = facts.tree(out.config, in.verl, out.groups);
    for (const auto& [k, v] : flatten(out.tree)) out.origin[k] = "default (verl " + in.verl.str() + ")";
  }
  if (in.yaml_text) {
    std::map<std::string, int> lines;
    auto y = knowledge::parse_yaml_json(*in.yaml_text, in.yaml_name, &lines);
    if (!y) return y.status();
    nlohmann::json yaml = *y;
    if (yaml.is_null()) yaml = nlohmann::json::object();
    if (!yaml.is_object())
      return core::Status::bad_input(in.yaml_name + ":1: expected a mapping of config keys at the top level");
    if (yaml.contains("defaults") && yaml["defaults"].is_array()) yaml.erase("defaults");  // Hydra consumes it
    merge_into(out.tree, yaml);
    for (const auto& [k, line] : lines) out.origin[k] = in.yaml_name + ":" + std::to_string(line);
  }
  // The tree is verl's whole released config: Hydra's struct-mode verdict comes from it alone.
  auto applied = apply_overrides(out.tree, rest, nullptr, &out.origin);
  out.applied.issues.insert(out.applied.issues.end(), applied.issues.begin(), applied.issues.end());
  out.applied.unverified = applied.unverified;
  out.strategy = in.strategy;
  if (auto st = get_string(out.tree, "actor_rollout_ref.actor.strategy"))
    out.strategy = *st == "megatron" ? knowledge::Strategy::megatron : knowledge::Strategy::fsdp;
  return out;
}

}  // namespace ncdx::analyze
