#pragma once
// Progress on stderr for long work (sweeps, big files). Draws only on a TTY; silent otherwise
// so CI logs and pipes stay clean.
#include <chrono>
#include <cstdint>
#include <string>

namespace ncdx::core {

class Progress {
 public:
  Progress(std::string label, std::uint64_t total);
  ~Progress();
  void update(std::uint64_t done);
  void finish();

 private:
  std::string label_;
  std::uint64_t total_;
  bool enabled_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point last_{};
};

}  // namespace ncdx::core
