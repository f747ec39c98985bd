#include "report/html.h"

#include <algorithm>
#include <cstdio>

#include "core/strings.h"

namespace ncdx::report {

std::string html_escape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : core::sanitize_utf8(s)) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out.push_back(c);
    }
  }
  return out;
}

std::string html_page(std::string_view title, std::string_view body_html) {
  std::string out =
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>" + html_escape(title) +
      "</title>\n<style>body{font-family:system-ui,sans-serif;margin:2em;color:#222}"
      "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:.3em .6em;"
      "text-align:left;vertical-align:top}th{background:#f4f4f4}.PASS,.info{color:#1a7f37}"
      ".WARN,.warn{color:#9a6700}.FAIL,.error,.critical{color:#cf222e;font-weight:bold}"
      ".SKIP{color:#777}pre{background:#f6f8fa;padding:.5em;overflow-x:auto}</style></head>\n<body>\n<h1>" +
      html_escape(title) + "</h1>\n";
  out += body_html;
  out += "\n</body></html>\n";
  return out;
}

std::string svg_heatmap(const std::vector<std::vector<std::optional<double>>>& m,
                        const std::vector<std::string>& row_labels,
                        const std::vector<std::string>& col_labels, std::string_view unit) {
  const int cell = 56, left = 110, top = 30;
  double lo = 0, hi = 0;
  bool any = false;
  for (const auto& r : m)
    for (const auto& v : r)
      if (v) {
        lo = any ? std::min(lo, *v) : *v;
        hi = any ? std::max(hi, *v) : *v;
        any = true;
      }
  std::size_t cols = col_labels.size();
  int w = left + static_cast<int>(cols) * cell + 10, h = top + static_cast<int>(m.size()) * cell + 10;
  std::string out = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + std::to_string(w) +
                    "\" height=\"" + std::to_string(h) + "\" font-family=\"monospace\" font-size=\"11\">";
  for (std::size_t c = 0; c < cols; ++c)
    out += "<text x=\"" + std::to_string(left + static_cast<int>(c) * cell + cell / 2) + "\" y=\"" +
           std::to_string(top - 8) + "\" text-anchor=\"middle\">" + html_escape(col_labels[c]) + "</text>";
  for (std::size_t r = 0; r < m.size(); ++r) {
    int y = top + static_cast<int>(r) * cell;
    out += "<text x=\"" + std::to_string(left - 6) + "\" y=\"" + std::to_string(y + cell / 2 + 4) +
           "\" text-anchor=\"end\">" + html_escape(r < row_labels.size() ? row_labels[r] : "") + "</text>";
    for (std::size_t c = 0; c < cols; ++c) {
      int x = left + static_cast<int>(c) * cell;
      std::optional<double> v = c < m[r].size() ? m[r][c] : std::nullopt;
      std::string fill = "#dddddd", label = "N/A";
      if (v) {
        double t = hi > lo ? (*v - lo) / (hi - lo) : 0.5;
        int shade = 235 - static_cast<int>(t * 180);
        char buf[32];
        std::snprintf(buf, sizeof buf, "#%02x%02xff", shade, shade);
        fill = buf;
        std::snprintf(buf, sizeof buf, "%.3g", *v);
        label = buf;
      }
      out += "<rect x=\"" + std::to_string(x) + "\" y=\"" + std::to_string(y) + "\" width=\"" +
             std::to_string(cell - 2) + "\" height=\"" + std::to_string(cell - 2) + "\" fill=\"" + fill +
             "\"><title>" + html_escape(label) + " " + html_escape(unit) + "</title></rect>";
      out += "<text x=\"" + std::to_string(x + cell / 2 - 1) + "\" y=\"" + std::to_string(y + cell / 2 + 4) +
             "\" text-anchor=\"middle\">" + html_escape(label) + "</text>";
    }
  }
  out += "</svg>";
  return out;
}

}  // namespace ncdx::report
