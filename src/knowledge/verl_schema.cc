#include "knowledge/verl_schema.h"

#include <yaml-cpp/yaml.h>

#include <map>

#include "knowledge/yaml_load.h"
#include "knowledge/yaml_json.h"

namespace ncdx::knowledge {

const char* to_string(Strategy s) { return s == Strategy::fsdp ? "fsdp" : "megatron"; }

namespace {

core::Version ver(const YAML::Node& n) {
  auto v = core::Version::parse(n.as<std::string>());
  if (!v) throw std::runtime_error("bad version '" + n.as<std::string>() + "' at line " + std::to_string(n.Mark().line + 1));
  return *v;
}

Gate gate(const YAML::Node& n) {
  Gate g;
  if (!n) return g;
  if (n.IsMap()) {
    if (n["fsdp"]) g.fsdp = ver(n["fsdp"]);
    if (n["megatron"]) g.megatron = ver(n["megatron"]);
  } else {
    g.fsdp = g.megatron = ver(n);
  }
  return g;
}

nlohmann::json value(const YAML::Node& n) {
  auto j = yaml_to_json(n);
  if (!j) throw std::runtime_error(j.status().message());
  return *j;
}

std::string str(const YAML::Node& n) { return n && !n.IsNull() ? n.as<std::string>() : std::string(); }

void set_path(nlohmann::json& root, const std::string& dotted, const nlohmann::json& v) {
  nlohmann::json* cur = &root;
  std::size_t start = 0;
  while (true) {
    std::size_t dot = dotted.find('.', start);
    std::string part = dotted.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    if (dot == std::string::npos) {
      (*cur)[part] = v;
      return;
    }
    auto& next = (*cur)[part];
    if (!next.is_object()) next = nlohmann::json::object();
    cur = &next;
    start = dot + 1;
  }
}

}  // namespace

core::Result<VerlSchema> parse_verl_schema(std::string_view text) {
  VerlSchema s;
  try {
    YAML::Node root = YAML::Load(std::string(text));
    for (const auto& v : root["versions"]) s.versions_.push_back(ver(v));  // without facts only (tests)
    if (root["latest"]) s.latest_ = ver(root["latest"]);
    for (const auto& n : root["keys"]) {
      VerlKey k;
      k.key = n["key"].as<std::string>();
      k.type = str(n["type"]);
      k.note = str(n["note"]);
      k.source = str(n["source"]);
      if (n["default"]) k.default_value = value(n["default"]);
      if (n["megatron_default"]) k.megatron_default = value(n["megatron_default"]);
      for (const auto& d : n["defaults"]) k.defaults.emplace_back(ver(d["since"]), value(d["value"]));
      if (n["strategy"]) k.only = str(n["strategy"]) == "megatron" ? Strategy::megatron : Strategy::fsdp;
      k.since = gate(n["since"]);
      k.removed = gate(n["removed"]);
      k.read_since = gate(n["read_since"]);
      k.read_until = gate(n["read_until"]);
      k.renamed_to = str(n["renamed_to"]);
      k.open = n["open"] && n["open"].as<bool>();
      s.keys_.push_back(std::move(k));
    }
    for (const auto& n : root["invented"]) {
      InventedKey k;
      if (n["prefix"]) {
        k.key = n["prefix"].as<std::string>();
        k.is_prefix = true;
      } else {
        k.key = n["key"].as<std::string>();
      }
      k.did_you_mean = str(n["did_you_mean"]);
      k.why = str(n["why"]);
      k.source = str(n["source"]);
      s.invented_.push_back(std::move(k));
    }
  } catch (const std::exception& e) {
    return core::Status::internal(std::string("knowledge/verl_schema.yaml: ") + e.what());
  }
  return s;
}

void VerlSchema::attach(const VerlFacts& f) {
  facts_ = &f;
  versions_ = f.versions();
  latest_ = versions_.back();
  std::map<std::string, std::size_t> at;
  for (std::size_t i = 0; i < keys_.size(); ++i) at[keys_[i].key] = i;
  for (const char* config : {kFsdpConfig, kMegatronConfig}) {
    for (const auto& v : versions_)
      for (const auto& key : f.keys(config, v))
        if (!at.count(key)) {
          at[key] = keys_.size();
          VerlKey k;
          k.key = key;
          keys_.push_back(std::move(k));
        }
  }
  for (auto& k : keys_) {
    k.in_fsdp = f.key_versions(kFsdpConfig, k.key);
    k.in_megatron = f.key_versions(kMegatronConfig, k.key);
  }
}

core::Result<const VerlSchema*> VerlSchema::get() {
  static const core::Result<VerlSchema> parsed = [] {
    auto s = parse_embedded<VerlSchema>("verl_schema.yaml", [](std::string_view text, const std::string&) {
      return parse_verl_schema(text);
    });
    if (!s) return s;
    auto f = VerlFacts::get();
    if (!f) return core::Result<VerlSchema>(f.status());
    s->attach(**f);
    return s;
  }();
  if (!parsed) return parsed.status();
  return &parsed.value();
}

const VerlKey* VerlSchema::find(std::string_view key) const {
  for (const auto& k : keys_) {
    if (k.key == key) return &k;
    if (k.open && key.size() > k.key.size() && key.substr(0, k.key.size()) == k.key && key[k.key.size()] == '.')
      return &k;
  }
  return nullptr;
}

const InventedKey* VerlSchema::invented(std::string_view key) const {
  for (const auto& k : invented_) {
    if (!k.is_prefix && k.key == key) return &k;
    if (k.is_prefix && key.substr(0, k.key.size()) == k.key) return &k;
  }
  return nullptr;
}

bool VerlSchema::exists(const VerlKey& k, const core::Version& v, Strategy s) const {
  if (facts_) {  // the released config decides
    auto i = facts_->index(v);
    return i && ((s == Strategy::fsdp ? k.in_fsdp : k.in_megatron) >> *i & 1);
  }
  if (k.only && *k.only != s) return false;
  if (auto since = k.since.get(s); since && v < *since) return false;
  if (auto removed = k.removed.get(s); removed && v >= *removed) return false;
  return true;
}

bool VerlSchema::is_read(const VerlKey& k, const core::Version& v, Strategy s) const {
  if (!exists(k, v, s)) return false;
  if (auto since = k.read_since.get(s); since && v < *since) return false;
  if (auto until = k.read_until.get(s); until && v >= *until) return false;
  return true;
}

std::optional<nlohmann::json> VerlSchema::default_for(const VerlKey& k, const core::Version& v, Strategy s) const {
  if (facts_) return facts_->value(config_for(s), v, k.key);
  if (s == Strategy::megatron && k.megatron_default) return k.megatron_default;
  std::optional<nlohmann::json> out = k.default_value;
  for (const auto& [since, val] : k.defaults)
    if (v >= since) out = val;
  return out;
}

nlohmann::json VerlSchema::defaults_tree(const core::Version& v, Strategy s) const {
  if (facts_) return facts_->tree(config_for(s), v, {});
  nlohmann::json tree = nlohmann::json::object();
  for (const auto& k : keys_) {
    if (!exists(k, v, s)) continue;
    if (auto d = default_for(k, v, s)) set_path(tree, k.key, *d);
  }
  return tree;
}

std::vector<std::string> VerlSchema::keys_in(const core::Version& v, Strategy s) const {
  if (facts_) return facts_->keys(config_for(s), v);
  std::vector<std::string> out;
  for (const auto& k : keys_)
    if (exists(k, v, s)) out.push_back(k.key);
  return out;
}

core::Status VerlSchema::require_release(const core::Version& v, const std::string& flag) const {
  if (facts_->index(v)) return core::Status::ok();
  const auto all = ~VersionMask(0) >> (8 * sizeof(VersionMask) - facts_->versions().size());
  return core::Status::usage(flag + ": ncdx has verl's released config for " + facts_->span(all) + " only");
}

std::string VerlSchema::span(const VerlKey& k) const {
  if (facts_) {
    std::string f = facts_->span(k.in_fsdp), m = facts_->span(k.in_megatron);
    if (f == m) return f;
    return "fsdp " + f + "; megatron " + m;
  }
  auto one = [&](Strategy s) {
    std::string out;
    if (k.only && *k.only != s) return std::string("never");
    if (auto a = k.since.get(s)) out += ">= " + a->str();
    if (auto r = k.removed.get(s)) out += std::string(out.empty() ? "" : ", ") + "< " + r->str();
    return out.empty() ? std::string("all versions") : out;
  };
  std::string f = one(Strategy::fsdp), m = one(Strategy::megatron);
  if (f == m) return f;
  return "fsdp " + f + "; megatron " + m;
}

}  // namespace ncdx::knowledge
