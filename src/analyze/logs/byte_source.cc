#include "analyze/logs/byte_source.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace ncdx::analyze {

RawInput::RawInput(int fd, bool owns, std::string name, std::size_t buffer_size)
    : fd_(fd), owns_(owns), name_(std::move(name)), buf_(new char[buffer_size]), cap_(buffer_size) {}

RawInput::~RawInput() {
  if (owns_ && fd_ >= 0) ::close(fd_);
}

bool RawInput::fill() {
  if (pos_ < len_) return true;
  if (eof_ || !status_.is_ok()) return false;
  pos_ = len_ = 0;
  for (;;) {
    ssize_t n = ::read(fd_, buf_.get(), cap_);
    if (n > 0) {
      len_ = static_cast<std::size_t>(n);
      return true;
    }
    if (n == 0) {
      eof_ = true;
      return false;
    }
    if (errno == EINTR) continue;
    status_ = core::Status::bad_input(name_ + ": read error: " + std::strerror(errno));
    return false;
  }
}

void RawInput::peek(std::size_t n) {
  while (len_ - pos_ < n && !eof_ && status_.is_ok() && len_ < cap_) {
    ssize_t r = ::read(fd_, buf_.get() + len_, cap_ - len_);
    if (r > 0) len_ += static_cast<std::size_t>(r);
    else if (r == 0) eof_ = true;
    else if (errno != EINTR) status_ = core::Status::bad_input(name_ + ": read error: " + std::strerror(errno));
  }
}

std::size_t RawInput::read_into(char* out, std::size_t cap) {
  if (pos_ < len_) {
    std::size_t n = std::min(cap, len_ - pos_);
    std::memcpy(out, buf_.get() + pos_, n);
    consume(n);
    return n;
  }
  if (eof_ || !status_.is_ok()) return 0;
  for (;;) {
    ssize_t n = ::read(fd_, out, cap);
    if (n > 0) {
      consumed_ += static_cast<std::size_t>(n);
      return static_cast<std::size_t>(n);
    }
    if (n == 0) {
      eof_ = true;
      return 0;
    }
    if (errno == EINTR) continue;
    status_ = core::Status::bad_input(name_ + ": read error: " + std::strerror(errno));
    return 0;
  }
}

Compression detect_compression(const char* d, std::size_t n) {
  const auto* u = reinterpret_cast<const unsigned char*>(d);
  if (n >= 2 && u[0] == 0x1f && u[1] == 0x8b) return Compression::gzip;
  if (n >= 4 && u[0] == 0x28 && u[1] == 0xb5 && u[2] == 0x2f && u[3] == 0xfd) return Compression::zstd;
  return Compression::none;
}

namespace {

class PlainSource final : public ByteSource {
 public:
  explicit PlainSource(std::unique_ptr<RawInput> in) : in_(std::move(in)) {}
  std::size_t read(char* out, std::size_t cap) override { return in_->read_into(out, cap); }
  std::uint64_t bytes_in() const override { return in_->consumed(); }
  core::Status status() const override { return in_->status(); }

 private:
  std::unique_ptr<RawInput> in_;
};

}  // namespace

std::unique_ptr<ByteSource> make_plain_source(std::unique_ptr<RawInput> in) {
  return std::make_unique<PlainSource>(std::move(in));
}

}  // namespace ncdx::analyze
