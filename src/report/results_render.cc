#include "report/results_render.h"

#include <cstdio>
#include <map>

#include "core/strings.h"
#include "core/table.h"
#include "core/term.h"
#include "report/html.h"
#include "report/sanitize.h"

namespace ncdx::report {
namespace {

using analyze::ResultDoc;
using analyze::ResultItem;
using analyze::ResultMatrix;

// Input text on a terminal: through the one display sanitiser (no escape sequences, capped).
std::string printable(std::string_view s) { return sanitize(s); }

core::Color color_of(const std::string& status) {
  if (status == "FAIL") return core::Color::red;
  if (status == "WARN") return core::Color::yellow;
  if (status == "PASS") return core::Color::green;
  return core::Color::grey;
}

std::map<std::string, int> counts(const ResultDoc& d) {
  std::map<std::string, int> c = {{"FAIL", 0}, {"WARN", 0}, {"INFO", 0}, {"PASS", 0}, {"SKIP", 0}};
  for (const auto& i : d.items) ++c[i.status];
  return c;
}

std::string counts_line(const ResultDoc& d) {
  auto c = counts(d);
  return std::to_string(c["FAIL"]) + " FAIL, " + std::to_string(c["WARN"]) + " WARN, " + std::to_string(c["INFO"]) +
         " INFO, " + std::to_string(c["PASS"]) + " PASS, " + std::to_string(c["SKIP"]) + " SKIP";
}

std::string fmt_value(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, v >= 100 ? "%.0f" : v >= 10 ? "%.1f" : "%.2f", v);
  return buf;
}

std::string matrix_text(const ResultMatrix& m, bool color) {
  std::vector<std::string> headers = {""};
  for (const auto& c : m.col_labels) headers.push_back(printable(c));
  core::Table t(headers);
  for (std::size_t r = 0; r < m.row_labels.size(); ++r) {
    std::vector<core::Cell> row = {printable(m.row_labels[r])};
    if (!m.values.empty()) {
      for (const auto& v : m.values[r]) row.emplace_back(v ? fmt_value(*v) : std::string("-"));
    } else {
      for (const auto& v : m.cells[r]) row.emplace_back(printable(v));
    }
    t.add(std::move(row));
  }
  std::string title = m.title + (m.unit.empty() ? "" : " (" + m.unit + ")");
  return core::paint(title, core::Color::bold, color) + "\n" + t.render(color, 12);
}

std::string section_title(const ResultDoc& d) {
  return d.command + " — " + d.path + (d.headline.empty() ? "" : " — " + d.headline);
}

}  // namespace

std::string render_results_text(const std::vector<ResultDoc>& docs, bool all, bool color) {
  std::string out;
  for (const auto& d : docs) {
    out += core::paint("== " + printable(section_title(d)), core::Color::bold, color) + "\n";
    out += counts_line(d) + " (" + d.schema + ")\n";
    core::Table t({"STATUS", "ID", "TITLE", "DETAIL", "FIX"});
    int folded = 0;
    for (const auto& i : d.items) {
      if (i.status == "SKIP" && !all) {
        ++folded;
        continue;
      }
      t.add({{i.status, color_of(i.status)}, printable(i.id), printable(i.title), printable(i.detail), printable(i.fix)});
    }
    if (t.size()) out += t.render(color, 60);
    if (folded) out += std::to_string(folded) + " SKIP rows folded (--all shows them)\n";
    for (const auto& m : d.matrices) out += "\n" + matrix_text(m, color);
    out += "\n";
  }
  return out;
}

std::string render_results_html(const std::vector<ResultDoc>& docs) {
  std::string body = "<p>" + std::to_string(docs.size()) + " result file(s). Failures first; SKIP rows are folded.</p>\n";
  body += "<ul>";
  for (std::size_t n = 0; n < docs.size(); ++n)
    body += "<li><a href=\"#r" + std::to_string(n) + "\">" + html_escape(section_title(docs[n])) + "</a> — " +
            html_escape(counts_line(docs[n])) + "</li>";
  body += "</ul>\n";
  for (std::size_t n = 0; n < docs.size(); ++n) {
    const auto& d = docs[n];
    body += "<section id=\"r" + std::to_string(n) + "\"><h2>" + html_escape(section_title(d)) + "</h2>\n<p>" +
            html_escape(counts_line(d)) + " <small>(" + html_escape(d.schema) + ")</small></p>\n";
    std::string rows, skipped;
    int nskip = 0;
    for (const auto& i : d.items) {
      std::string tr = "<tr><td class=\"" + i.status + "\">" + i.status + "</td><td>" + html_escape(i.id) + "</td><td>" +
                       html_escape(i.title) + "</td><td>" + html_escape(i.detail) + "</td><td>" + html_escape(i.fix) +
                       "</td></tr>\n";
      if (i.status == "SKIP") {
        skipped += tr;
        ++nskip;
      } else {
        rows += tr;
      }
    }
    const std::string head = "<table><tr><th>status</th><th>id</th><th>title</th><th>detail</th><th>fix</th></tr>\n";
    if (!rows.empty()) body += head + rows + "</table>\n";
    if (nskip)
      body += "<details><summary>" + std::to_string(nskip) + " SKIP rows</summary>" + head + skipped + "</table></details>\n";
    for (const auto& m : d.matrices) {
      body += "<h3>" + html_escape(m.title) + (m.unit.empty() ? "" : " (" + html_escape(m.unit) + ")") + "</h3>\n";
      if (!m.values.empty()) {
        body += svg_heatmap(m.values, m.row_labels, m.col_labels, m.unit) + "\n";
      } else {
        body += "<table><tr><th></th>";
        for (const auto& c : m.col_labels) body += "<th>" + html_escape(c) + "</th>";
        body += "</tr>";
        for (std::size_t r = 0; r < m.cells.size(); ++r) {
          body += "<tr><th>" + html_escape(m.row_labels[r]) + "</th>";
          for (const auto& c : m.cells[r]) body += "<td>" + html_escape(c) + "</td>";
          body += "</tr>";
        }
        body += "</table>\n";
      }
    }
    body += "</section>\n";
  }
  return html_page("ncdx report", body);
}

}  // namespace ncdx::report
