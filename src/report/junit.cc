#include "report/junit.h"

#include "report/html.h"

namespace ncdx::report {

std::string render_junit(const std::string& suite, const std::vector<JUnitCase>& cases) {
  const auto n = core::tally_of(cases);
  const int failures = n.fail, skipped = n.skip;
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites><testsuite name=\"" +
                    html_escape(suite) + "\" tests=\"" + std::to_string(cases.size()) + "\" failures=\"" +
                    std::to_string(failures) + "\" skipped=\"" + std::to_string(skipped) + "\">\n";
  for (const auto& c : cases) {
    out += "  <testcase classname=\"" + html_escape(c.classname) + "\" name=\"" + html_escape(c.name) + "\">";
    if (c.status == core::Outcome::fail)
      out += "<failure message=\"" + html_escape(c.message) + "\"/>";
    else if (c.status == core::Outcome::skip)
      out += "<skipped message=\"" + html_escape(c.message) + "\"/>";
    else if (c.status == core::Outcome::warn)
      out += "<system-out>WARN: " + html_escape(c.message) + "</system-out>";
    out += "</testcase>\n";
  }
  out += "</testsuite></testsuites>\n";
  return out;
}

}  // namespace ncdx::report
