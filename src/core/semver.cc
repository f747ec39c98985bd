#include "core/semver.h"

#include <charconv>
#include <stdexcept>

namespace ncdx::core {

std::optional<Version> Version::parse(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\n' || s.back() == '\r'))
    s.remove_suffix(1);
  if (!s.empty() && (s.front() == 'v' || s.front() == 'V')) s.remove_prefix(1);
  Version v;
  int* slots[3] = {&v.major, &v.minor, &v.patch};
  std::size_t pos = 0;
  for (int i = 0; i < 3; ++i) {
    if (pos >= s.size() || s[pos] < '0' || s[pos] > '9') break;
    int x = 0;
    auto [p, ec] = std::from_chars(s.data() + pos, s.data() + s.size(), x);
    if (ec != std::errc()) return std::nullopt;  // overflow
    *slots[i] = x;
    v.parts = i + 1;
    pos = static_cast<std::size_t>(p - s.data());
    // Continue only on ".<digit>"; anything else starts the suffix ("2.7.1+cu126", "0.8.0.dev").
    if (i < 2 && pos + 1 < s.size() && s[pos] == '.' && s[pos + 1] >= '0' && s[pos + 1] <= '9') {
      ++pos;
      continue;
    }
    break;
  }
  if (v.parts == 0) return std::nullopt;
  v.suffix = std::string(s.substr(pos));
  return v;
}

std::string Version::str() const {
  return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
}

Version V(std::string_view s) {
  auto v = Version::parse(s);
  if (!v) throw std::invalid_argument("bad version literal: " + std::string(s));
  return *v;
}

std::string canonical_nccl_version(std::string_view printed) {
  auto v = Version::parse(printed);
  if (!v || v->major < 20 || v->parts != 3 || v->minor > 9 || v->patch > 99) return std::string(printed);
  const int code = v->major * 1000 + v->minor * 100 + v->patch;  // undo PyTorch's old decoding
  return std::to_string(code / 10000) + "." + std::to_string(code % 10000 / 100) + "." + std::to_string(code % 100) +
         v->suffix;
}

}  // namespace ncdx::core
