#include "cli/env_render.h"

#include <sstream>

#include "core/redact.h"
#include "core/strings.h"
#include "core/table.h"

namespace ncdx::cli {
namespace {

bool shell_safe(const std::string& v) {
  if (v.empty()) return false;
  for (char c : v)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || std::string_view("_-.,/:%^=+@").find(c) != std::string_view::npos))
      return false;
  return true;
}

std::string shell_quote(const std::string& v) {
  if (shell_safe(v)) return v;
  std::string out = "'";
  for (char c : v) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string yaml_quote(const std::string& v) {
  std::string out = "\"";
  for (char c : v) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

core::Color color_of(const std::string& status) {
  return status == "FAIL" ? core::Color::red : status == "WARN" ? core::Color::yellow : core::Color::green;
}

}  // namespace

std::string render_lint_text(const std::vector<analyze::EnvRow>& rows, bool color) {
  if (rows.empty()) return "No NCCL / PyTorch-distributed variables to lint.\n";
  core::Table t({"STATUS", "PARAMETER", "VALUE", "RISK", "RECOMMENDED"});
  for (const auto& r : rows)
    t.add({core::Cell(r.status, color_of(r.status)), r.parameter, core::redact_value(r.parameter, r.value),
           r.risk.empty() ? "-" : r.risk, r.recommended.empty() ? "-" : r.recommended});
  std::ostringstream o;
  o << t.render(color, 60) << "\n";
  int i = 0;
  int pass = 0, warn = 0, fail = 0;
  for (const auto& r : rows) {
    (r.status == "FAIL" ? fail : r.status == "WARN" ? warn : pass)++;
    o << "[" << ++i << "] " << r.parameter << " (" << r.rule << (r.origin.empty() ? "" : ", from " + r.origin)
      << "): " << r.why << "\n    source: " << r.source << "\n";
  }
  o << "\n" << rows.size() << " rows: " << fail << " FAIL, " << warn << " WARN, " << pass << " PASS\n";
  return o.str();
}

core::Result<std::string> render_block(const std::vector<analyze::EnvRec>& recs, const std::string& format,
                                       const std::vector<std::string>& header) {
  std::ostringstream o;
  if (format == "export" || format == "dotenv") {
    for (const auto& h : header) o << "# " << h << "\n";
    for (const auto& r : recs) {
      if (r.name.empty()) {
        o << "# note: " << r.reason << " [" << r.source << "]\n";
      } else {
        o << "# " << r.reason << " [" << r.source << "]\n"
          << (format == "export" ? "export " : "") << r.name << "=" << shell_quote(r.value) << "\n";
      }
    }
    return o.str();
  }
  if (format == "ray") {
    for (const auto& h : header) o << "# " << h << "\n";
    o << "env_vars:\n";
    for (const auto& r : recs) {
      if (r.name.empty()) o << "  # note: " << r.reason << " [" << r.source << "]\n";
      else o << "  # " << r.reason << " [" << r.source << "]\n  " << r.name << ": " << yaml_quote(r.value) << "\n";
    }
    return o.str();
  }
  return core::Status::usage("--format must be export, dotenv or ray, got '" + format + "'");
}

nlohmann::json block_json(const std::vector<analyze::EnvRec>& recs) {
  nlohmann::json vars = nlohmann::json::array(), notes = nlohmann::json::array();
  for (const auto& r : recs) {
    if (r.name.empty()) notes.push_back({{"note", r.reason}, {"source", r.source}});
    else vars.push_back({{"name", r.name}, {"value", r.value}, {"reason", r.reason}, {"source", r.source}});
  }
  return {{"vars", vars}, {"notes", notes}};
}

core::Result<std::optional<core::Version>> version_flag(const std::string& flag, const std::string& value) {
  if (value.empty()) return std::optional<core::Version>();
  auto v = core::Version::parse(value);
  if (!v) return core::Status::usage(flag + " expects a version like 2.21.5, got '" + value + "'");
  return std::optional<core::Version>(*v);
}

int exit_for_status(const std::string& status) {
  return status == "FAIL" ? 2 : status == "WARN" ? 1 : 0;
}

}  // namespace ncdx::cli
