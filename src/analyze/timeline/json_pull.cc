// JsonPull: see json_pull.h. One buffer; a token that runs past its end is kept by moving the
// unread tail to the front before reading more (so views stay valid until the next call).
#include "analyze/timeline/json_pull.h"
#include "analyze/timeline/byte_scan.h"
#include "analyze/timeline/decimal_fast.h"
#include "analyze/timeline/json_bytes.h"
#include "core/strings.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>

namespace ncdx::analyze::timeline {
namespace {

constexpr std::size_t kChunk = 1u << 20;
using json_bytes::is_ws;
using json_bytes::kMaxDepth;
using json_bytes::kMaxNumber;

void put_utf8(std::string& out, std::uint32_t cp) { core::append_utf8(out, cp); }

int hex4(const char* p) {
  int v = 0;
  for (int i = 0; i < 4; ++i) {
    char c = p[i];
    int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
    if (d < 0) return -1;
    v = v * 16 + d;
  }
  return v;
}

// Decodes the escapes of a JSON string body; false on a bad escape.
bool unescape(std::string_view in, std::string& out) {
  out.clear();
  out.reserve(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) {
    char c = in[i];
    if (c != '\\') {
      out += c;
      continue;
    }
    if (++i >= in.size()) return false;
    switch (in[i]) {
      case '"': out += '"'; break;
      case '\\': out += '\\'; break;
      case '/': out += '/'; break;
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 'n': out += '\n'; break;
      case 'r': out += '\r'; break;
      case 't': out += '\t'; break;
      case 'u': {
        if (in.size() - i - 1 < 4) return false;
        int cp = hex4(in.data() + i + 1);
        if (cp < 0) return false;
        i += 4;
        std::uint32_t u = static_cast<std::uint32_t>(cp);
        if (u >= 0xD800 && u < 0xDC00 && in.size() - i - 1 >= 6 && in[i + 1] == '\\' && in[i + 2] == 'u') {
          int lo = hex4(in.data() + i + 3);
          if (lo >= 0xDC00 && lo < 0xE000) {
            u = 0x10000 + ((u - 0xD800) << 10) + (static_cast<std::uint32_t>(lo) - 0xDC00);
            i += 6;
          }
        }
        if (u >= 0xD800 && u < 0xE000) u = 0xFFFD;  // a lone surrogate: replacement character
        put_utf8(out, u);
        break;
      }
      default: return false;
    }
  }
  return true;
}

}  // namespace

JsonPull::JsonPull(ByteSource& src, std::string name, std::size_t max_string)
    : src_(src), name_(std::move(name)), max_string_(max_string), buf_(kChunk) {}

bool JsonPull::more() {
  if (eof_) return false;
  if (pos_ > 0) {
    lines_before_ += static_cast<long long>(byte_scan::count(buf_.data(), pos_, '\n'));
    consumed_ += pos_;
    std::memmove(buf_.data(), buf_.data() + pos_, len_ - pos_);
    len_ -= pos_;
    pos_ = 0;
  }
  if (len_ == buf_.size()) {
    if (buf_.size() > max_string_ + kChunk) return false;  // callers report the long token
    buf_.resize(buf_.size() * 2);
  }
  std::size_t n = src_.read(buf_.data() + len_, buf_.size() - len_);
  if (n == 0) {
    eof_ = true;
    core::Status s = src_.status();
    if (!s.is_ok() && !failed_) {
      failed_ = true;
      err_ = core::Status::bad_input(name_ + ":" + std::to_string(line()) + ": " + s.message());
    }
    return false;
  }
  len_ += n;
  return true;
}

bool JsonPull::fill(std::size_t need) {
  while (len_ - pos_ < need)
    if (!more()) return false;
  return true;
}

long long JsonPull::line() {
  return lines_before_ + static_cast<long long>(byte_scan::count(buf_.data(), std::min(pos_, len_), '\n')) + 1;
}

Tok JsonPull::fail(std::string what) {
  if (!failed_) {
    failed_ = true;
    err_ = core::Status::bad_input(name_ + ":" + std::to_string(line()) + ": " + what);
  }
  return Tok::error;
}

bool JsonPull::skip_ws() {
  for (;;) {
    while (pos_ < len_ && is_ws(buf_[pos_])) ++pos_;
    if (pos_ < len_) return true;
    if (!more()) return false;
  }
}

Tok JsonPull::next() {
  if (failed_) return Tok::error;
  just_opened_ = false;
  for (;;) {
    // The call only when there is whitespace or the buffer is spent (half the tokens of a
    // Kineto trace follow ", " or ": "; the rest start at once).
    if ((pos_ >= len_ || is_ws(buf_[pos_])) && !skip_ws()) {
      if (failed_) return Tok::error;
      if (want_ == Want::done) return Tok::end;
      return fail("unexpected end of input (truncated JSON?)");
    }
    char c = buf_[pos_];
    switch (want_) {
      case Want::done: return fail("unexpected text after the end of the JSON value");
      case Want::sep_or_end:
        if (c == ',') {
          ++pos_;
          want_ = stack_.back() == '{' ? Want::key : Want::value;
          continue;
        }
        if (c == '}' || c == ']') return close(c);
        return fail(std::string("expected ',' or '") + (stack_.back() == '{' ? '}' : ']') + "'");
      case Want::colon_value:
        if (c == ':') {
          ++pos_;
          want_ = Want::value;
          continue;
        }
        return fail("expected ':' after an object key");
      case Want::key_or_end:
        if (c == '}') return close(c);
        [[fallthrough]];
      case Want::key:
        if (c == '"') return scan_string(true);
        return fail("expected a string key");
      case Want::value_or_end:
        if (c == ']') return close(c);
        [[fallthrough]];
      case Want::value:
        switch (c) {
          case '{': case '[': return open(c);
          case '"': return scan_string(false);
          case 't': return scan_literal("true", Tok::tru);
          case 'f': return scan_literal("false", Tok::fals);
          case 'n': return scan_literal("null", Tok::null);
          default:
            if (c == '-' || (c >= '0' && c <= '9')) return scan_number();
            return fail(std::string("expected a value, found '") +
                        (static_cast<unsigned char>(c) >= 0x20 && static_cast<unsigned char>(c) < 0x7F ? std::string(1, c) : "?") + "'");
        }
    }
  }
}

// The ',' that follows most values, and the one space after it, are taken here: a loop turn of
// next() per separator was a fifth of the run in perf. Never a newline, so line() is unchanged
// for any error that follows; anything else is left to next() and its messages.
Tok JsonPull::after_value(Tok t) {
  if (stack_.empty()) {
    want_ = Want::done;
    return t;
  }
  want_ = Want::sep_or_end;
  if (pos_ < len_ && buf_[pos_] == ',') {
    ++pos_;
    want_ = stack_.back() == '{' ? Want::key : Want::value;
    if (pos_ < len_ && buf_[pos_] == ' ') ++pos_;
  }
  return t;
}

Tok JsonPull::open(char c) {
  if (stack_.size() >= kMaxDepth) return fail("nesting deeper than 512");
  stack_.push_back(c);
  ++pos_;
  just_opened_ = true;
  want_ = c == '{' ? Want::key_or_end : Want::value_or_end;
  return c == '{' ? Tok::obj_begin : Tok::arr_begin;
}

Tok JsonPull::close(char c) {
  char want = c == '}' ? '{' : '[';
  if (stack_.empty() || stack_.back() != want) return fail(std::string("unbalanced '") + c + "'");
  stack_.pop_back();
  ++pos_;
  return after_value(c == '}' ? Tok::obj_end : Tok::arr_end);
}

// From the opening quote at pos_: sets `end` to the offset of the closing quote (from pos_) and
// `escaped` if the body has a backslash. One scan for both bytes; a backslash skips the byte after
// it, so an escaped quote never ends the string (no looking back over runs of backslashes).
bool JsonPull::string_end(std::size_t& end, bool& escaped) {
  std::size_t i = 1;  // offset from pos_ of the next byte to look at
  escaped = false;
  for (;;) {
    const char* b = buf_.data() + pos_;
    std::size_t avail = len_ - pos_;
    const char* hit = i < avail ? byte_scan::find_quote_or_backslash(b + i, b + avail) : b + avail;
    std::size_t hi = static_cast<std::size_t>(hit - b);
    if (hi < avail && *hit == '"') {
      if (hi - 1 > max_string_) {
        fail("string longer than " + std::to_string(max_string_) + " bytes");
        return false;
      }
      end = hi;
      return true;
    }
    if (hi + 1 < avail) {  // a backslash with its escaped byte in the buffer
      escaped = true;
      i = hi + 2;
      continue;
    }
    i = hi;  // the end of the buffer, or a backslash that is its last byte: read more, look again
    if (avail > max_string_ + 1) {
      fail("string longer than " + std::to_string(max_string_) + " bytes");
      return false;
    }
    if (!more()) {
      if (!failed_) fail("unterminated string (truncated JSON?)");
      return false;
    }
  }
}

Tok JsonPull::scan_string(bool is_key) {
  std::size_t qi = 0;
  bool escaped = false;
  // Most keys and short values ("ph", "X", "kernel") close within the 16 bytes after their quote:
  // one look at those bytes here, no call to string_end and its loop (the largest cost in perf).
  // Only where 16 bytes are in the buffer; a backslash first, or no quote, takes the full scan.
  const char* body_at = buf_.data() + pos_ + 1;
  if (const char* hit = len_ - pos_ > 16 ? byte_scan::find_quote_or_backslash_16(body_at) : nullptr;
      hit && *hit == '"' && static_cast<std::size_t>(hit - body_at) <= max_string_) {
    qi = static_cast<std::size_t>(hit - body_at) + 1;
  } else if (!string_end(qi, escaped)) {
    return Tok::error;
  }
  std::string_view body(buf_.data() + pos_ + 1, qi - 1);
  if (escaped) {
    if (!unescape(body, scratch_)) return fail("bad escape in a string");
    text_ = scratch_;
  } else {
    text_ = body;
  }
  pos_ += qi + 1;
  if (is_key) {
    // Likewise the ':' and one space right after a key (as after_value does for ',').
    want_ = Want::colon_value;
    if (pos_ < len_ && buf_[pos_] == ':') {
      ++pos_;
      want_ = Want::value;
      if (pos_ < len_ && buf_[pos_] == ' ') ++pos_;
    }
    return Tok::key;
  }
  return after_value(Tok::str);
}

Tok JsonPull::scan_number() {
  for (;;) {
    std::size_t i = pos_ + byte_scan::number_run(buf_.data() + pos_, buf_.data() + len_);
    if (i - pos_ > kMaxNumber) return fail("number longer than 64 characters");
    if (i == len_ && !eof_) {
      if (!more()) {
        if (failed_) return Tok::error;
      }
      continue;
    }
    text_ = std::string_view(buf_.data() + pos_, i - pos_);
    pos_ = i;
    return after_value(Tok::num);
  }
}

Tok JsonPull::scan_literal(std::string_view word, Tok t) {
  if (!fill(word.size())) return failed_ ? Tok::error : fail("unexpected end of input in a literal");
  if (std::string_view(buf_.data() + pos_, word.size()) != word) return fail("expected a value (bad literal)");
  pos_ += word.size();
  text_ = word;
  return after_value(t);
}

double JsonPull::number() {
  double d = 0;
  if (decimal_fast(text_, d)) return d;
  const char* b = text_.data();
  const char* e = b + text_.size();
  if (b != e && *b == '+') {
    fail("bad number '" + std::string(text_) + "'");
    return 0;
  }
  auto [p, ec] = std::from_chars(b, e, d);
  if (ec != std::errc() || p != e) {
    if (ec == std::errc::result_out_of_range && p == e) return d;
    fail("bad number '" + std::string(text_) + "'");
    return 0;
  }
  return d;
}

bool JsonPull::skip() {
  if (failed_) return false;
  if (!just_opened_) return true;  // the last token was not an opening bracket
  just_opened_ = false;
  int depth = 1;
  for (;;) {
    pos_ = static_cast<std::size_t>(byte_scan::find_quote_or_bracket(buf_.data() + pos_, buf_.data() + len_) - buf_.data());
    if (pos_ >= len_) {
      if (!more()) {
        if (!failed_) fail("unexpected end of input inside a value (truncated JSON?)");
        return false;
      }
      continue;
    }
    char c = buf_[pos_];
    if (c == '"') {
      // Skip the string body without decoding it.
      std::size_t qi = 0;
      bool escaped = false;
      if (!string_end(qi, escaped)) return false;
      pos_ += qi + 1;
      continue;
    }
    ++pos_;
    if (c == '{' || c == '[') {
      if (++depth > static_cast<int>(kMaxDepth)) {
        fail("nesting deeper than 512");
        return false;
      }
    } else if (--depth == 0) {
      char want = c == '}' ? '{' : '[';
      if (stack_.back() != want) {
        fail(std::string("unbalanced '") + c + "'");
        return false;
      }
      stack_.pop_back();
      after_value(Tok::null);
      return true;
    }
  }
}

std::string_view JsonPull::buffered_object() {
  // Shallow only: the in-buffer reader nests at most 32 more levels (span_pull.h), never past the
  // 512 that open() allows.
  if (failed_ || stack_.size() > kMaxDepth / 2 || (want_ != Want::value && want_ != Want::value_or_end)) return {};
  std::size_t i = pos_;
  while (i < len_ && is_ws(buf_[i])) ++i;
  if (i >= len_ || buf_[i] != '{') return {};
  pos_ = i;
  return {buf_.data() + i, len_ - i};
}

void JsonPull::take_object(std::size_t n) {
  pos_ += n;
  just_opened_ = false;
  after_value(Tok::obj_end);
}

Tok JsonPull::value() {
  Tok t = next();
  if (t == Tok::obj_begin || t == Tok::arr_begin) {
    if (!skip()) return Tok::error;
  }
  return t;
}

std::size_t MemorySource::read(char* out, std::size_t cap) {
  std::size_t n = std::min(cap, data_.size() - off_);
  std::memcpy(out, data_.data() + off_, n);
  off_ += n;
  return n;
}

core::Result<std::unique_ptr<ByteSource>> open_decoded(const std::string& path) {
  int fd = 0;
  bool owns = false;
  if (path != "-") {
    fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return core::Status::not_found(path + ": " + std::strerror(errno));
    owns = true;
    struct stat st {};
    if (::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
      ::close(fd);
      return core::Status::not_found(path + ": is a directory");
    }
  }
  auto raw = std::make_unique<RawInput>(fd, owns, path == "-" ? "<stdin>" : path, kChunk);
  raw->peek(4);  // the magic bytes
  if (!raw->status().is_ok()) return raw->status();
  std::unique_ptr<ByteSource> src;
  switch (detect_compression(raw->data(), raw->size())) {
    case Compression::gzip: src = make_gzip_source(std::move(raw)); break;
    case Compression::zstd: src = make_zstd_source(std::move(raw)); break;
    case Compression::none: src = make_plain_source(std::move(raw)); break;
  }
  return src;
}

}  // namespace ncdx::analyze::timeline
