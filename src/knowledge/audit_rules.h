#pragma once
// Audit rule metadata (data/audit_rules.yaml): id, title, rationale, source, message template and
// overridable numeric thresholds.
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace ncdx::knowledge {

struct AuditRuleInfo {
  std::string id, title, rationale, source, message;
  std::map<std::string, double> thresholds;
};

core::Result<const std::vector<AuditRuleInfo>*> audit_rules();
const AuditRuleInfo* find_audit_rule(std::string_view id);

}  // namespace ncdx::knowledge
