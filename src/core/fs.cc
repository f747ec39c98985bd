#include "core/fs.h"

#include <algorithm>
#include <cerrno>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <system_error>

#include "core/openat2.h"
#include "core/strings.h"

namespace ncdx::core {
namespace fs = std::filesystem;

FileSystem::FileSystem(fs::path root) : root_(std::move(root)) {
  if (root_.empty()) root_ = "/";
  auto t = root_.string();
  while (t.size() > 1 && t.back() == '/') t.pop_back();  // "dir/" and "dir" are the same root
  root_ = t;
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

namespace {

// Opens a file for reading without ever blocking on it: O_NONBLOCK so a FIFO or a device cannot
// hang doctor/gather (open(2) on a FIFO with no writer blocks without it), O_NOCTTY so a tty
// never becomes ours. Under a replayed root the kernel resolves the path below the root
// (openat2 RESOLVE_BENEATH, Linux >= 5.6; core/openat2.h): a symlink or ".." that leaves it
// fails with EXDEV.
int open_for_read(const fs::path& root, bool live, const fs::path& host) {
  constexpr int flags = O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC;
  if (live) return ::open(host.c_str(), flags);
  std::string rel = host.lexically_relative(root).string();  // host_path clamped ".." already
  if (rel.empty()) rel = ".";
  if (rel.starts_with("..")) {
    errno = EXDEV;
    return -1;
  }
  int rootfd = ::open(root.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (rootfd < 0) return -1;
  int fd = openat2_beneath(rootfd, rel.c_str(), flags);
  if (fd < 0 && errno == ENOSYS) fd = ::openat(rootfd, rel.c_str(), flags);  // contains() checked
  int e = errno;
  ::close(rootfd);
  errno = e;
  return fd;
}

}  // namespace

Result<std::string> FileSystem::read(std::string_view path, std::size_t max_bytes) const {
  if (!contains(path)) return Status::not_found(std::string(path) + ": outside the replayed root");
  auto p = host_path(path);
  int fd = open_for_read(root_, is_live(), p);
  if (fd < 0) {
    if (errno == EXDEV) return Status::not_found(std::string(path) + ": outside the replayed root");
    return Status::not_found(std::string(path) + ": cannot open");
  }
  // fstat before reading: regular files only (sysfs and procfs pseudo-files are regular files
  // too); a FIFO, socket or device in a replayed tree is refused, not read.
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return Status::not_found(std::string(path) + ": not a regular file");
  }
  std::string data;
  data.resize(std::min<std::size_t>(max_bytes, 64 * 1024));
  std::size_t used = 0;
  bool error = false;
  while (used < max_bytes) {
    if (used == data.size()) data.resize(std::min(max_bytes, data.size() * 2));
    auto n = ::read(fd, data.data() + used, data.size() - used);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      error = used == 0;  // sysfs answers EINVAL/EIO on some attributes: unreadable
      break;
    }
    if (n == 0) break;
    used += static_cast<std::size_t>(n);
  }
  ::close(fd);
  if (error) return Status::not_found(std::string(path) + ": read error");
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
