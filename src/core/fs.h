#pragma once
// FileSystem rooted at --root: every probe reads /sys, /proc, /dev/shm, /etc through this so a
// captured bundle or a fixture tree replays a whole machine (docs/DEVELOPING.md).
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace ncdx::core {

class FileSystem {
 public:
  explicit FileSystem(std::filesystem::path root = "/");
  const std::filesystem::path& root() const { return root_; }
  bool is_live() const { return root_ == "/"; }

  // Maps an absolute machine path ("/sys/class/net") to the host path under the root.
  // ".." components cannot climb above the root.
  std::filesystem::path host_path(std::string_view machine_path) const;

  // Reads at most max_bytes (sysfs files are small; a cap keeps a hostile tree from
  // exhausting memory).
  Result<std::string> read(std::string_view path, std::size_t max_bytes = 1 << 20) const;
  // Reads and trims trailing whitespace; nullopt when absent or unreadable.
  std::optional<std::string> read_trimmed(std::string_view path) const;
  bool exists(std::string_view path) const;
  bool is_dir(std::string_view path) const;
  // Sorted entry names; empty when absent.
  std::vector<std::string> list(std::string_view dir) const;
  // Target of a symlink (sysfs uses them for device links), as text.
  std::optional<std::string> read_link(std::string_view path) const;
  // False when, under a replayed root, the path resolves (through symlinks) outside the root: a
  // hostile bundle must not make us read the analysing host's files. Every read above checks it;
  // always true on the live root.
  bool contains(std::string_view path) const;

 private:
  std::filesystem::path root_;
};

}  // namespace ncdx::core
