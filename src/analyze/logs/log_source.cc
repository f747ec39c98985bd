// expand_inputs(): turns triage's arguments into the list of files to read. Directories are walked
// recursively (Ray session_*/logs, torchrun --log-dir, a folder of slurm-%j.out), symlinks are
// followed (Ray's session_latest) but each directory and file is taken once, by device and inode,
// so a symlink loop or a second link to the same tree ends instead of hanging or double counting.
#include <dirent.h>
#include <glob.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <set>
#include <utility>

#include "analyze/logs/log_source.h"

namespace ncdx::analyze {
namespace {

constexpr int kMaxDepth = 64;

using Key = std::pair<dev_t, ino_t>;

struct Walker {
  std::size_t max_files;
  ExpandResult out;
  std::set<Key> seen_files;
  std::set<Key> seen_dirs;
  std::vector<Key> ancestors;
  bool full = false;

  void problem(core::Status s) { out.problems.push_back(std::move(s)); }

  bool room(const std::string& where) {
    if (out.files.size() < max_files) return true;
    if (!full) {
      problem(core::Status::bad_input(where + ": more than " + std::to_string(max_files) +
                                      " files; the rest are not read (narrow the path or glob)"));
      full = true;
    }
    return false;
  }

  void add_file(const std::string& path, const std::string& display, const struct stat& st) {
    if (!seen_files.insert({st.st_dev, st.st_ino}).second) return;
    if (!room(path)) return;
    if (::access(path.c_str(), R_OK) != 0) {
      problem(core::Status::not_found(path + ": cannot read: " + std::strerror(errno)));
      return;
    }
    out.files.push_back({path, display});
  }

  void walk_dir(const std::string& dir, const std::string& display, const struct stat& st, int depth) {
    Key k{st.st_dev, st.st_ino};
    if (std::find(ancestors.begin(), ancestors.end(), k) != ancestors.end()) {
      problem(core::Status::bad_input(dir + ": symlink loop (directory contains itself); not followed"));
      return;
    }
    if (!seen_dirs.insert(k).second) return;  // the same tree reached by another link
    if (depth > kMaxDepth) {
      problem(core::Status::bad_input(dir + ": nested deeper than " + std::to_string(kMaxDepth) +
                                      " directories; not followed"));
      return;
    }
    DIR* d = ::opendir(dir.c_str());
    if (!d) {
      problem(core::Status::not_found(dir + ": cannot read directory: " + std::strerror(errno)));
      return;
    }
    std::vector<std::string> names;
    while (dirent* e = ::readdir(d)) {
      std::string_view n = e->d_name;
      if (n == "." || n == "..") continue;
      names.emplace_back(n);
    }
    ::closedir(d);
    std::sort(names.begin(), names.end());  // deterministic order whatever the filesystem
    ancestors.push_back(k);
    for (const auto& n : names) {
      if (full) break;
      std::string p = dir + "/" + n;
      std::string disp = display + "/" + n;
      struct stat cs {};
      if (::stat(p.c_str(), &cs) != 0) {
        struct stat ls {};
        if (::lstat(p.c_str(), &ls) == 0 && S_ISLNK(ls.st_mode)) {
          // ELOOP is a link that points at itself; ENOENT a dangling link: neither holds logs.
          if (errno == ELOOP) problem(core::Status::bad_input(p + ": symlink loop; not followed"));
          continue;
        }
        problem(core::Status::not_found(p + ": " + std::strerror(errno)));
        continue;
      }
      if (S_ISDIR(cs.st_mode)) walk_dir(p, disp, cs, depth + 1);
      else if (S_ISREG(cs.st_mode)) add_file(p, disp, cs);
      // sockets, fifos and devices inside a log folder are not logs
    }
    ancestors.pop_back();
  }

  void add_path(const std::string& path, const std::string& display) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) {
      std::string why = errno == ELOOP ? "symlink loop" : std::strerror(errno);
      problem(core::Status::not_found(path + ": " + why));
      return;
    }
    if (S_ISDIR(st.st_mode)) {
      std::string dir = path;
      while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
      std::string disp = display;
      while (disp.size() > 1 && disp.back() == '/') disp.pop_back();
      walk_dir(dir, disp, st, 0);
    } else {
      add_file(path, display, st);  // a named fifo or /dev/stdin is read like a file
    }
  }
};

bool has_glob_chars(const std::string& s) { return s.find_first_of("*?[") != std::string::npos; }

}  // namespace

ExpandResult expand_inputs(const std::vector<std::string>& args, std::size_t max_files) {
  Walker w{max_files, {}, {}, {}, {}, false};
  bool stdin_added = false;
  for (const auto& a : args) {
    if (w.full) break;
    if (a == "-") {
      if (!stdin_added) w.out.files.push_back({"-", "-"});
      stdin_added = true;
      continue;
    }
    struct stat st {};
    if (has_glob_chars(a) && ::stat(a.c_str(), &st) != 0) {
      glob_t g{};
      int rc = ::glob(a.c_str(), 0, nullptr, &g);
      if (rc == GLOB_NOMATCH || (rc == 0 && g.gl_pathc == 0)) {
        w.problem(core::Status::not_found(a + ": no file matches this pattern"));
      } else if (rc != 0) {
        w.problem(core::Status::not_found(a + ": cannot expand pattern"));
      } else {
        for (std::size_t i = 0; i < g.gl_pathc && !w.full; ++i) w.add_path(g.gl_pathv[i], g.gl_pathv[i]);
      }
      ::globfree(&g);
      continue;
    }
    w.add_path(a, a);
  }
  std::stable_sort(w.out.files.begin(), w.out.files.end(),
                   [](const InputFile& x, const InputFile& y) { return x.path < y.path; });
  return std::move(w.out);
}

}  // namespace ncdx::analyze
