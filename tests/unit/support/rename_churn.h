#pragma once
// A thread that renames a file back and forth in its own temporary directory for as long as the
// object lives: the system-wide rename traffic of a busy host (a parallel test run, a compiler
// writing its outputs). openat2(RESOLVE_BENEATH) lookups that climb ("..") race it and are
// answered EAGAIN (openat2(2), ERRORS); tests/unit/core/fs_test.cc and safe_write_test.cc.
#include <atomic>
#include <cstdio>
#include <string>
#include <thread>

#include "support/temp_dir.h"

namespace ncdx::testing {

class RenameChurn {
 public:
  // Returns once the first rename pair is done, so the caller's work overlaps the churn.
  RenameChurn() : a_(dir_.write("a", "")), b_(dir_.file("b")) {
    thread_ = std::thread([this] {
      while (!stop_)
        if (std::rename(a_.c_str(), b_.c_str()) == 0 && std::rename(b_.c_str(), a_.c_str()) == 0) ++renames_;
    });
    while (renames_ == 0) std::this_thread::yield();
  }
  ~RenameChurn() {
    stop_ = true;
    thread_.join();
  }
  RenameChurn(const RenameChurn&) = delete;
  RenameChurn& operator=(const RenameChurn&) = delete;
  long renames() const { return renames_; }

 private:
  TempDir dir_;
  std::string a_, b_;
  std::atomic<bool> stop_{false};
  std::atomic<long> renames_{0};
  std::thread thread_;
};

}  // namespace ncdx::testing
