#include "probe/sys_reader.h"

#include <filesystem>

#include "core/strings.h"

namespace ncdx::probe {

std::string normalize_path(std::string_view path) {
  std::vector<std::string> parts;
  for (auto p : core::split(path, '/')) {
    if (p.empty() || p == ".") continue;
    if (p == "..") {
      if (!parts.empty()) parts.pop_back();
      continue;
    }
    parts.emplace_back(p);
  }
  return "/" + core::join(parts, "/");
}

bool SysReader::contained(std::string_view path) const { return fs_.contains(path); }

std::optional<std::string> SysReader::raw(std::string_view path, std::size_t max_bytes) const {
  if (!contained(path)) return std::nullopt;
  auto r = fs_.read(path, max_bytes);
  if (!r) return std::nullopt;
  if (trace_) trace_->files.insert(normalize_path(path));
  return std::move(r.value());
}

std::optional<std::string> SysReader::text(std::string_view path) const {
  auto r = raw(path);
  if (!r) return std::nullopt;
  return std::string(core::trim(*r));
}

std::optional<long long> SysReader::integer(std::string_view path) const {
  auto t = text(path);
  if (!t) return std::nullopt;
  return core::parse_int(*t);
}

std::vector<std::string> SysReader::list(std::string_view dir) const {
  if (!contained(dir)) return {};
  auto out = fs_.list(dir);
  if (trace_ && fs_.is_dir(dir)) trace_->dirs[normalize_path(dir)] = out;
  return out;
}

std::optional<std::string> SysReader::link(std::string_view path) const {
  auto t = fs_.read_link(path);
  if (t && trace_) trace_->links[normalize_path(path)] = *t;
  return t;
}

std::string SysReader::resolve(std::string_view path) const {
  std::string p = normalize_path(path);
  // Resolve links component by component (sysfs links point at relative targets); bounded so a
  // link loop in a hostile bundle cannot spin.
  for (int hops = 0; hops < 16; ++hops) {
    bool changed = false;
    std::string prefix;
    auto parts = core::split(p, '/');
    for (std::size_t i = 0; i < parts.size(); ++i) {
      if (parts[i].empty()) continue;
      prefix += "/" + std::string(parts[i]);
      auto t = link(prefix);
      if (!t) continue;
      std::string rest;
      for (std::size_t k = i + 1; k < parts.size(); ++k) rest += "/" + std::string(parts[k]);
      std::string base = (*t).starts_with("/") ? *t : prefix.substr(0, prefix.rfind('/')) + "/" + *t;
      p = normalize_path(base + rest);
      changed = true;
      break;
    }
    if (!changed) break;
  }
  return p;
}

bool SysReader::exists(std::string_view path) const { return fs_.exists(path); }

bool SysReader::unreadable(std::string_view path) const {
  return fs_.exists(path) && !fs_.is_dir(path) && !fs_.read(path, 16);
}

}  // namespace ncdx::probe
