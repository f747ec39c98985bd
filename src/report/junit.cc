#include "report/junit.h"

#include <nlohmann/json.hpp>

#include "report/html.h"

namespace ncdx::report {

namespace {

std::string attr(const char* name, const std::string& value) {
  return std::string(" ") + name + "=\"" + html_escape(value) + "\"";
}

// Ant's JUnit task writes the timestamp as xs:dateTime without a zone ("2026-12-02T18:29:54"), and
// the stricter Ant schema (windyroad JUnit.xsd, ISO8601_DATETIME_PATTERN) refuses a trailing 'Z':
// the context's UTC time is written in that form.
std::string junit_timestamp(const std::string& iso) {
  return !iso.empty() && iso.back() == 'Z' ? iso.substr(0, iso.size() - 1) : iso;
}

}  // namespace

std::string render_junit(std::vector<JUnitSuite> suites, const nlohmann::json& context) {
  std::string host, when;
  if (context.is_object()) {
    if (auto h = context.find("host"); h != context.end() && h->is_string()) host = h->get<std::string>();
    if (auto t = context.find("time"); t != context.end() && t->is_string()) when = junit_timestamp(t->get<std::string>());
  }
  core::Tally all;
  for (const auto& s : suites)
    for (const auto& c : s.cases) all.add(c.status);
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites" + attr("tests", std::to_string(all.total())) +
                    attr("failures", std::to_string(all.fail)) + attr("errors", "0") + ">\n";
  for (auto& s : suites) {
    if (s.hostname.empty()) s.hostname = host;
    const auto n = core::tally_of(s.cases);
    out += "<testsuite" + attr("name", s.hostname.empty() ? s.tool : s.tool + "@" + s.hostname) +
           attr("tests", std::to_string(s.cases.size())) + attr("failures", std::to_string(n.fail)) + attr("errors", "0") +
           attr("skipped", std::to_string(n.skip)) + (s.hostname.empty() ? "" : attr("hostname", s.hostname)) +
           (when.empty() ? "" : attr("timestamp", when)) + ">\n";
    for (const auto& c : s.cases) {
      out += "  <testcase" + attr("classname", c.classname) + attr("name", c.name) + ">";
      if (c.status == core::Outcome::fail)
        out += "<failure" + attr("message", c.message) + "/>";
      else if (c.status == core::Outcome::skip)
        out += "<skipped" + attr("message", c.message) + "/>";
      else if (c.status == core::Outcome::warn)
        out += "<system-out>WARN: " + html_escape(c.message) + "</system-out>";
      out += "</testcase>\n";
    }
    out += "</testsuite>\n";
  }
  out += "</testsuites>\n";
  return out;
}

}  // namespace ncdx::report
