#pragma once
// The one writer for every file ncdx writes (report dirs, gather bundles, `doctor --save`, env and
// tuner outputs). Inputs are untrusted and so is the place we are told to write: a `--output`
// that is a symlink to /etc, a bundle whose traced links climb out of it, a report directory full
// of someone's files. Every write therefore happens relative to one directory handle, below it:
//  - the directory (and every component of its path) is opened without following symlinks;
//    a symlinked component is refused unless --force;
//  - an existing non-empty directory is refused unless --force;
//  - files are created under a temporary name (O_EXCL|O_NOFOLLOW) and renamed into place, so a
//    crash never leaves half a report and a planted symlink at the leaf is replaced, not followed;
//  - paths below the handle are resolved by the kernel with openat2(RESOLVE_BENEATH) (Linux >= 5.6,
//    see openat2(2)): a symlink or ".." that would leave the directory fails with EXDEV. Where
//    openat2 is missing, symlinks below the handle are refused outright.
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

#include "core/result.h"

namespace ncdx::core {

struct SafeDirOptions {
  bool force = false;          // --force: follow a symlinked path, write into a non-empty directory
  bool must_be_empty = true;   // refuse an existing non-empty directory (unless force)
  std::string what = "output directory";  // for messages: "report directory", "bundle"
};

class SafeDir {
 public:
  // Opens DIR (creating it and missing parents), under the rules above.
  static Result<SafeDir> open(const std::filesystem::path& dir, const SafeDirOptions& opt = {});

  SafeDir(SafeDir&&) noexcept;
  SafeDir& operator=(SafeDir&&) noexcept;
  ~SafeDir();

  const std::filesystem::path& path() const { return path_; }
  int fd() const { return fd_; }

  // Writes REL ("report.json", "sys/class/net/eth0/mtu") atomically below the directory, creating
  // missing directories. With follow_links, symlinks on the way are followed only while they stay
  // below the directory (bundles replay sysfs links); without, any symlink on the way is refused.
  Status write(std::string_view rel, std::string_view content, bool follow_links = false) const;
  // Creates directory REL (and parents) below the directory; same link rule as write().
  Status mkdirs(std::string_view rel, bool follow_links = false) const;
  // Creates a relative symlink REL -> TARGET only if TARGET, resolved from REL's directory, stays
  // below this directory (its directories are created). Returns false (and creates nothing that
  // escapes) when it would leave; an error for anything else.
  Result<bool> symlink_beneath(std::string_view rel, std::string_view target) const;
  // True when REL exists below the directory (not following a final symlink).
  bool exists(std::string_view rel) const;

 private:
  SafeDir(int fd, std::filesystem::path path) : fd_(fd), path_(std::move(path)) {}
  int fd_ = -1;
  std::filesystem::path path_;
};

// One file at a user-given path (`doctor --save FILE`): its directory is opened as above (it may
// hold other files), a symlink at FILE or an existing FILE is refused unless force.
Status write_file_safe(const std::filesystem::path& file, std::string_view content, bool force);

// Whether the kernel resolves paths with openat2(RESOLVE_BENEATH) (tests print it).
bool have_openat2();

}  // namespace ncdx::core
