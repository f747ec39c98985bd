// render_timeline_svg (timeline_render.h): rank × time heatmap on an absolute 0–100 % scale.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "report/html.h"
#include "report/timeline_render.h"

namespace ncdx::report {
namespace {

using namespace ncdx::analyze::timeline;

constexpr std::size_t kMaxRows = 256;

// White (0 %) → dark red (100 %): one fixed scale, so two reports compare by colour.
std::string colour(double v) {
  v = std::clamp(v, 0.0, 1.0);
  int r = static_cast<int>(255 - v * (255 - 150));
  int g = static_cast<int>(255 - v * 255);
  int b = static_cast<int>(255 - v * 235);
  char buf[16];
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", r, g, b);
  return buf;
}

std::string num(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.1f", v);
  return b;
}

}  // namespace

std::string render_timeline_svg(const TimelineResult& r) {
  const Heatmap& h = r.heat;
  std::size_t n = h.comm_frac.size();
  std::size_t cols = n ? h.comm_frac[0].size() : 0;
  std::size_t rg = std::max<std::size_t>(1, (n + kMaxRows - 1) / kMaxRows);
  std::size_t rows = (n + rg - 1) / rg;
  const double left = 90, top = 30, cw = std::max(2.0, std::min(14.0, 840.0 / std::max<std::size_t>(1, cols)));
  const double ch = rows > 64 ? 4 : 14;
  // Wide enough for the last time label (centred on the right edge) and the legend's sentence.
  const double legend_end = left + 30 + 14 * 11 + 4 + 430;
  double w = std::max(left + cw * static_cast<double>(cols) + 40, legend_end), hgt = top + ch * static_cast<double>(rows) + 70;
  std::string o;
  o += "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"ncdx-timeline\" width=\"" + num(w) + "\" height=\"" + num(hgt) +
       "\" viewBox=\"0 0 " + num(w) + " " + num(hgt) + "\" font-family=\"sans-serif\" font-size=\"11\">\n";
  o += "<text x=\"" + num(left) + "\" y=\"16\" font-size=\"13\">Share of time in collectives per rank (bucket " +
       html_escape(num(h.bucket_us / 1000.0)) + " ms)</text>\n";
  for (std::size_t i = 0; i < rows; ++i) {
    std::size_t r0 = i * rg, r1 = std::min(n, r0 + rg);
    std::string label = r1 - r0 == 1 ? "rank " + std::to_string(h.ranks[r0])
                                     : std::to_string(h.ranks[r0]) + "-" + std::to_string(h.ranks[r1 - 1]);
    double y = top + ch * static_cast<double>(i);
    if (ch >= 10 || i % 8 == 0)
      o += "<text x=\"" + num(left - 6) + "\" y=\"" + num(y + ch - 3) + "\" text-anchor=\"end\">" + html_escape(label) + "</text>\n";
    for (std::size_t c = 0; c < cols; ++c) {
      double v = 0;
      for (std::size_t q = r0; q < r1; ++q) v = std::max(v, static_cast<double>(h.comm_frac[q][c]));
      double t = h.bucket_us * static_cast<double>(c) / 1000.0;
      o += "<rect x=\"" + num(left + cw * static_cast<double>(c)) + "\" y=\"" + num(y) + "\" width=\"" + num(cw) + "\" height=\"" +
           num(ch) + "\" fill=\"" + colour(v) + "\" data-v=\"" + num(100 * v) + "\"><title>" + html_escape(label) + ", " +
           num(t) + " ms: " + num(100 * v) + " % in collectives</title></rect>\n";
    }
  }
  // Straggler windows: outlined on the late rank's row.
  for (const auto& win : r.windows) {
    if (win.kind != "straggler" || h.bucket_us <= 0) continue;
    auto it = std::find(h.ranks.begin(), h.ranks.end(), win.rank);
    if (it == h.ranks.end()) continue;
    std::size_t row = static_cast<std::size_t>(it - h.ranks.begin()) / rg;
    double x0 = left + cw * win.start_us / h.bucket_us, x1 = left + cw * win.end_us / h.bucket_us;
    o += "<rect x=\"" + num(x0) + "\" y=\"" + num(top + ch * static_cast<double>(row)) + "\" width=\"" + num(std::max(1.0, x1 - x0)) +
         "\" height=\"" + num(ch) + "\" fill=\"none\" stroke=\"#0550ae\" stroke-width=\"2\"><title>" + html_escape(win.reason) +
         "</title></rect>\n";
  }
  // Time axis and legend.
  double ay = top + ch * static_cast<double>(rows) + 14;
  double span_ms = h.bucket_us * static_cast<double>(cols) / 1000.0;
  for (int k = 0; k <= 4; ++k) {
    double x = left + cw * static_cast<double>(cols) * k / 4.0;
    o += "<text x=\"" + num(x) + "\" y=\"" + num(ay) + "\" text-anchor=\"middle\">" + num(span_ms * k / 4.0) + " ms</text>\n";
  }
  double ly = ay + 14;
  o += "<text x=\"" + num(left) + "\" y=\"" + num(ly + 10) + "\">0 %</text>\n";
  for (int k = 0; k <= 10; ++k)
    o += "<rect x=\"" + num(left + 30 + 14 * k) + "\" y=\"" + num(ly) + "\" width=\"14\" height=\"12\" fill=\"" + colour(k / 10.0) + "\" stroke=\"#ccc\"/>\n";
  o += "<text x=\"" + num(left + 30 + 14 * 11 + 4) + "\" y=\"" + num(ly + 10) +
       "\">100 % of the bucket in collectives; blue outline: a rank others waited for</text>\n";
  o += "</svg>\n";
  return o;
}

}  // namespace ncdx::report
