#pragma once
// The follower behind `ncdx triage --follow`: polls files and directories for growth and new
// files, hands every new complete line to a callback, and copes with truncation and rotation
// (a file that shrinks or is replaced is read again from its start). Stops after idle_seconds
// without growth, or when the stop flag is raised (stop_on_sigint() wires it to Ctrl-C).
#include <atomic>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace ncdx::analyze {

struct FollowOptions {
  double poll_seconds = 0.25;    // how often files are checked
  double idle_seconds = 0;       // stop after this long without a new byte; 0 = never
  std::size_t max_line = 64 * 1024;  // longer lines are cut (and flagged), the rest skipped
  bool from_start = true;        // deliver what the files already hold before following
  const std::atomic<bool>* stop = nullptr;  // raised → follow() returns after the current poll
};

struct FollowedLine {
  const std::string& path;
  long long line_number;  // 1-based; starts again at 1 after a truncation or rotation
  std::string_view text;  // without newline or CR; valid during the callback only
  bool truncated;         // the line was longer than max_line
};

using FollowCallback = std::function<void(const FollowedLine&)>;

// Paths may be files (even ones that do not exist yet) or directories (walked recursively on every
// poll for new files). A gzip/zstd file (a rotated log) is read whole once when found, not followed.
class Follower {
 public:
  Follower(std::vector<std::string> paths, FollowOptions options);
  ~Follower();
  Follower(const Follower&) = delete;
  Follower& operator=(const Follower&) = delete;

  // One pass over every file; returns the number of new bytes read.
  std::size_t poll(const FollowCallback& cb);
  // Delivers what is left without a newline at the end of each file (used when stopping).
  void flush(const FollowCallback& cb);
  // Polls until idle or stopped, then flushes.
  void run(const FollowCallback& cb);
  std::vector<core::Status> problems() const;

 private:
  struct File;
  void discover();
  static std::size_t read_compressed_once(File& f, std::size_t max_line, const FollowCallback& cb,
                                          std::vector<core::Status>& problems);
  std::vector<std::string> args_;
  FollowOptions opt_;
  std::vector<std::unique_ptr<File>> files_;
  std::vector<core::Status> problems_;
};

// Convenience: Follower(paths, options).run(cb).
void follow(const std::vector<std::string>& paths, const FollowOptions& options, const FollowCallback& cb);

// Installs a SIGINT/SIGTERM handler that raises *flag (an async-signal-safe atomic store).
void stop_on_sigint(std::atomic<bool>* flag);

}  // namespace ncdx::analyze
