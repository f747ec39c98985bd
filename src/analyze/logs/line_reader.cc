// LineReader over a ByteSource: one big buffer, memchr to split lines, long lines cut at max_line
// with the rest skipped as it streams by (never buffered), CR before LF dropped.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "analyze/logs/byte_source.h"
#include "analyze/logs/decompress_budget.h"
#include "analyze/logs/log_source.h"

namespace ncdx::analyze {
namespace {

constexpr std::size_t kReadBuffer = 1 << 20;

class StreamLineReader final : public LineReader {
 public:
  StreamLineReader(std::unique_ptr<ByteSource> src, std::size_t max_line, std::size_t read_size)
      : src_(std::move(src)), max_line_(max_line), cap_(read_size + max_line), buf_(new char[cap_]) {}

  bool next(std::string_view& line) override {
    for (;;) {
      char* b = buf_.get();
      if (skipping_) {
        // The rest of a cut line: drop bytes up to its newline without keeping them.
        const void* nl = std::memchr(b + begin_, '\n', end_ - begin_);
        if (nl) {
          begin_ = scan_ = static_cast<const char*>(nl) - b + 1;
          skipping_ = false;
        } else {
          begin_ = end_ = scan_ = 0;
          if (!refill()) return false;
          continue;
        }
      }
      const void* nl = std::memchr(b + scan_, '\n', end_ - scan_);
      if (nl) {
        std::size_t stop = static_cast<const char*>(nl) - b;
        emit(line, stop);
        begin_ = scan_ = stop + 1;
        return true;
      }
      scan_ = end_;
      if (end_ - begin_ > max_line_) {
        line = std::string_view(b + begin_, max_line_);
        truncated_ = true;
        ++line_no_;
        skipping_ = true;
        begin_ = scan_ = end_;
        return true;
      }
      if (eof_) {
        if (begin_ == end_) return false;
        emit(line, end_);  // a last line without its newline
        begin_ = scan_ = end_;
        return true;
      }
      refill();
    }
  }
  long long line_number() const override { return line_no_; }
  bool last_truncated() const override { return truncated_; }
  std::uint64_t bytes_in() const override { return src_->bytes_in(); }
  std::uint64_t bytes_read() const override { return src_->bytes_out(); }
  core::Status status() const override {
    core::Status s = src_->status();
    if (s.is_ok()) return s;
    return core::Status(s.code(), s.message() + " (after line " + std::to_string(line_no_) + ")");
  }

 private:
  void emit(std::string_view& line, std::size_t stop) {
    std::size_t len = stop - begin_;
    if (len > 0 && buf_[stop - 1] == '\r') --len;
    truncated_ = len > max_line_;
    if (truncated_) len = max_line_;
    line = std::string_view(buf_.get() + begin_, len);
    ++line_no_;
  }
  // Moves the partial line to the front and reads more; false at end of input.
  bool refill() {
    if (eof_) return false;
    if (begin_ > 0) {
      std::memmove(buf_.get(), buf_.get() + begin_, end_ - begin_);
      end_ -= begin_;
      scan_ -= begin_;
      begin_ = 0;
    }
    std::size_t n = src_->read(buf_.get() + end_, cap_ - end_);
    if (n == 0) eof_ = true;
    end_ += n;
    return n > 0;
  }

  std::unique_ptr<ByteSource> src_;
  std::size_t max_line_;
  std::size_t cap_;
  std::unique_ptr<char[]> buf_;  // not zero-filled
  std::size_t begin_ = 0, end_ = 0, scan_ = 0;
  bool eof_ = false, skipping_ = false, truncated_ = false;
  long long line_no_ = 0;
};

}  // namespace

core::Result<std::unique_ptr<LineReader>> LineReader::open(const std::string& path, std::size_t max_line) {
  if (max_line == 0) max_line = 1;
  int fd = 0;
  bool owns = false;
  std::size_t raw_size = kReadBuffer;
  if (path != "-") {
    fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return core::Status::not_found(path + ": " + std::strerror(errno));
    owns = true;
    struct stat st {};
    if (::fstat(fd, &st) == 0) {
      if (S_ISDIR(st.st_mode)) {
        ::close(fd);
        return core::Status::not_found(path + ": is a directory");
      }
      // Small files get small buffers (a folder of 100k short logs must not cost 100k MiB).
      if (S_ISREG(st.st_mode) && st.st_size >= 0 && static_cast<std::size_t>(st.st_size) < kReadBuffer)
        raw_size = std::max<std::size_t>(static_cast<std::size_t>(st.st_size) + 1, 64);
    }
  }
  auto raw = std::make_unique<RawInput>(fd, owns, path == "-" ? "<stdin>" : path, raw_size);
  raw->peek(4);  // the magic bytes
  if (!raw->status().is_ok()) return raw->status();
  std::unique_ptr<ByteSource> src;
  std::size_t read_size = raw_size;
  std::string name = raw->name();
  auto kind = detect_compression(raw->data(), raw->size());
  switch (kind) {
    case Compression::gzip: src = make_gzip_source(std::move(raw)); read_size = kReadBuffer; break;
    case Compression::zstd: src = make_zstd_source(std::move(raw)); read_size = kReadBuffer; break;
    case Compression::none: src = make_plain_source(std::move(raw)); break;
  }
  src = with_budget(std::move(src), name, kind != Compression::none);
  std::unique_ptr<LineReader> r = std::make_unique<StreamLineReader>(std::move(src), max_line, read_size);
  return r;
}

}  // namespace ncdx::analyze
