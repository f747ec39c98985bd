#pragma once
// Lines out of a ByteSource for the line-based timeline readers: one buffer, lines longer than
// max_line are cut (the rest skipped as it streams by), CR before LF dropped.
#include <string>
#include <string_view>
#include <vector>

#include "analyze/logs/byte_source.h"

namespace ncdx::analyze::timeline {

class LineSplit {
 public:
  LineSplit(ByteSource& src, std::string_view head, std::size_t max_line = 1u << 20);
  bool next(std::string_view& line);
  long long line_number() const { return n_; }
  bool truncated() const { return cut_; }

 private:
  ByteSource& src_;
  std::size_t max_;
  std::vector<char> buf_;
  std::size_t pos_ = 0, len_ = 0;
  bool eof_ = false, cut_ = false, skipping_ = false;
  long long n_ = 0;
};

}  // namespace ncdx::analyze::timeline
