#pragma once
// Decoded byte streams under LineReader: a plain file descriptor, gzip (zlib) or zstd (libzstd),
// chosen by the magic bytes of the first chunk. Each source reads with one big buffer and keeps
// memory bounded whatever the input (no slurping, zstd window capped).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/result.h"

namespace ncdx::analyze {

// Raw bytes from a file descriptor, with the first chunk peeked for format detection.
class RawInput {
 public:
  RawInput(int fd, bool owns, std::string name, std::size_t buffer_size);
  ~RawInput();
  RawInput(const RawInput&) = delete;
  RawInput& operator=(const RawInput&) = delete;
  // Makes at least one byte available unless at end or error. False at end or error.
  bool fill();
  // At the start: reads until n bytes are buffered or the input ends (magic split across pipe reads).
  void peek(std::size_t n);
  // Reads straight into out (after handing back any buffered bytes): the plain path copies once.
  std::size_t read_into(char* out, std::size_t cap);
  const char* data() const { return buf_.get() + pos_; }
  std::size_t size() const { return len_ - pos_; }
  void consume(std::size_t n) { pos_ += n; consumed_ += n; }
  bool eof() const { return eof_ && pos_ == len_; }
  std::uint64_t consumed() const { return consumed_; }
  const core::Status& status() const { return status_; }
  const std::string& name() const { return name_; }

 private:
  int fd_;
  bool owns_;
  std::string name_;
  std::unique_ptr<char[]> buf_;  // not zero-filled: triage may open 100k small files
  std::size_t cap_;
  std::size_t pos_ = 0, len_ = 0;
  bool eof_ = false;
  std::uint64_t consumed_ = 0;
  core::Status status_;
};

class ByteSource {
 public:
  virtual ~ByteSource() = default;
  // Writes up to cap decoded bytes to out; returns the count, 0 at end or after an error.
  virtual std::size_t read(char* out, std::size_t cap) = 0;
  virtual std::uint64_t bytes_in() const = 0;
  // Decoded bytes handed out so far (counted by the budget wrapper, decompress_budget.h).
  virtual std::uint64_t bytes_out() const { return 0; }
  virtual core::Status status() const = 0;
};

enum class Compression { none, gzip, zstd };
Compression detect_compression(const char* data, std::size_t n);

std::unique_ptr<ByteSource> make_plain_source(std::unique_ptr<RawInput> in);
std::unique_ptr<ByteSource> make_gzip_source(std::unique_ptr<RawInput> in);
std::unique_ptr<ByteSource> make_zstd_source(std::unique_ptr<RawInput> in);

}  // namespace ncdx::analyze
