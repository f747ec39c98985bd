#include "analyze/config/verl_compose.h"

#include "analyze/config/config_tree.h"
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

core::Result<ComposedConfig> compose_verl(const ComposeInput& in) {
  ComposedConfig out;
  const knowledge::VerlSchema* schema = nullptr;
  if (!in.bare) {
    auto s = knowledge::VerlSchema::get();
    if (!s) return s.status();
    schema = *s;
    out.tree = schema->defaults_tree(in.verl, in.strategy);
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
  KeyOracle oracle;
  if (schema) {
    oracle = [&](const std::string& key) {
      if (schema->invented(key)) return KeyTruth::absent;
      const auto* k = schema->find(key);
      if (!k) {
        // Under a key the schema records as a leaf (not open): Hydra would refuse a child.
        return find_path(out.tree, key) ? KeyTruth::tree : KeyTruth::unknown;
      }
      if (!schema->exists(*k, in.verl, in.strategy)) return KeyTruth::absent;
      if (k->open || find_path(out.tree, key)) return KeyTruth::tree;
      // Exists in verl; ncdx did not record its default. Hydra's verdict on `+key` depends on the
      // real value, which we do not know: treat as present but flag the verdict as uncertain.
      return KeyTruth::exists;
    };
  }
  out.applied = apply_overrides(out.tree, in.overrides, oracle, &out.origin);
  return out;
}

}  // namespace ncdx::analyze
