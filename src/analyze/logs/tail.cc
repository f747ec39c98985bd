// Follower: polling (portable, works on NFS and in containers where inotify does not see writes
// from other hosts). Each file keeps its open descriptor, inode, offset and the unfinished last
// line (at most max_line bytes), so memory stays bounded however fast the files grow.
#include "analyze/logs/tail.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <set>
#include <thread>

#include "analyze/logs/byte_source.h"
#include "analyze/logs/log_source.h"

namespace ncdx::analyze {

struct Follower::File {
  std::string path;
  int fd = -1;
  dev_t dev = 0;
  ino_t ino = 0;
  off_t offset = 0;
  long long line_no = 0;
  std::string partial;    // bytes of the line not yet ended by '\n'
  bool skipping = false;  // the current line was cut: drop bytes until its newline
  bool start_at_end = false;
  bool compressed = false;  // gzip/zstd: read once when found

  ~File() { close_fd(); }
  void close_fd() {
    if (fd >= 0) ::close(fd);
    fd = -1;
  }
  void restart() {
    offset = 0;
    line_no = 0;
    partial.clear();
    skipping = false;
  }

  void emit(std::string_view text, bool cut, const FollowCallback& cb) {
    if (!cut && !text.empty() && text.back() == '\r') text.remove_suffix(1);
    ++line_no;
    cb(FollowedLine{path, line_no, text, cut});
  }

  void consume(const char* p, std::size_t n, std::size_t max_line, const FollowCallback& cb) {
    while (n > 0) {
      const char* nl = static_cast<const char*>(std::memchr(p, '\n', n));
      std::size_t seg = nl ? static_cast<std::size_t>(nl - p) : n;
      if (skipping) {
        if (nl) skipping = false;
      } else if (partial.empty() && nl) {
        std::string_view line(p, seg);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        bool cut = line.size() > max_line;
        emit(cut ? line.substr(0, max_line) : line, cut, cb);
      } else {
        std::size_t room = max_line - partial.size();
        if (seg > room) {
          partial.append(p, room);
          emit(partial, true, cb);
          partial.clear();
          skipping = !nl;
        } else {
          partial.append(p, seg);
          if (nl) {
            emit(partial, false, cb);
            partial.clear();
          }
        }
      }
      if (!nl) break;
      p = nl + 1;
      n -= seg + 1;
    }
  }

  std::size_t drain(std::vector<char>& buf, std::size_t max_line, const FollowCallback& cb) {
    std::size_t total = 0;
    for (;;) {
      ssize_t r = ::pread(fd, buf.data(), buf.size(), offset);
      if (r < 0 && errno == EINTR) continue;
      if (r <= 0) break;
      offset += r;
      total += static_cast<std::size_t>(r);
      consume(buf.data(), static_cast<std::size_t>(r), max_line, cb);
    }
    return total;
  }
};

namespace {

bool is_compressed(int fd) {
  char magic[4];
  ssize_t n = ::pread(fd, magic, sizeof magic, 0);
  return n > 0 && detect_compression(magic, static_cast<std::size_t>(n)) != Compression::none;
}

}  // namespace

std::size_t Follower::read_compressed_once(File& f, std::size_t max_line, const FollowCallback& cb,
                                           std::vector<core::Status>& problems) {
  auto r = LineReader::open(f.path, max_line);
  if (!r.ok()) {
    problems.push_back(r.status());
    return 0;
  }
  std::string_view line;
  while ((*r)->next(line)) cb(FollowedLine{f.path, (*r)->line_number(), line, (*r)->last_truncated()});
  if (!(*r)->status().is_ok()) problems.push_back((*r)->status());
  f.line_no = (*r)->line_number();
  return static_cast<std::size_t>((*r)->bytes_in());
}

Follower::Follower(std::vector<std::string> paths, FollowOptions options)
    : args_(std::move(paths)), opt_(options) {
  if (opt_.max_line == 0) opt_.max_line = 1;
  discover();
  // Only what exists now is "old"; a file that appears later is new from its first byte.
  for (auto& f : files_) {
    struct stat st {};
    f->start_at_end = !opt_.from_start && ::stat(f->path.c_str(), &st) == 0;
  }
}

Follower::~Follower() = default;

std::vector<core::Status> Follower::problems() const { return problems_; }

void Follower::discover() {
  std::set<std::string> known;
  for (auto& f : files_) known.insert(f->path);
  auto add = [&](const std::string& p) {
    if (!known.insert(p).second) return;
    auto f = std::make_unique<File>();
    f->path = p;
    files_.push_back(std::move(f));
  };
  for (const auto& a : args_) {
    struct stat st {};
    if (::stat(a.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
      auto r = expand_inputs({a});
      for (auto& f : r.files) add(f.path);
    } else {
      add(a);  // a file, possibly not created yet
    }
  }
}

std::size_t Follower::poll(const FollowCallback& cb) {
  discover();
  std::vector<char> buf(1 << 20);
  std::size_t total = 0;
  for (auto& fp : files_) {
    File& f = *fp;
    struct stat now {};
    bool exists = ::stat(f.path.c_str(), &now) == 0;
    if (f.compressed && !(exists && (now.st_ino != f.ino || now.st_dev != f.dev))) continue;
    if (f.compressed) {  // replaced by a new file of the same name
      f.compressed = false;
      f.close_fd();
    }
    if (f.fd >= 0 && exists && (now.st_ino != f.ino || now.st_dev != f.dev)) {
      total += f.drain(buf, opt_.max_line, cb);  // rotated: finish the old file first
      f.close_fd();
    }
    if (f.fd < 0) {
      if (!exists) continue;
      f.fd = ::open(f.path.c_str(), O_RDONLY | O_CLOEXEC);
      if (f.fd < 0) {
        problems_.push_back(core::Status::not_found(f.path + ": " + std::strerror(errno)));
        continue;
      }
      struct stat st {};
      ::fstat(f.fd, &st);
      f.dev = st.st_dev;
      f.ino = st.st_ino;
      f.restart();
      if (is_compressed(f.fd)) {
        // A rotated .gz/.zst does not grow: read it whole once, then leave it alone.
        if (!f.start_at_end) total += read_compressed_once(f, opt_.max_line, cb, problems_);
        f.compressed = true;
        f.start_at_end = false;
        continue;
      }
      if (f.start_at_end) f.offset = st.st_size;
      f.start_at_end = false;
    }
    struct stat st {};
    if (::fstat(f.fd, &st) == 0 && st.st_size < f.offset) f.restart();  // truncated (copytruncate)
    total += f.drain(buf, opt_.max_line, cb);
  }
  return total;
}

void Follower::flush(const FollowCallback& cb) {
  for (auto& f : files_) {
    if (!f->partial.empty()) {
      f->emit(f->partial, false, cb);
      f->partial.clear();
    }
  }
}

void Follower::run(const FollowCallback& cb) {
  using clock = std::chrono::steady_clock;
  auto last_growth = clock::now();
  auto poll_every = std::chrono::duration<double>(opt_.poll_seconds > 0 ? opt_.poll_seconds : 0.25);
  for (;;) {
    if (poll(cb) > 0) last_growth = clock::now();
    if (opt_.stop && opt_.stop->load()) break;
    if (opt_.idle_seconds > 0 &&
        std::chrono::duration<double>(clock::now() - last_growth).count() >= opt_.idle_seconds)
      break;
    // Sleep in short slices so a raised stop flag is seen quickly.
    auto until = clock::now() + poll_every;
    while (clock::now() < until && !(opt_.stop && opt_.stop->load()))
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  flush(cb);
}

void follow(const std::vector<std::string>& paths, const FollowOptions& options, const FollowCallback& cb) {
  Follower(paths, options).run(cb);
}

namespace {
std::atomic<std::atomic<bool>*> g_stop_flag{nullptr};
void on_stop_signal(int) {
  if (auto* f = g_stop_flag.load()) f->store(true);
}
}  // namespace

void stop_on_sigint(std::atomic<bool>* flag) {
  g_stop_flag.store(flag);
  struct sigaction sa {};
  sa.sa_handler = on_stop_signal;
  sigemptyset(&sa.sa_mask);
  ::sigaction(SIGINT, &sa, nullptr);
  ::sigaction(SIGTERM, &sa, nullptr);
}

}  // namespace ncdx::analyze
