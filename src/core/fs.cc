#include "core/fs.h"

#include <algorithm>
#include <fstream>
#include <system_error>

#include "core/strings.h"

namespace ncdx::core {
namespace fs = std::filesystem;

FileSystem::FileSystem(fs::path root) : root_(std::move(root)) {
  if (root_.empty()) root_ = "/";
}

fs::path FileSystem::host_path(std::string_view machine_path) const {
  fs::path out = root_;
  for (auto part : split(machine_path, '/')) {
    if (part.empty() || part == ".") continue;
    if (part == "..") {
      // Never climb above the root: a bundle must not read the analysing host.
      if (out != root_) out = out.parent_path();
      continue;
    }
    out /= std::string(part);
  }
  return out;
}

bool FileSystem::contains(std::string_view path) const {
  if (is_live()) return true;
  std::error_code ec;
  auto root = fs::weakly_canonical(root_, ec);
  if (ec) return false;
  auto real = fs::weakly_canonical(host_path(path), ec);
  if (ec) return false;
  auto r = real.string(), rs = root.string();
  return r == rs || r.starts_with(rs.ends_with("/") ? rs : rs + "/");
}

Result<std::string> FileSystem::read(std::string_view path, std::size_t max_bytes) const {
  if (!contains(path)) return Status::not_found(std::string(path) + ": outside the replayed root");
  auto p = host_path(path);
  std::ifstream in(p, std::ios::binary);
  if (!in) return Status::not_found(std::string(path) + ": cannot open");
  std::string data;
  data.resize(std::min<std::size_t>(max_bytes, 64 * 1024));
  std::size_t used = 0;
  while (in && used < max_bytes) {
    if (used == data.size()) data.resize(std::min(max_bytes, data.size() * 2));
    in.read(data.data() + used, static_cast<std::streamsize>(data.size() - used));
    used += static_cast<std::size_t>(in.gcount());
  }
  if (in.bad()) return Status::not_found(std::string(path) + ": read error");
  data.resize(used);
  return data;
}

std::optional<std::string> FileSystem::read_trimmed(std::string_view path) const {
  auto r = read(path);
  if (!r) return std::nullopt;
  return std::string(trim(*r));
}

bool FileSystem::exists(std::string_view path) const {
  if (!contains(path)) return false;
  std::error_code ec;
  return fs::exists(host_path(path), ec);
}

bool FileSystem::is_dir(std::string_view path) const {
  if (!contains(path)) return false;
  std::error_code ec;
  return fs::is_directory(host_path(path), ec);
}

std::vector<std::string> FileSystem::list(std::string_view dir) const {
  std::vector<std::string> out;
  if (!contains(dir)) return out;
  std::error_code ec;
  for (fs::directory_iterator it(host_path(dir), ec), end; !ec && it != end; it.increment(ec))
    out.push_back(it->path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

std::optional<std::string> FileSystem::read_link(std::string_view path) const {
  std::error_code ec;
  auto t = fs::read_symlink(host_path(path), ec);
  if (ec) return std::nullopt;
  return t.string();
}

}  // namespace ncdx::core
