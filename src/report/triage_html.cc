#include <fmt/format.h>

#include "report/html.h"
#include "report/triage_render.h"

namespace ncdx::report {
namespace {
std::string finding_html(const core::Finding& f, bool primary) {
  std::string out = fmt::format("<h{}>{} <span class=\"{}\">{}</span> — {}</h{}>\n", primary ? 2 : 3,
                                primary ? "Verdict:" : "", core::to_string(f.severity), html_escape(f.klass),
                                html_escape(f.title), primary ? 2 : 3);
  out += "<p>" + html_escape(f.summary) + "</p>\n";
  out += fmt::format("<p>id <code>{}</code>, confidence {:.2f}</p>\n", html_escape(f.id), f.confidence);
  std::string culprit;
  for (const auto& h : f.culprit.hosts) culprit += html_escape(h) + " ";
  for (int r : f.culprit.ranks) culprit += "rank " + std::to_string(r) + " ";
  for (const auto& d : f.culprit.devices) culprit += html_escape(d) + " ";
  if (!culprit.empty()) out += "<p>Culprit: " + culprit + "</p>\n";
  if (!f.evidence.empty()) {
    out += "<table><tr><th>where</th><th>rank</th><th>host</th><th>text</th></tr>\n";
    for (const auto& e : f.evidence)
      out += "<tr><td>" + html_escape(e.file) + (e.line ? ":" + std::to_string(*e.line) : "") + "</td><td>" +
             (e.rank ? std::to_string(*e.rank) : "") + "</td><td>" + html_escape(e.host.value_or("")) +
             "</td><td><code>" + html_escape(e.text) + "</code></td></tr>\n";
    out += "</table>\n";
  }
  if (primary && !f.fixes.empty()) {
    out += "<ol>\n";
    for (const auto& x : f.fixes) {
      out += "<li>" + html_escape(x.action);
      if (x.env) out += "<br>env: <code>" + html_escape(*x.env) + "</code>";
      if (x.command) out += "<br>run: <code>" + html_escape(*x.command) + "</code>";
      if (x.applies) out += "<br>applies: " + html_escape(*x.applies);
      out += "</li>\n";
    }
    out += "</ol>\n";
  }
  return out;
}
}  // namespace

std::string render_triage_html(const analyze::TriageResult& r) {
  std::string body = finding_html(r.verdict, true);
  if (!r.findings.empty()) {
    body += "<h2>Other findings</h2>\n";
    for (const auto& f : r.findings) body += finding_html(f, false);
  }
  if (!r.ranks.empty()) {
    body += "<h2>Ranks</h2>\n<table><tr><th>rank</th><th>host</th><th>NCCL</th><th>last opCount</th><th>timeout</th><th>lines</th></tr>\n";
    for (const auto& [rank, p] : r.ranks)
      body += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n", rank,
                          html_escape(p.host.value_or("")), html_escape(p.nccl_version.value_or("")),
                          p.last_opcount ? std::to_string(*p.last_opcount) : "",
                          html_escape(p.timeout_op.value_or("")), p.lines);
    body += "</table>\n";
  }
  return html_page("ncdx triage", body);
}

}  // namespace ncdx::report
