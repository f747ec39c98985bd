// LineSplit (line_split.h).
#include "analyze/timeline/line_split.h"

#include <cstring>

namespace ncdx::analyze::timeline {

LineSplit::LineSplit(ByteSource& src, std::string_view head, std::size_t max_line)
    : src_(src), max_(max_line), buf_(max_line + (1u << 16)) {
  len_ = std::min(head.size(), buf_.size());
  if (len_) std::memcpy(buf_.data(), head.data(), len_);  // an empty head may have a null data()
}

bool LineSplit::next(std::string_view& line) {
  bool& skipping = skipping_;
  for (;;) {
    const char* b = buf_.data();
    const void* nl = std::memchr(b + pos_, '\n', len_ - pos_);
    if (nl) {
      std::size_t stop = static_cast<const char*>(nl) - b;
      std::size_t start = pos_;
      pos_ = stop + 1;
      if (skipping) {
        skipping = false;
        continue;  // the rest of a cut line
      }
      std::size_t l = stop - start;
      if (l && b[stop - 1] == '\r') --l;
      line = std::string_view(b + start, l);
      cut_ = false;
      ++n_;
      return true;
    }
    if (pos_ > 0) {
      std::memmove(buf_.data(), buf_.data() + pos_, len_ - pos_);
      len_ -= pos_;
      pos_ = 0;
    }
    if (len_ >= max_ && !skipping) {
      line = std::string_view(buf_.data(), max_);
      cut_ = true;
      ++n_;
      pos_ = len_ = 0;  // the kept part is handed out; the tail is skipped up to its newline
      skipping = true;
      // The view points into buf_, which the next refill overwrites: hand it out now.
      return true;
    }
    if (skipping && len_ >= max_) len_ = 0;
    if (eof_) {
      if (len_ == 0 || skipping) return false;
      line = std::string_view(buf_.data(), len_);
      pos_ = len_;
      ++n_;
      return true;
    }
    std::size_t got = src_.read(buf_.data() + len_, buf_.size() - len_);
    if (got == 0) eof_ = true;
    len_ += got;
  }
}

}  // namespace ncdx::analyze::timeline
