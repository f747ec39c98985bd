#include "core/safe_write.h"

#include <cerrno>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <linux/openat2.h>  // RESOLVE_NO_SYMLINKS
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <vector>

#include "core/openat2.h"

namespace ncdx::core {
namespace fs = std::filesystem;

namespace {

std::vector<std::string> components(std::string_view rel) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i <= rel.size()) {
    auto j = rel.find('/', i);
    if (j == std::string_view::npos) j = rel.size();
    auto c = rel.substr(i, j - i);
    if (!c.empty() && c != ".") out.emplace_back(c);
    i = j + 1;
  }
  return out;
}

std::string join(const std::vector<std::string>& c, std::size_t n) {
  std::string s;
  for (std::size_t i = 0; i < n && i < c.size(); ++i) {
    if (i) s += '/';
    s += c[i];
  }
  return s.empty() ? "." : s;
}

struct Fd {
  int fd = -1;
  explicit Fd(int f = -1) : fd(f) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  Fd(Fd&& o) noexcept : fd(o.fd) { o.fd = -1; }
  Fd& operator=(Fd&& o) noexcept {
    if (this != &o) {
      reset();
      fd = o.fd;
      o.fd = -1;
    }
    return *this;
  }
  ~Fd() { reset(); }
  void reset() {
    if (fd >= 0) ::close(fd);
    fd = -1;
  }
};

std::atomic<int> g_openat2{-1};  // -1 unknown, 0 absent, 1 present

// Opens REL below DIRFD; never leaves it. Returns the fd or -errno. With follow, symlinks are
// followed while they stay below (the kernel checks: EXDEV when one would leave).
int open_beneath(int dirfd, const std::string& rel, int flags, bool follow) {
  if (g_openat2.load() != 0) {
    int r = openat2_beneath(dirfd, rel.c_str(), flags, follow ? 0 : RESOLVE_NO_SYMLINKS);
    if (r >= 0) {
      g_openat2 = 1;
      return r;
    }
    if (errno != ENOSYS) return -errno;
    g_openat2 = 0;
  }
  // No openat2: walk component by component, refusing every symlink and every climb above.
  auto comps = components(rel);
  Fd cur(::fcntl(dirfd, F_DUPFD_CLOEXEC, 0));
  if (cur.fd < 0) return -errno;
  int depth = 0;
  for (std::size_t i = 0; i < comps.size(); ++i) {
    bool last = i + 1 == comps.size();
    if (comps[i] == "..") {
      if (depth == 0) return -EXDEV;
      --depth;
    } else {
      ++depth;
    }
    int f = last ? flags : (O_RDONLY | O_DIRECTORY);
    int nfd = ::openat(cur.fd, comps[i].c_str(), f | O_NOFOLLOW | O_CLOEXEC);
    if (nfd < 0) return errno == ELOOP ? -ELOOP : -errno;
    cur = Fd(nfd);
  }
  if (comps.empty()) {
    int nfd = ::openat(dirfd, ".", flags | O_CLOEXEC);
    return nfd < 0 ? -errno : nfd;
  }
  int out = cur.fd;
  cur.fd = -1;
  return out;
}

std::string why(int err, const std::string& what) {
  switch (err) {
    case EXDEV: return what + ": leaves the directory it must stay in (symlink or '..')";
    case ELOOP: return what + ": is a symlink (refused)";
    case ENOTDIR: return what + ": is not a directory";
    default: return what + ": " + std::strerror(err);
  }
}

// Resolves (creating when asked) the directory made of the first N components below ROOT.
Result<Fd> resolve_dir(int root, const std::vector<std::string>& comps, std::size_t n, bool create, bool follow,
                       const fs::path& base) {
  Fd cur(::fcntl(root, F_DUPFD_CLOEXEC, 0));
  if (cur.fd < 0) return Status::internal(base.string() + ": " + std::strerror(errno));
  for (std::size_t i = 0; i < n; ++i) {
    std::string prefix = join(comps, i + 1);
    int nfd = open_beneath(root, prefix, O_RDONLY | O_DIRECTORY, follow);
    if (nfd == -ENOENT && create && comps[i] != "..") {
      if (::mkdirat(cur.fd, comps[i].c_str(), 0755) != 0 && errno != EEXIST)
        return Status::not_found(why(errno, (base / prefix).string()));
      nfd = open_beneath(root, prefix, O_RDONLY | O_DIRECTORY, follow);
    }
    if (nfd < 0) {
      auto msg = why(-nfd, (base / prefix).string());
      return -nfd == ENOENT ? Status::not_found(msg) : Status::usage(msg);
    }
    cur = Fd(nfd);
  }
  return cur;
}

bool dir_is_empty(int fd) {
  int d = ::openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (d < 0) return false;
  DIR* dir = ::fdopendir(d);
  if (!dir) {
    ::close(d);
    return false;
  }
  bool empty = true;
  while (auto* e = ::readdir(dir)) {
    if (std::strcmp(e->d_name, ".") == 0 || std::strcmp(e->d_name, "..") == 0) continue;
    empty = false;
    break;
  }
  ::closedir(dir);
  return empty;
}

std::atomic<unsigned> g_tmp_counter{0};

}  // namespace

bool have_openat2() {
  if (g_openat2.load() < 0) {
    int r = open_beneath(AT_FDCWD, ".", O_PATH, false);
    if (r >= 0) ::close(r);
  }
  return g_openat2.load() == 1;
}

SafeDir::SafeDir(SafeDir&& o) noexcept : fd_(o.fd_), path_(std::move(o.path_)) { o.fd_ = -1; }
SafeDir& SafeDir::operator=(SafeDir&& o) noexcept {
  if (this != &o) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = o.fd_;
    path_ = std::move(o.path_);
    o.fd_ = -1;
  }
  return *this;
}
SafeDir::~SafeDir() {
  if (fd_ >= 0) ::close(fd_);
}

Result<SafeDir> SafeDir::open(const fs::path& dir, const SafeDirOptions& opt) {
  std::string text = dir.string();
  if (text.empty()) return Status::usage("empty " + opt.what + " path");
  Fd cur(::open(dir.is_absolute() ? "/" : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (cur.fd < 0) return Status::internal(std::string("cannot open the current directory: ") + std::strerror(errno));
  auto comps = components(text);
  bool created = false;
  fs::path walked = dir.is_absolute() ? fs::path("/") : fs::path();
  for (std::size_t i = 0; i < comps.size(); ++i) {
    const auto& c = comps[i];
    walked /= c;
    created = false;
    if (c != "..") {
      struct stat st {};
      if (::fstatat(cur.fd, c.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
        if (errno != ENOENT) return Status::not_found(why(errno, walked.string()));
        if (::mkdirat(cur.fd, c.c_str(), 0755) != 0 && errno != EEXIST)
          return Status::not_found(text + ": cannot create directory " + walked.string() + ": " + std::strerror(errno));
        created = true;
      } else if (S_ISLNK(st.st_mode) && !opt.force) {
        return Status::usage(text + ": " + walked.string() + " is a symlink; refusing to write the " + opt.what +
                             " through it (name the real directory, or use --force)");
      }
    }
    int nfd = ::openat(cur.fd, c.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC | (opt.force ? 0 : O_NOFOLLOW));
    if (nfd < 0) {
      if (errno == ELOOP)
        return Status::usage(text + ": " + walked.string() + " is a symlink; refusing to write the " + opt.what +
                             " through it (name the real directory, or use --force)");
      if (errno == ENOTDIR) return Status::usage(text + ": " + walked.string() + " exists and is not a directory");
      return Status::not_found(text + ": cannot open " + walked.string() + ": " + std::strerror(errno));
    }
    cur = Fd(nfd);
  }
  if (!created && opt.must_be_empty && !opt.force && !dir_is_empty(cur.fd))
    return Status::usage(text + ": exists and is not empty; refusing to write the " + opt.what +
                         " into it (choose a new directory, or use --force)");
  int fd = cur.fd;
  cur.fd = -1;
  return SafeDir(fd, dir);
}

Status SafeDir::mkdirs(std::string_view rel, bool follow_links) const {
  auto comps = components(rel);
  auto d = resolve_dir(fd_, comps, comps.size(), true, follow_links, path_);
  return d ? Status::ok() : d.status();
}

Status SafeDir::write(std::string_view rel, std::string_view content, bool follow_links) const {
  auto comps = components(rel);
  if (comps.empty() || comps.back() == "..") return Status::internal(path_.string() + ": bad file name '" + std::string(rel) + "'");
  auto d = resolve_dir(fd_, comps, comps.size() - 1, true, follow_links, path_);
  if (!d) return d.status();
  const std::string& leaf = comps.back();
  std::string tmp = ".ncdx-tmp." + std::to_string(::getpid()) + "." + std::to_string(g_tmp_counter++);
  auto target = (path_ / std::string(rel)).string();
  int fd = ::openat(d->fd, tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0) return Status::not_found(target + ": cannot create: " + std::strerror(errno));
  std::size_t off = 0;
  while (off < content.size()) {
    auto n = ::write(fd, content.data() + off, content.size() - off);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      int e = errno;
      ::close(fd);
      ::unlinkat(d->fd, tmp.c_str(), 0);
      return Status::internal(target + ": write failed: " + std::strerror(e));
    }
    off += static_cast<std::size_t>(n);
  }
  if (::close(fd) != 0) {
    ::unlinkat(d->fd, tmp.c_str(), 0);
    return Status::internal(target + ": write failed: " + std::strerror(errno));
  }
  if (::renameat(d->fd, tmp.c_str(), d->fd, leaf.c_str()) != 0) {
    int e = errno;
    ::unlinkat(d->fd, tmp.c_str(), 0);
    return Status::usage(target + ": cannot replace: " + std::strerror(e));
  }
  return Status::ok();
}

bool SafeDir::exists(std::string_view rel) const {
  auto comps = components(rel);
  int fd = open_beneath(fd_, join(comps, comps.size()), O_PATH | O_NOFOLLOW, true);
  if (fd < 0) return false;
  ::close(fd);
  return true;
}

Result<bool> SafeDir::symlink_beneath(std::string_view rel, std::string_view target) const {
  if (target.empty() || target.front() == '/') return false;
  if (!have_openat2()) return false;  // no kernel check: links stay data
  auto comps = components(rel);
  if (comps.empty() || comps.back() == "..") return false;
  auto parent = resolve_dir(fd_, comps, comps.size() - 1, true, true, path_);
  if (!parent) return parent.status().code() == Exit::usage ? Result<bool>(false) : Result<bool>(parent.status());
  // The target's directories, made (only) below us: each prefix is resolved by the kernel.
  std::vector<std::string> t(comps.begin(), comps.end() - 1);
  auto tc = components(target);
  t.insert(t.end(), tc.begin(), tc.end());
  Fd cur(::fcntl(fd_, F_DUPFD_CLOEXEC, 0));
  for (std::size_t i = 0; i < t.size(); ++i) {
    std::string prefix = join(t, i + 1);
    int nfd = open_beneath(fd_, prefix, O_PATH, true);
    if (nfd == -ENOENT && t[i] != "..") {
      if (::mkdirat(cur.fd, t[i].c_str(), 0755) != 0 && errno != EEXIST) return false;
      nfd = open_beneath(fd_, prefix, O_PATH, true);
    }
    if (nfd < 0) return false;  // EXDEV (leaves), ENOTDIR, ELOOP: not replayed
    cur = Fd(nfd);
  }
  if (::symlinkat(std::string(target).c_str(), parent->fd, comps.back().c_str()) != 0) return errno == EEXIST ? Result<bool>(false) : Result<bool>(Status::internal(why(errno, (path_ / std::string(rel)).string())));
  // Checked again now that it exists: the link must resolve below us.
  int chk = open_beneath(fd_, join(comps, comps.size()), O_PATH, true);
  if (chk < 0) {
    ::unlinkat(parent->fd, comps.back().c_str(), 0);
    return false;
  }
  ::close(chk);
  return true;
}

Status write_file_safe(const fs::path& file, std::string_view content, bool force) {
  auto parent = file.parent_path();
  if (parent.empty()) parent = ".";
  auto leaf = file.filename().string();
  if (leaf.empty() || leaf == "." || leaf == "..") return Status::usage(file.string() + ": not a file name");
  SafeDirOptions o;
  o.force = force;
  o.must_be_empty = false;
  o.what = "output file";
  auto d = SafeDir::open(parent, o);
  if (!d) return d.status();
  struct stat st {};
  if (::fstatat(d->fd(), leaf.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 && !force) {
    if (S_ISLNK(st.st_mode)) return Status::usage(file.string() + ": is a symlink; refusing to write through it (use --force to replace it)");
    return Status::usage(file.string() + ": exists; refusing to overwrite it (use --force)");
  }
  return d->write(leaf, content);
}

}  // namespace ncdx::core
