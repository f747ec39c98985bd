#include "knowledge/audit_rules.h"

#include <yaml-cpp/yaml.h>

#include "knowledge/yaml_load.h"

namespace ncdx::knowledge {

core::Result<const std::vector<AuditRuleInfo>*> audit_rules() {
  static const core::Result<std::vector<AuditRuleInfo>> parsed = []() -> core::Result<std::vector<AuditRuleInfo>> {
    auto doc = load_embedded_yaml("audit_rules.yaml");
    if (!doc) return doc.status();
    std::vector<AuditRuleInfo> out;
    try {
      const YAML::Node& root = *doc;
      for (const auto& n : root["rules"]) {
        AuditRuleInfo r;
        r.id = n["id"].as<std::string>();
        r.title = n["title"].as<std::string>();
        r.rationale = n["rationale"].as<std::string>();
        r.source = n["source"].as<std::string>();
        if (n["message"]) r.message = n["message"].as<std::string>();
        for (const auto& t : n["thresholds"]) r.thresholds[t.first.as<std::string>()] = t.second.as<double>();
        out.push_back(std::move(r));
      }
    } catch (const std::exception& e) {
      return core::Status::internal(std::string("knowledge/audit_rules.yaml: ") + e.what());
    }
    return out;
  }();
  if (!parsed) return parsed.status();
  return &parsed.value();
}

const AuditRuleInfo* find_audit_rule(std::string_view id) {
  auto rules = audit_rules();
  if (!rules) return nullptr;
  for (const auto& r : **rules)
    if (r.id == id) return &r;
  return nullptr;
}

}  // namespace ncdx::knowledge
