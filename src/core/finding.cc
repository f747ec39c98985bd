#include "core/finding.h"

#include <algorithm>

#include "core/json.h"
#include "core/outcome.h"

namespace ncdx::core {

const char* to_string(Severity s) {
  switch (s) {
    case Severity::info: return "info";
    case Severity::warn: return "warn";
    case Severity::error: return "error";
    case Severity::critical: return "critical";
  }
  return "info";
}

std::optional<Severity> parse_severity(std::string_view s) {
  if (s == "info") return Severity::info;
  if (s == "warn" || s == "warning") return Severity::warn;
  if (s == "error") return Severity::error;
  if (s == "critical") return Severity::critical;
  return std::nullopt;
}

bool is_failure_class(std::string_view s) {
  return std::any_of(std::begin(kFailureClasses), std::end(kFailureClasses),
                     [&](const char* c) { return s == c; });
}

nlohmann::json to_json(const Evidence& e) {
  return {{"file", e.file}, {"line", opt_json(e.line)}, {"rank", opt_json(e.rank)},
          {"host", opt_json(e.host)}, {"time", opt_json(e.time)}, {"text", e.text}};
}

nlohmann::json to_json(const Fix& f) {
  return {{"action", f.action}, {"env", opt_json(f.env)}, {"command", opt_json(f.command)},
          {"applies", opt_json(f.applies)}, {"doc", opt_json(f.doc)}};
}

nlohmann::json to_json(const Culprit& c) {
  return {{"ranks", c.ranks}, {"hosts", c.hosts}, {"devices", c.devices},
          {"component", opt_json(c.component)}};
}

nlohmann::json to_json(const Finding& f) {
  nlohmann::json ev = nlohmann::json::array(), fx = nlohmann::json::array();
  for (const auto& e : f.evidence) ev.push_back(to_json(e));
  for (const auto& x : f.fixes) fx.push_back(to_json(x));
  return {{"id", f.id},           {"class", f.klass},     {"severity", to_string(f.severity)},
          {"title", f.title},     {"summary", f.summary}, {"culprit", to_json(f.culprit)},
          {"evidence", ev},       {"fixes", fx},          {"confidence", f.confidence}};
}

int exit_code_for(const std::vector<Finding>& findings) {
  return exit_code_of(findings, [](const Finding& f) { return outcome_of(f.severity); });
}

}  // namespace ncdx::core
