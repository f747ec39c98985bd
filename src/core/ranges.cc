#include "core/ranges.h"

#include <algorithm>
#include <map>
#include <tuple>

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

std::string format_hostlist(const std::vector<std::string>& hosts, std::string_view sep) {
  // (prefix, padded width or 0) -> numbers; names without a usable number kept whole.
  // A zero-padded name fixes its group's width; an unpadded number with as many digits belongs to it
  // too (gpu-07, gpu-10 -> gpu-[07,10]), otherwise to the unpadded group (n1, n10 -> n[1,10]).
  std::map<std::pair<std::string, std::size_t>, std::vector<long long>> groups;
  std::map<std::string, bool> plain;
  std::vector<std::tuple<std::string, std::size_t, long long>> unpadded;
  for (const auto& h : hosts) {
    std::size_t d = h.size();
    while (d > 0 && h[d - 1] >= '0' && h[d - 1] <= '9') --d;
    const std::size_t digits = h.size() - d;
    if (digits == 0 || digits > 9) {
      plain[h] = true;
      continue;
    }
    const long long n = std::stoll(h.substr(d));
    if (h[d] == '0' && digits > 1) groups[{h.substr(0, d), digits}].push_back(n);
    else unpadded.emplace_back(h.substr(0, d), digits, n);
  }
  for (const auto& [prefix, digits, n] : unpadded) {
    auto padded = groups.find({prefix, digits});
    (padded != groups.end() ? padded->second : groups[{prefix, 0}]).push_back(n);
  }
  std::vector<std::string> parts;
  for (auto& [key, nums] : groups) {
    const auto& [prefix, width] = key;
    std::sort(nums.begin(), nums.end());
    nums.erase(std::unique(nums.begin(), nums.end()), nums.end());
    auto pad = [w = width](long long n) {
      std::string s = std::to_string(n);
      return s.size() < w ? std::string(w - s.size(), '0') + s : s;
    };
    if (nums.size() == 1) {
      parts.push_back(prefix + pad(nums[0]));
      continue;
    }
    std::string inner;
    for (std::size_t i = 0; i < nums.size();) {
      std::size_t j = i;
      while (j + 1 < nums.size() && nums[j + 1] == nums[j] + 1) ++j;
      if (!inner.empty()) inner += ",";
      inner += pad(nums[i]);
      if (j > i) inner += "-" + pad(nums[j]);
      i = j + 1;
    }
    parts.push_back(prefix + "[" + inner + "]");
  }
  for (const auto& [h, _] : plain) parts.push_back(h);
  std::sort(parts.begin(), parts.end());
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : std::string(sep)) + p;
  return out;
}

}  // namespace ncdx::core
