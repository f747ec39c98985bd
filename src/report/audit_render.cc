#include "report/audit_render.h"

#include <yaml-cpp/yaml.h>

#include "core/outcome.h"
#include "core/redact.h"
#include "knowledge/yaml_json.h"
#include "core/table.h"
#include "core/term.h"
#include "report/text_wrap.h"
#include "report/summary_json.h"

namespace ncdx::report {
namespace {

std::string summary_line(const std::vector<analyze::AuditRow>& rows) {
  const auto n = core::tally_of(rows);
  return std::to_string(rows.size()) + " checks: " + std::to_string(n.fail) + " FAIL, " + std::to_string(n.warn) + " WARN, " +
         std::to_string(n.pass) + " PASS, " + std::to_string(n.skip) + " SKIP" +
         (n.info ? ", " + std::to_string(n.info) + " INFO" : "");
}

std::string shorten(const std::string& s, std::size_t n) {
  if (s.size() <= n) return s;
  std::size_t cut = n;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
  return s.substr(0, cut) + "...";
}

void emit_yaml(YAML::Emitter& e, const nlohmann::json& j) {
  if (j.is_object()) {
    e << YAML::BeginMap;
    for (auto it = j.begin(); it != j.end(); ++it) {
      e << YAML::Key << it.key() << YAML::Value;
      emit_yaml(e, *it);
    }
    e << YAML::EndMap;
  } else if (j.is_array()) {
    e << YAML::Flow << YAML::BeginSeq;
    for (const auto& x : j) emit_yaml(e, x);
    e << YAML::EndSeq;
  } else if (j.is_null()) {
    e << YAML::Null;
  } else if (j.is_string()) {
    // A string OmegaConf would re-type when read back ("8", "true", "null") is quoted.
    const auto& s = j.get_ref<const std::string&>();
    if (knowledge::omegaconf_plain_scalar(s).is_string()) e << s;
    else e << YAML::DoubleQuoted << s;
  } else {
    e << j.dump();
  }
}

}  // namespace

std::string render_audit_text(const std::vector<analyze::AuditRow>& rows, const std::vector<std::string>& header, bool color,
                              std::size_t width) {
  std::string out;
  for (const auto& h : header) out += hanging("", h, width);
  if (!header.empty()) out += "\n";
  core::Table t({"parameter", "value", "recommended", "risk threshold", "status", "why", "source"});
  for (const auto& r : rows)
    t.add({core::Cell(r.parameter), core::Cell(core::redact_value(r.parameter, r.value)), core::Cell(r.recommended),
           core::Cell(r.risk), core::Cell(core::to_string(r.status), core::color_of(r.status)), core::Cell(shorten(r.why, 60)),
           core::Cell(shorten(r.source, 40))});
  std::string table = t.render(color, 72);
  // A terminal narrower than the seven columns gets four, status first as in doctor's tables, the
  // other three wrapped; recommended, risk threshold and source move to the details of each row
  // that needs action (a PASS row's recommended value is the one it has), where `why` is whole.
  const bool compact = !fits_width(table, width);
  if (compact) {
    core::Table c({"status", "parameter", "value", "why"});
    for (const auto& r : rows)
      c.add({core::Cell(core::to_string(r.status), core::color_of(r.status)), core::Cell(r.parameter),
             core::Cell(core::redact_value(r.parameter, r.value)), core::Cell(shorten(r.why, 60))});
    c.wrap_columns({1, 2, 3});
    table = c.render(color, 0, width);
  }
  out += table;
  // The table cuts long cells; every finding that needs action gets its full text here.
  int n = 0;
  for (const auto& r : rows) {
    if (r.status == core::Outcome::pass) continue;
    if (n++ == 0) out += "\nDetails\n";
    out += hanging(std::string("  [") + core::to_string(r.status) + "] ", r.parameter + (r.origin.empty() ? "" : " (" + r.origin + ")"), width);
    out += hanging("    why: ", r.why, width);
    if (!r.recommended.empty()) out += hanging("    recommended: ", r.recommended, width);
    if (compact && !r.risk.empty() && r.risk != "-") out += hanging("    risk threshold: ", r.risk, width);
    out += hanging("    source: ", r.source + "  [" + r.rule + "]", width);
  }
  out += "\n" + summary_line(rows) + "\n";
  return out;
}

std::string render_audit_md(const std::vector<analyze::AuditRow>& rows, const std::vector<std::string>& header) {
  auto esc = [](std::string s) {
    std::string o;
    for (char c : s) {
      if (c == '|') o += "\\|";
      else if (c == '\n') o += "<br>";
      else o.push_back(c);
    }
    return o;
  };
  std::string out = "# ncdx audit\n\n";
  for (const auto& h : header) out += "- " + esc(h) + "\n";
  if (!header.empty()) out += "\n";
  out += "| parameter | value | recommended | risk threshold | status | why | source |\n";
  out += "|---|---|---|---|---|---|---|\n";
  for (const auto& r : rows)
    out += "| `" + esc(r.parameter) + "` | " + esc(core::redact_value(r.parameter, r.value)) + " | " + esc(r.recommended) + " | " +
           esc(r.risk) + " | **" + core::to_string(r.status) + "** | " + esc(r.why) + " | " + esc(r.source) + " |\n";
  out += "\n" + summary_line(rows) + "\n";
  return out;
}

nlohmann::json audit_json(const std::vector<analyze::AuditRow>& rows, const nlohmann::json& context) {
  nlohmann::json arr = nlohmann::json::array();
  for (auto r : rows) {
    r.value = core::redact_value(r.parameter, r.value);
    arr.push_back(analyze::to_json(r));
  }
  return {{"schema", "ncdx.audit/1"},
          {"summary", summary_json(core::tally_of(rows))},
          {"rows", arr},
          {"context", context}};
}

std::string to_yaml_text(const nlohmann::json& tree) {
  YAML::Emitter e;
  emit_yaml(e, tree);
  return std::string(e.c_str()) + "\n";
}

}  // namespace ncdx::report
