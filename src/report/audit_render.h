#pragma once
// Renderers of the audit table: text (terminal), Markdown, JSON (schema ncdx.audit/1).
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "analyze/audit/audit.h"

namespace ncdx::report {

// width: the terminal's columns (core::output_columns; 0 = piped, every line whole).
std::string render_audit_text(const std::vector<analyze::AuditRow>& rows, const std::vector<std::string>& header, bool color,
                              std::size_t width = 0);
std::string render_audit_md(const std::vector<analyze::AuditRow>& rows, const std::vector<std::string>& header);
nlohmann::json audit_json(const std::vector<analyze::AuditRow>& rows, const nlohmann::json& context);
// A JSON tree as block YAML (for --print).
std::string to_yaml_text(const nlohmann::json& tree);

}  // namespace ncdx::report
