#include "knowledge/model_families.h"

#include <yaml-cpp/yaml.h>

#include <regex>

#include "core/strings.h"
#include "knowledge/yaml_load.h"

namespace ncdx::knowledge {
namespace {

struct Table {
  std::vector<ModelInfo> models;
  std::vector<std::regex> patterns;
  core::Status status;
};

const Table& table() {
  static const Table t = [] {
    Table t;
    auto doc = load_embedded_yaml("model_families.yaml");
    if (!doc) {
      t.status = doc.status();
      return t;
    }
    try {
      const YAML::Node& root = *doc;
      for (const auto& n : root["models"]) {
        ModelInfo m;
        m.id = n["id"].as<std::string>();
        m.family = n["family"].as<std::string>();
        m.source = n["source"].as<std::string>();
        auto d = [&](const char* k) { return n[k] ? std::optional<double>(n[k].as<double>()) : std::nullopt; };
        auto i = [&](const char* k) { return n[k] ? std::optional<int>(n[k].as<int>()) : std::nullopt; };
        m.params_b = d("params_b");
        m.active_b = d("active_b");
        m.layers = i("layers");
        m.heads = i("heads");
        m.kv_heads = i("kv_heads");
        m.hidden = i("hidden");
        m.vocab = i("vocab");
        m.experts = i("experts");
        t.patterns.emplace_back(n["match"].as<std::string>(), std::regex::icase | std::regex::ECMAScript);
        t.models.push_back(std::move(m));
      }
    } catch (const std::exception& e) {
      t.models.clear();
      t.patterns.clear();
      t.status = core::Status::internal(std::string("knowledge/model_families.yaml: ") + e.what());
    }
    return t;
  }();
  return t;
}

}  // namespace

const std::vector<ModelInfo>& model_table() { return table().models; }
core::Status model_table_status() { return table().status; }

std::optional<ModelInfo> match_model(std::string_view path) {
  std::string p(path);
  while (!p.empty() && p.back() == '/') p.pop_back();
  auto slash = p.rfind('/');
  std::string base = slash == std::string::npos ? p : p.substr(slash + 1);
  const auto& t = table();
  for (std::size_t i = 0; i < t.models.size(); ++i)
    if (std::regex_search(base, t.patterns[i])) return t.models[i];
  return std::nullopt;
}

std::optional<double> parse_size_token(std::string_view text) {
  static const std::regex moe(R"((?:^|[^0-9.])(\d+)x(\d+(?:\.\d+)?)[bB](?![a-zA-Z]))");
  static const std::regex dense(R"((?:^|[^0-9.a-zA-Z])(\d+(?:\.\d+)?)[bB](?![a-zA-Z]))");
  std::string s(text);
  std::smatch m;
  if (std::regex_search(s, m, moe)) {
    auto n = core::parse_double(m[1].str()), b = core::parse_double(m[2].str());
    if (n && b) return *n * *b;  // upper bound; shared layers make the real total smaller
  }
  if (std::regex_search(s, m, dense)) return core::parse_double(m[1].str());
  return std::nullopt;
}

}  // namespace ncdx::knowledge
