#include "report/env_render.h"

#include <sstream>

#include "core/redact.h"
#include "core/strings.h"
#include "core/table.h"
#include "core/outcome.h"
#include "report/text_wrap.h"
#include "report/summary_json.h"

namespace ncdx::report {
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

}  // namespace

std::string render_lint_text(const std::vector<analyze::EnvRow>& rows, bool color, std::size_t width) {
  if (rows.empty()) return "No NCCL / PyTorch-distributed variables to lint.\n";
  core::Table t({"STATUS", "PARAMETER", "VALUE", "RISK", "RECOMMENDED"});
  for (const auto& r : rows)
    t.add({core::Cell(core::to_string(r.status), core::color_of(r.status)), r.parameter, core::redact_value(r.parameter, r.value),
           r.risk.empty() ? "-" : r.risk, r.recommended.empty() ? "-" : r.recommended});
  std::string table = t.render(color, 60);
  // On a terminal too narrow for it, the risk moves to each row's note below and the value and
  // the recommendation wrap (status and variable name stay whole: they are what one greps for).
  const bool compact = !fits_width(table, width);
  if (compact) {
    core::Table c({"STATUS", "PARAMETER", "VALUE", "RECOMMENDED"});
    for (const auto& r : rows)
      c.add({core::Cell(core::to_string(r.status), core::color_of(r.status)), r.parameter, core::redact_value(r.parameter, r.value),
             r.recommended.empty() ? "-" : r.recommended});
    c.wrap_columns({2, 3});
    table = c.render(color, 0, width);
  }
  std::ostringstream o;
  o << table << "\n";
  int i = 0;
  for (const auto& r : rows) {
    std::string head = "[" + std::to_string(++i) + "] ";
    o << hanging(head, r.parameter + " (" + r.rule + (r.origin.empty() ? "" : ", from " + r.origin) + "): " + r.why, width);
    if (compact && !r.risk.empty()) o << hanging("    risk: ", r.risk, width);
    o << hanging("    source: ", r.source, width);
  }
  const auto n = core::tally_of(rows);
  o << "\n" << rows.size() << " rows: " << n.fail << " FAIL, " << n.warn << " WARN, " << n.pass << " PASS\n";
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

nlohmann::json lint_json(const std::vector<analyze::EnvRow>& rows, const std::vector<analyze::EnvSetting>& shadowed,
                         nlohmann::json input, nlohmann::json context) {
  nlohmann::json arr = nlohmann::json::array();
  for (auto r : rows) {
    r.value = core::redact_value(r.parameter, r.value);
    arr.push_back(analyze::to_json(r));
  }
  nlohmann::json sh = nlohmann::json::array();
  for (const auto& s : shadowed)
    sh.push_back({{"name", s.name}, {"value", core::redact_value(s.name, s.value)}, {"origin", s.origin}});
  return {{"schema", "ncdx.env/1"},
          {"mode", "lint"},
          {"context", std::move(context)},
          {"input", std::move(input)},
          {"summary", summary_json(core::tally_of(rows))},
          {"rows", arr},
          {"shadowed", sh}};
}

}  // namespace ncdx::report
