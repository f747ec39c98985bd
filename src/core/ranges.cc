#include "core/ranges.h"

#include <algorithm>

namespace ncdx::core {

std::string format_ranges(std::vector<int> v, RangeStyle style) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  std::string out;
  std::size_t groups = 0;
  for (std::size_t i = 0; i < v.size();) {
    std::size_t j = i;
    while (j + 1 < v.size() && v[j + 1] == v[j] + 1) ++j;
    if (!out.empty()) out += ",";
    out += std::to_string(v[i]);
    if (j > i) out += (j == i + 1 && !style.pair_as_range ? "," : "-") + std::to_string(v[j]);
    i = j + 1;
    if (style.max_groups && ++groups >= style.max_groups && i < v.size()) {
      out += ",…";
      break;
    }
  }
  return out;
}

}  // namespace ncdx::core
