#pragma once
// A pull (token-at-a-time) JSON reader over a decoded byte stream, for multi-GB trace files:
// never a tree, memory bounded by one read buffer plus the longest string kept (max_string).
// nlohmann's SAX interface costs a std::string per key and value and ran at ~150 MB/s on a
// Kineto trace; this reader hands out views into its buffer (copies only strings with escapes)
// and skips uninteresting values without decoding them. The grammar is checked (commas, colons,
// nesting, literals, truncation), so bad input comes back as one error with its line.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "analyze/logs/byte_source.h"
#include "core/result.h"

namespace ncdx::analyze::timeline {

enum class Tok : std::uint8_t { obj_begin, obj_end, arr_begin, arr_end, key, str, num, tru, fals, null, end, error };

class JsonPull {
 public:
  static constexpr std::size_t kDefaultMaxString = 16u << 20;
  JsonPull(ByteSource& src, std::string name, std::size_t max_string = kDefaultMaxString);

  // The next token. After Tok::error, error() says what and where; every later call is an error.
  Tok next();
  // Text of the last key/str (unescaped) or num (as written); valid until the next call.
  std::string_view text() const { return text_; }
  // The last num as a double (0 and error() set when it is not a number).
  double number();
  // After obj_begin/arr_begin: skips to the matching end (that end is consumed, no token is
  // returned for it). After any other token: does nothing. False on error.
  bool skip();
  // Reads the value that follows a key, skipping containers; true if it was a scalar.
  // Convenience for readers: next() + skip() when it is a container.
  Tok value();

  // For a reader that parses an object straight from the buffer (span_pull.h): when a value is
  // due and the next byte after any whitespace opens an object, the buffered bytes from that '{'
  // on (the whitespace is consumed, as next() would); else empty. Nothing is read from the source.
  std::string_view buffered_object();
  // Consumes the first n bytes of what buffered_object() returned, which held the whole object.
  void take_object(std::size_t n);

  const core::Status& error() const { return err_; }
  bool failed() const { return failed_; }
  std::size_t max_string() const { return max_string_; }
  long long line();                 // 1-based line of the current position
  std::uint64_t offset() const { return consumed_ + pos_; }
  int depth() const { return static_cast<int>(stack_.size()); }

 private:
  enum class Want : std::uint8_t { value, value_or_end, key, key_or_end, colon_value, sep_or_end, done };
  bool fill(std::size_t need);      // at least `need` bytes after pos_ unless at end
  bool more();                      // reads more, keeping [pos_, len_)
  Tok fail(std::string what);
  bool string_end(std::size_t& end, bool& escaped);  // see json_pull.cc
  Tok scan_string(bool is_key);
  Tok scan_number();
  Tok scan_literal(std::string_view word, Tok t);
  Tok after_value(Tok t);
  Tok open(char c);
  Tok close(char c);
  bool skip_ws();                   // false at end of input

  ByteSource& src_;
  std::string name_;
  std::size_t max_string_;
  std::vector<char> buf_;
  std::size_t pos_ = 0, len_ = 0;
  std::uint64_t consumed_ = 0;
  long long lines_before_ = 0;      // newlines in bytes already dropped from the buffer
  bool eof_ = false;
  std::vector<char> stack_;         // '{' or '['
  Want want_ = Want::value;
  std::string_view text_;
  std::string scratch_;
  core::Status err_;
  bool failed_ = false;
  bool just_opened_ = false;
};

// A ByteSource over bytes in memory (tests, fuzz targets).
class MemorySource final : public ByteSource {
 public:
  explicit MemorySource(std::string_view data) : data_(data) {}
  std::size_t read(char* out, std::size_t cap) override;
  std::uint64_t bytes_in() const override { return off_; }
  core::Status status() const override { return {}; }

 private:
  std::string_view data_;
  std::size_t off_ = 0;
};

// Opens a file (or "-" for stdin) as decoded bytes: plain, gzip or zstd by magic bytes.
core::Result<std::unique_ptr<ByteSource>> open_decoded(const std::string& path);

}  // namespace ncdx::analyze::timeline
