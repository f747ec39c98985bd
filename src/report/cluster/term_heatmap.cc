#include "report/cluster/term_heatmap.h"

#include <fmt/format.h>

#include <algorithm>

#include "core/strings.h"

namespace ncdx::report {

std::string term_heatmap(const std::vector<std::vector<std::optional<double>>>& m,
                         const std::vector<std::string>& row_labels, const std::vector<std::string>& col_labels,
                         const std::string& unit) {
  static const char* shades[] = {"░", "▒", "▓", "█"};
  double lo = 0, hi = 0;
  bool any = false;
  for (const auto& r : m)
    for (const auto& v : r)
      if (v) {
        lo = any ? std::min(lo, *v) : *v;
        hi = any ? std::max(hi, *v) : *v;
        any = true;
      }
  std::size_t w = 0;
  for (const auto& l : row_labels) w = std::max(w, core::display_width(l));
  w = std::min<std::size_t>(w, 24);
  auto pad = [&](const std::string& s) {
    std::string t = s.size() > w ? s.substr(0, w) : s;
    return t + std::string(w - std::min(w, core::display_width(t)), ' ');
  };
  std::string out;
  // Column index header (labels are the rows; columns follow the same order).
  out += std::string(w + 1, ' ');
  for (std::size_t c = 0; c < col_labels.size(); ++c) out += std::to_string(c % 10);
  out += "\n";
  for (std::size_t r = 0; r < m.size(); ++r) {
    out += pad(r < row_labels.size() ? row_labels[r] : "") + " ";
    for (const auto& v : m[r]) {
      if (!v) {
        out += "·";
        continue;
      }
      int k = hi > lo ? static_cast<int>((*v - lo) / (hi - lo) * 3.999) : 3;
      out += shades[std::clamp(k, 0, 3)];
    }
    out += " " + std::to_string(r % 10) + "\n";
  }
  if (any) {
    double step = (hi - lo) / 4;
    out += "legend (" + unit + "):";
    for (int k = 0; k < 4; ++k)
      out += fmt::format(" {} {:.3g}–{:.3g}", shades[k], lo + step * k, lo + step * (k + 1));
    out += "  · none/self\n";
  } else {
    out += "legend: no values\n";
  }
  return out;
}

}  // namespace ncdx::report
