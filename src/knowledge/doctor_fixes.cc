#include "knowledge/doctor_fixes.h"

#include <yaml-cpp/yaml.h>

#include <set>
#include <stdexcept>

#include "knowledge/yaml_load.h"

namespace ncdx::knowledge {
namespace {

const EmbeddedTable<DoctorFix>& loaded() {
  static const auto l = load_embedded_table<DoctorFix>("doctor_fixes.yaml", parse_doctor_fixes_yaml);
  return l;
}

}  // namespace

core::Result<std::vector<DoctorFix>> parse_doctor_fixes_yaml(std::string_view text, std::string_view source) {
  auto at = [&](const YAML::Node& n, const std::string& what) {
    return core::Status::bad_input(std::string(source) + ":" + std::to_string(n.Mark().line + 1) + ": " + what);
  };
  auto parsed = parse_yaml_list(text, source, "fixes");
  if (!parsed) return parsed.status();
  const YAML::Node root = *parsed;
  std::vector<DoctorFix> out;
  std::set<std::string> ids;
  try {
    for (const auto& n : root) {
      if (!n.IsMap() || !n["id"] || !n["fix"]) return at(n, "expected a fix with id and fix");
      DoctorFix d;
      d.id = n["id"].as<std::string>();
      if (!ids.insert(d.id).second) return at(n, "duplicate fix id '" + d.id + "'");
      if (n["vars"]) d.vars = n["vars"].as<std::vector<std::string>>();
      d.fix = n["fix"].as<std::string>();
      if (n["applies"]) d.applies = n["applies"].as<std::string>();
      if (auto bad = undeclared_vars(d.vars, {d.fix}); !bad.empty()) return at(n, d.id + ": " + bad + " (add it to vars)");
      out.push_back(std::move(d));
    }
  } catch (const YAML::Exception& e) {
    return core::Status::bad_input(std::string(source) + ":" + std::to_string(e.mark.line + 1) + ": " + e.msg);
  }
  return out;
}

std::span<const DoctorFix> doctor_fix_table() { return loaded().rows; }
core::Status doctor_fix_table_status() { return loaded().status; }

std::string doctor_fix(std::string_view id, const FindingVars& vars) {
  for (const auto& d : doctor_fix_table())
    if (d.id == id) return fill_template(d.fix, vars);
  throw std::logic_error("doctor fix '" + std::string(id) + "' is not in doctor_fixes.yaml (" + doctor_fix_table_status().message() + ")");
}

}  // namespace ncdx::knowledge
