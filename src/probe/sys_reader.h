#pragma once
// Every probe reads the machine through this wrapper around core::FileSystem (rooted at --root)
// so that `ncdx gather` can record exactly which files, directories and links were read and
// copy only those into a bundle that replays the same machine.
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/fs.h"

namespace ncdx::probe {

struct ReadTrace {
  std::set<std::string> files;               // machine paths read successfully
  std::map<std::string, std::vector<std::string>> dirs;  // directories listed -> entries
  std::map<std::string, std::string> links;  // symlink -> target text
};

class SysReader {
 public:
  explicit SysReader(const core::FileSystem& fs, ReadTrace* trace = nullptr) : fs_(fs), trace_(trace) {}
  const core::FileSystem& fs() const { return fs_; }
  bool live() const { return fs_.is_live(); }

  // Trimmed content; nullopt when absent or unreadable.
  std::optional<std::string> text(std::string_view path) const;
  // Raw bytes (bounded); nullopt when absent or unreadable.
  std::optional<std::string> raw(std::string_view path, std::size_t max_bytes = 1 << 20) const;
  std::optional<long long> integer(std::string_view path) const;
  std::vector<std::string> list(std::string_view dir) const;
  std::optional<std::string> link(std::string_view path) const;
  // The machine path a symlink points to, resolved lexically ("/sys/bus/pci/devices/X" ->
  // "/sys/devices/pci0000:00/.../X"); the path itself when it is not a link.
  std::string resolve(std::string_view path) const;
  bool exists(std::string_view path) const;
  // False when a replayed tree's symlinks lead outside its root (a hostile bundle pointing at
  // the analysing host's /etc): such paths are treated as absent. Always true on the live root.
  bool contained(std::string_view path) const;
  // Exists but cannot be read (permissions, EINVAL on sysfs): for SKIP/WARN reasons.
  bool unreadable(std::string_view path) const;

 private:
  const core::FileSystem& fs_;
  ReadTrace* trace_;
};

// Lexically joins and normalises a machine path ("/a/b/../c" -> "/a/c").
std::string normalize_path(std::string_view path);

}  // namespace ncdx::probe
