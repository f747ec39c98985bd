#pragma once
// A pull reader for one JSON value whose bytes are already in memory (the next trace event, in
// JsonPull's buffer): for what it accepts, the same tokens, texts and numbers as JsonPull
// (json_pull.h), but inline and without refills, error texts or line counts. It gives up —
// failed() — on anything else: the bytes ending inside the value, a string with an escape, a
// number decimal_fast does not convert, nesting deeper than kDepth, any grammar error. The
// caller then reads the value again with JsonPull, which reads more and reports the error, so
// giving up only costs time. Accepting is the part that must match JsonPull: every rule below is
// JsonPull's (json_bytes.h holds the byte classes and limits both use).
// Why: perf of `ncdx timeline --jobs 1` on the generated Kineto set (2026-12-06) put 60 % of the
// run in JsonPull's out-of-line token calls (next, scan_string, scan_number, after_value, value),
// which the event reader makes ~30 of per event.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "analyze/timeline/byte_scan.h"
#include "analyze/timeline/decimal_fast.h"
#include "analyze/timeline/json_bytes.h"
#include "analyze/timeline/json_pull.h"  // Tok

namespace ncdx::analyze::timeline {

// A key the reader expects next, as the bytes that usually carry it: '"', the key, '"', ':', ' '
// (at most 16). Matching them is what reading them would find, so a match is the key token.
class KeyGuess {
 public:
  explicit KeyGuess(std::string_view key) : key_len_(static_cast<std::uint8_t>(key.size())) {
    char pat[16] = {}, mask[16] = {};
    std::size_t n = key.size() + 4;
    if (n > 16) n = key_len_ = 0;  // too long: never matches (mask 0 with len 0 is rejected below)
    if (n) {
      pat[0] = '"';
      std::memcpy(pat + 1, key.data(), key.size());
      pat[key.size() + 1] = '"';
      pat[key.size() + 2] = ':';
      pat[key.size() + 3] = ' ';
      std::memset(mask, '\xff', n);
    }
    std::memcpy(&w_[0], pat, 8);
    std::memcpy(&w_[1], pat + 8, 8);
    std::memcpy(&m_[0], mask, 8);
    std::memcpy(&m_[1], mask + 8, 8);
  }
  // The 16 bytes at p (readable) start with the pattern. Byte-wise AND and compare: no byte order.
  bool matches(const char* p) const {
    std::uint64_t a, b;
    std::memcpy(&a, p, 8);
    std::memcpy(&b, p + 8, 8);
    return key_len_ && ((a ^ w_[0]) & m_[0]) == 0 && ((b ^ w_[1]) & m_[1]) == 0;
  }
  std::size_t key_size() const { return key_len_; }

 private:
  std::uint64_t w_[2], m_[2];
  std::uint8_t key_len_;
};

class SpanPull {
 public:
  static constexpr int kDepth = 32;  // deeper values are left to JsonPull
  SpanPull(const char* begin, const char* end, std::size_t max_string)
      : begin_(begin), p_(begin), end_(end), max_string_(max_string) {}

  Tok next();
  // next(), where a key is due and `guess` is likely: its bytes are compared, not scanned.
  Tok next(const KeyGuess& guess) {
    if (want_ == Want::key || want_ == Want::key_or_end) {
      while (p_ < end_ && json_bytes::is_ws(*p_)) ++p_;
      if (end_ - p_ >= 16 && guess.matches(p_) && guess.key_size() <= max_string_) {
        just_opened_ = false;
        text_ = std::string_view(p_ + 1, guess.key_size());
        p_ += guess.key_size() + 4;
        want_ = Want::value;
        return Tok::key;
      }
    }
    return next();
  }
  std::string_view text() const { return text_; }
  double number() {
    double d = 0;
    if (decimal_fast(text_, d)) return d;
    give_up();
    return 0;
  }
  bool skip();
  template <class OnMember>
  bool members(OnMember&& on);  // see below
  Tok value() {
    Tok t = next();
    if ((t == Tok::obj_begin || t == Tok::arr_begin) && !skip()) return Tok::error;
    return t;
  }
  // value() where the reader expects a number or a string: that kind is tested first, here at
  // the call site (one shared test of the first byte mispredicted between the kinds).
  Tok number_value() {
    if (want_ == Want::value && p_ < end_ && ((*p_ >= '0' && *p_ <= '9') || *p_ == '-')) return number_token();
    return value();
  }
  Tok string_value() {
    if (want_ == Want::value && p_ < end_ && *p_ == '"') return string(false);
    return value();
  }
  bool failed() const { return failed_; }
  // The value is complete: its last closing bracket has been read.
  bool done() const { return want_ == Want::done && !failed_; }
  int depth() const { return depth_; }
  // Bytes read from `begin`.
  std::size_t used() const { return static_cast<std::size_t>(p_ - begin_); }

 private:
  enum class Want : unsigned char { value, value_or_end, key, key_or_end, colon_value, sep_or_end, done };
  // After giving up every call gives up again: `done` sends next() there, value() through next(),
  // and the key guess is only tried where a key is due.
  Tok give_up() {
    failed_ = true;
    want_ = Want::done;
    return Tok::error;
  }
  Tok value_token(char c);
  Tok string(bool is_key);
  Tok number_token();
  Tok literal(std::string_view word, Tok t);
  // After the opening bracket `opener`, from `at`: the byte after its matching end, as skip()
  // finds it; nullptr where skip() gives up.
  const char* skip_body(const char* at, char opener) const;
  Tok open(char c);
  Tok close(char c);
  // As JsonPull::after_value: the ',' and one space after a value are taken at once.
  Tok after_value(Tok t) {
    if (depth_ == 0) {
      want_ = Want::done;
      return t;
    }
    want_ = Want::sep_or_end;
    if (p_ < end_ && *p_ == ',') {
      ++p_;
      want_ = stack_[depth_ - 1] == '{' ? Want::key : Want::value;
      if (p_ < end_ && *p_ == ' ') ++p_;
    }
    return t;
  }

  const char* begin_;
  const char* p_;
  const char* end_;
  std::size_t max_string_;
  char stack_[kDepth] = {};
  int depth_ = 0;
  Want want_ = Want::value;
  bool failed_ = false, just_opened_ = false;
  std::string_view text_;
};

inline Tok SpanPull::next() {
  just_opened_ = false;
  for (;;) {
    while (p_ < end_ && json_bytes::is_ws(*p_)) ++p_;
    if (p_ >= end_) return give_up();
    char c = *p_;
    // The two states most tokens start in (after_value and string take ", " and ": " at once)
    // first, and a value by its likeliest first bytes: a switch on the state was one indirect
    // jump that mispredicted on most tokens (perf, 2026-12-06: 17 % of the run on it).
    if (want_ == Want::value) return value_token(c);
    if (want_ == Want::key) return c == '"' ? string(true) : give_up();
    switch (want_) {
      case Want::sep_or_end:
        if (c == ',') {
          ++p_;
          want_ = stack_[depth_ - 1] == '{' ? Want::key : Want::value;
          continue;
        }
        if (c == '}' || c == ']') return close(c);
        return give_up();
      case Want::colon_value:
        if (c != ':') return give_up();
        ++p_;
        want_ = Want::value;
        continue;
      case Want::key_or_end:
        if (c == '}') return close(c);
        return c == '"' ? string(true) : give_up();
      case Want::value_or_end:
        if (c == ']') return close(c);
        return value_token(c);
      default: return give_up();  // done
    }
  }
}

inline Tok SpanPull::value_token(char c) {
  if (c == '"') return string(false);
  if ((c >= '0' && c <= '9') || c == '-') return number_token();
  if (c == '{' || c == '[') return open(c);
  if (c == 't') return literal("true", Tok::tru);
  if (c == 'f') return literal("false", Tok::fals);
  if (c == 'n') return literal("null", Tok::null);
  return give_up();
}

inline Tok SpanPull::string(bool is_key) {
  const char* body = p_ + 1;
  const char* q = nullptr;
  if (end_ - body >= 16) {
    q = byte_scan::find_quote_or_backslash_16(body);
    if (!q) q = byte_scan::find_quote_or_backslash(body + 16, end_);  // a long string: on from there
  } else {
    q = byte_scan::find_quote_or_backslash(body, end_);
  }
  if (q == end_ || *q == '\\' || static_cast<std::size_t>(q - body) > max_string_) return give_up();
  text_ = std::string_view(body, static_cast<std::size_t>(q - body));
  p_ = q + 1;
  if (!is_key) return after_value(Tok::str);
  want_ = Want::colon_value;  // and the ':' and one space at once, as JsonPull::scan_string
  if (p_ < end_ && *p_ == ':') {
    ++p_;
    want_ = Want::value;
    if (p_ < end_ && *p_ == ' ') ++p_;
  }
  return Tok::key;
}

inline Tok SpanPull::number_token() {
  std::size_t n = byte_scan::number_run(p_, end_);
  // At the end of the bytes the number may go on (JsonPull would read more): give up.
  if (n == static_cast<std::size_t>(end_ - p_) || n > json_bytes::kMaxNumber) return give_up();
  text_ = std::string_view(p_, n);
  p_ += n;
  return after_value(Tok::num);
}

inline Tok SpanPull::literal(std::string_view word, Tok t) {
  if (static_cast<std::size_t>(end_ - p_) < word.size() || std::string_view(p_, word.size()) != word) return give_up();
  p_ += word.size();
  text_ = word;
  return after_value(t);
}

inline Tok SpanPull::open(char c) {
  if (depth_ >= kDepth) return give_up();
  stack_[depth_++] = c;
  ++p_;
  just_opened_ = true;
  want_ = c == '{' ? Want::key_or_end : Want::value_or_end;
  return c == '{' ? Tok::obj_begin : Tok::arr_begin;
}

inline Tok SpanPull::close(char c) {
  if (depth_ == 0 || stack_[depth_ - 1] != (c == '}' ? '{' : '[')) return give_up();
  --depth_;
  ++p_;
  return after_value(c == '}' ? Tok::obj_end : Tok::arr_end);
}

// JsonPull::skip's walk: only quotes and brackets matter; strings are jumped over (a backslash
// takes the byte after it, as JsonPull::string_end), brackets counted, and only the last one
// must match the container skipped.
inline bool SpanPull::skip() {
  if (failed_) return false;
  if (!just_opened_) return true;
  just_opened_ = false;
  const char* after = skip_body(p_, stack_[depth_ - 1]);
  if (!after) return give_up(), false;
  --depth_;
  p_ = after;
  after_value(Tok::null);
  return true;
}

inline const char* SpanPull::skip_body(const char* at, char opener) const {
  std::size_t depth = 1;
  for (;;) {
    at = byte_scan::find_quote_or_bracket(at, end_);
    if (at == end_) return nullptr;
    char c = *at;
    if (c == '"') {
      const char* body = at + 1;
      for (;;) {
        const char* h = byte_scan::find_quote_or_backslash(at + 1, end_);
        if (h == end_ || (*h == '\\' && h + 1 == end_)) return nullptr;
        if (*h == '"') {
          if (static_cast<std::size_t>(h - body) > max_string_) return nullptr;
          at = h + 1;
          break;
        }
        at = h + 1;  // the backslash; the byte after it is jumped by the next search's + 1
      }
      continue;
    }
    ++at;
    if (c == '{' || c == '[') {
      if (++depth > json_bytes::kMaxDepth) return nullptr;
    } else if (--depth == 0) {
      return opener == (c == '}' ? '{' : '[') ? at : nullptr;
    }
  }
}

// The members of the object just opened, straight from the bytes: the key, then the value as
// value() reads it (a container skipped whole), each handed to on(key, token, text) — a number's
// or string's text, empty for others; on() returns false to stop. The grammar is next()'s and
// value()'s (any whitespace between tokens, ',' between members, no ',' before the '}'). Returns
// true when the object was read to its '}' (consumed, as after skip()); false, with nothing
// consumed, where on() stopped, at anything next() or value() would give up on, and when the last
// token was not the object's '{' — the caller then reads the object token by token.
template <class OnMember>
bool SpanPull::members(OnMember&& on) {
  if (failed_ || !just_opened_ || want_ != Want::key_or_end) return false;
  const char* q = p_;
  auto ws = [&] {
    while (q < end_ && json_bytes::is_ws(*q)) ++q;
    return q < end_;
  };
  // A string's closing quote from its opening one at q; nullptr on an escape, the bytes' end, or
  // a string longer than max_string (string() gives up on each).
  auto string_end = [&]() -> const char* {
    const char* body = q + 1;
    const char* e = end_ - body >= 16 ? byte_scan::find_quote_or_backslash_16(body) : nullptr;
    if (!e) e = byte_scan::find_quote_or_backslash(end_ - body >= 16 ? body + 16 : body, end_);
    if (e == end_ || *e == '\\' || static_cast<std::size_t>(e - body) > max_string_) return nullptr;
    return e;
  };
  if (!ws()) return false;
  if (*q != '}') {
    for (;;) {
      if (*q != '"') return false;
      const char* e = string_end();
      if (!e) return false;
      std::string_view key(q + 1, static_cast<std::size_t>(e - q - 1));
      q = e + 1;
      if (!ws() || *q != ':') return false;
      ++q;
      if (!ws()) return false;
      char c = *q;
      Tok t;
      std::string_view text;
      if (c == '"') {
        if (!(e = string_end())) return false;
        text = std::string_view(q + 1, static_cast<std::size_t>(e - q - 1));
        q = e + 1;
        t = Tok::str;
      } else if ((c >= '0' && c <= '9') || c == '-') {
        std::size_t n = byte_scan::number_run(q, end_);
        if (n == static_cast<std::size_t>(end_ - q) || n > json_bytes::kMaxNumber) return false;
        text = std::string_view(q, n);
        q += n;
        t = Tok::num;
      } else if (c == '{' || c == '[') {
        if (depth_ >= kDepth || !(q = skip_body(q + 1, c))) return false;  // open()'s limit, then skip()
        t = c == '{' ? Tok::obj_begin : Tok::arr_begin;
      } else {
        std::string_view word = c == 't' ? "true" : c == 'f' ? "false" : c == 'n' ? "null" : "";
        if (word.empty() || static_cast<std::size_t>(end_ - q) < word.size() || std::string_view(q, word.size()) != word)
          return false;
        q += word.size();
        t = c == 't' ? Tok::tru : c == 'f' ? Tok::fals : Tok::null;
      }
      if (!on(key, t, text)) return false;
      if (!ws()) return false;
      if (*q == '}') break;
      if (*q != ',') return false;
      ++q;
      if (!ws()) return false;
    }
  }
  // q is at the object's '}'.
  p_ = q;
  just_opened_ = false;
  close('}');
  return true;
}

}  // namespace ncdx::analyze::timeline
