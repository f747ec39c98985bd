#include "report/prometheus.h"

#include <cstdio>
#include <set>

namespace ncdx::report {
namespace {
std::string escape_label(const std::string& v) {
  std::string out;
  for (char c : v) {
    if (c == '\\' || c == '"') out.push_back('\\');
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out.push_back(c);
  }
  return out;
}
}  // namespace

std::string render_prometheus(const std::vector<Metric>& metrics) {
  std::string out;
  std::set<std::string> described;
  for (const auto& m : metrics) {
    if (described.insert(m.name).second) out += "# HELP " + m.name + " " + m.help + "\n# TYPE " + m.name + " gauge\n";
    out += m.name;
    if (!m.labels.empty()) {
      out += "{";
      bool first = true;
      for (const auto& [k, v] : m.labels) {
        out += (first ? "" : ",") + k + "=\"" + escape_label(v) + "\"";
        first = false;
      }
      out += "}";
    }
    char buf[64];
    std::snprintf(buf, sizeof buf, " %.17g\n", m.value);
    out += buf;
  }
  return out;
}

}  // namespace ncdx::report
