#include "report/env_render.h"

#include <sstream>

#include "core/json.h"
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

namespace {

// One row's cells; compact drops the risk (it moves to the row's note).
std::vector<core::Cell> lint_cells(const analyze::EnvRowView& r, bool compact) {
  std::vector<core::Cell> c = {core::Cell(core::to_string(r.status), core::color_of(r.status)), std::string(r.parameter),
                               core::redact_value(std::string(r.parameter), std::string(r.value))};
  if (!compact) c.emplace_back(r.risk.empty() ? std::string("-") : std::string(r.risk));
  c.emplace_back(r.recommended.empty() ? std::string("-") : std::string(r.recommended));
  return c;
}

}  // namespace

void write_lint_text(std::ostream& o, const analyze::EnvRows& rows, bool color, std::size_t width) {
  if (rows.empty()) {
    o << "No NCCL / PyTorch-distributed variables to lint.\n";
    return;
  }
  // Row by row (core::TableWriter): the rows are visited to measure the columns, then to write.
  core::TableWriter full({"STATUS", "PARAMETER", "VALUE", "RISK", "RECOMMENDED"}, 60);
  for (const auto& r : rows) full.measure(lint_cells(r, false));
  // On a terminal too narrow for it, the risk moves to each row's note below and the value and
  // the recommendation wrap (status and variable name stay whole: they are what one greps for).
  const bool compact = width > 0 && full.natural_width() > width;
  if (!compact) {
    o << full.header(color);
    for (const auto& r : rows) o << full.line(lint_cells(r, false), color);
  } else {
    core::TableWriter c({"STATUS", "PARAMETER", "VALUE", "RECOMMENDED"}, 0, width);
    c.wrap_columns({2, 3});
    for (const auto& r : rows) c.measure(lint_cells(r, true));
    o << c.header(color);
    for (const auto& r : rows) o << c.line(lint_cells(r, true), color);
  }
  o << "\n";
  int i = 0;
  for (const auto& r : rows) {
    const std::string head = "[" + std::to_string(++i) + "] ";
    std::string text = std::string(r.parameter) + " (" + std::string(r.rule);
    if (!r.origin.empty()) text += ", from " + r.origin;
    text += "): " + std::string(r.why);
    o << hanging(head, text, width);
    if (compact && !r.risk.empty()) o << hanging("    risk: ", r.risk, width);
    o << hanging("    source: ", r.source, width);
  }
  const auto n = core::tally_of(rows);
  o << "\n" << rows.size() << " rows: " << n.fail << " FAIL, " << n.warn << " WARN, " << n.pass << " PASS\n";
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

void write_lint_json(std::ostream& out, const analyze::EnvRows& rows,
                     const std::vector<analyze::EnvSetting>& shadowed, nlohmann::json input, nlohmann::json context) {
  nlohmann::json sh = nlohmann::json::array();
  for (const auto& s : shadowed)
    sh.push_back({{"name", s.name}, {"value", core::redact_value(s.name, s.value)}, {"origin", s.origin}});
  const nlohmann::json top = {
      {"schema", "ncdx.env/1"},
      {"mode", "lint"},
      {"context", std::move(context)},
      {"input", std::move(input)},
      {"summary", summary_json(core::tally_of(rows))},
      {"rows", nlohmann::json::array()},
      {"shadowed", sh}};
  std::size_t i = 0;
  core::write_json_streaming(out, top, "rows", [&](nlohmann::json& e) {
    if (i == rows.size()) return false;
    analyze::EnvRow r = analyze::to_row(rows[i++]);
    r.value = core::redact_value(r.parameter, r.value);
    e = analyze::to_json(r);
    return true;
  });
}

}  // namespace ncdx::report
