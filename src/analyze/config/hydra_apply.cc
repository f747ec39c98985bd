#include "analyze/config/hydra_apply.h"

#include <optional>

#include "analyze/config/config_tree.h"

namespace ncdx::analyze {
namespace {

// OmegaConf.select(cfg, key, throw_on_missing=False): the value, or nullopt for missing, null or ???.
// An interpolation `${a.b}`, `${.sibling}` or `${oc.select:.sibling,default}` followed to the node it
// names (OmegaConf's relative keys: one leading dot = the key's own parent node, each further dot one
// level up). nullopt when it is another kind of interpolation or too deep.
std::optional<nlohmann::json> resolve(const nlohmann::json& cfg, const std::string& key, int depth = 0) {
  const auto* j = find_path(cfg, key);
  if (!j) return std::nullopt;
  if (!j->is_string()) return *j;
  const auto& s = j->get_ref<const std::string&>();
  if (s.size() < 3 || s.rfind("${", 0) != 0 || s.back() != '}' || s.find("${", 2) != std::string::npos) return *j;
  if (depth > 8) return std::nullopt;
  std::string inner = s.substr(2, s.size() - 3), fallback;
  bool select = inner.rfind("oc.select:", 0) == 0;
  if (select) {
    inner = inner.substr(10);
    auto comma = inner.find(',');
    fallback = comma == std::string::npos ? "null" : inner.substr(comma + 1);
    inner = inner.substr(0, comma);
  } else if (inner.find(':') != std::string::npos) {
    return std::nullopt;  // a resolver (oc.env, ...): its value is not in the tree
  }
  std::string target = inner;
  if (!inner.empty() && inner[0] == '.') {
    std::size_t dots = inner.find_first_not_of('.');
    if (dots == std::string::npos) return std::nullopt;
    std::string base = key;
    for (std::size_t d = 0; d < dots; ++d) {
      auto cut = base.rfind('.');
      base = cut == std::string::npos ? std::string() : base.substr(0, cut);
    }
    target = (base.empty() ? "" : base + ".") + inner.substr(dots);
  }
  if (find_path(cfg, target)) return resolve(cfg, target, depth + 1);
  if (select && fallback == "null") return nlohmann::json(nullptr);
  return std::nullopt;
}

bool has_value(const nlohmann::json& cfg, const std::string& key) {
  auto j = find_path(cfg, key);
  if (!j || j->is_null()) return false;
  if (j->is_string() && j->get_ref<const std::string&>() == "???") return false;
  // Hydra's '+' check selects the value with interpolations resolved: ${oc.select:.x,null} with x
  // null is free (Hydra 1.3 ConfigLoaderImpl._apply_overrides_to_config, OverrideType.ADD).
  if (auto r = resolve(cfg, key); r && (r->is_null() || (r->is_string() && r->get_ref<const std::string&>() == "???")))
    return false;
  return true;
}

// OmegaConf.update(cfg, key, value, merge=True): merge containers, otherwise assign.
void update(nlohmann::json& cfg, const std::string& key, const nlohmann::json& value) {
  auto* node = find_path(cfg, key);
  if (node && node->is_object() && value.is_object()) {
    merge_into(*node, value);
    return;
  }
  set_path(cfg, key, value);
}

// Struct mode: every parent must exist and be a container, and so must the key itself.
bool parent_chain_exists(const nlohmann::json& cfg, const std::string& key) {
  auto dot = key.rfind('.');
  if (dot == std::string::npos) return true;
  auto* p = find_path(cfg, key.substr(0, dot));
  return p && (p->is_object() || p->is_array());
}

// New dict keys merged in struct mode fail like a missing key.
bool merge_adds_keys(const nlohmann::json& node, const nlohmann::json& value) {
  if (!node.is_object() || !value.is_object()) return false;
  for (auto it = value.begin(); it != value.end(); ++it) {
    auto d = node.find(it.key());
    if (d == node.end()) return true;
    if (d->is_object() && it->is_object() && merge_adds_keys(*d, *it)) return true;
  }
  return false;
}

}  // namespace

ApplyResult apply_overrides(nlohmann::json& cfg, const std::vector<Override>& overrides, const KeyOracle& oracle,
                            std::map<std::string, std::string>* origins) {
  ApplyResult r;
  auto issue = [&](const Override& o, std::string kind, std::string msg, bool certain = true) {
    r.issues.push_back({std::move(kind), o.key, o.input, o.origin, std::move(msg), certain});
  };
  auto record = [&](const Override& o) {
    if (origins) (*origins)[o.key] = o.origin;
  };
  for (const auto& o : overrides) {
    KeyTruth truth = oracle ? oracle(o.key) : KeyTruth::tree;
    const nlohmann::json* node = find_path(cfg, o.key);
    bool in_tree = node != nullptr;
    switch (o.kind) {
      case OverrideKind::remove: {
        bool present = has_value(cfg, o.key) || truth == KeyTruth::exists;
        if (truth == KeyTruth::absent) present = false;
        if (!present) {
          issue(o, "delete-missing", "Could not delete from config. '" + o.key + "' does not exist.",
                truth != KeyTruth::unknown);
          break;
        }
        if (o.value && node && *o.value != *node) {
          issue(o, "delete-mismatch", "Could not delete from config. The value of '" + o.key + "' is " +
                                          display(*node) + " and not " + display(*o.value) + ".");
          break;
        }
        erase_path(cfg, o.key);
        if (origins) origins->erase(o.key);
        break;
      }
      case OverrideKind::add: {
        bool occupied = truth == KeyTruth::absent ? false : (has_value(cfg, o.key) || truth == KeyTruth::exists);
        if (occupied && !(o.value->is_object() || o.value->is_array())) {
          std::string rest = o.input.substr(1);
          issue(o, "append-existing",
                "Could not append to config. An item is already at '" + o.key + "'. Either remove + prefix: '" + rest +
                    "' Or add a second + to add or override '" + o.key + "': '+" + o.input + "'",
                has_value(cfg, o.key));
          break;
        }
        update(cfg, o.key, *o.value);
        record(o);
        break;
      }
      case OverrideKind::force_add:
        update(cfg, o.key, *o.value);
        record(o);
        break;
      case OverrideKind::change: {
        bool exists = false;
        switch (truth) {
          case KeyTruth::tree: exists = in_tree; break;
          case KeyTruth::exists: exists = true; break;
          case KeyTruth::absent: exists = false; break;
          case KeyTruth::unknown:
            exists = true;
            if (!in_tree) r.unverified.push_back(o.key);
            break;
        }
        if (truth == KeyTruth::tree && in_tree && merge_adds_keys(*node, *o.value)) exists = false;
        if (truth == KeyTruth::tree && !in_tree && !parent_chain_exists(cfg, o.key)) exists = false;
        if (!exists) {
          issue(o, "missing-key",
                "Could not override '" + o.key + "'. To append to your config use +" + o.input +
                    " (Key '" + split_key(o.key).back() + "' is not in struct)");
          break;
        }
        update(cfg, o.key, *o.value);
        record(o);
        break;
      }
    }
  }
  return r;
}

}  // namespace ncdx::analyze
