#pragma once
// A structural index of JSON bytes, 64 bytes a block, in the manner of simdjson's stage 1
// (Langdale & Lemire, "Parsing Gigabytes of JSON per Second", VLDB Journal 28(6), 2019, §3.1):
// per block one bit per byte for the quotes that open or close a string, for the brackets outside
// strings and for every backslash, computed with SSE2 compares (x86-64 baseline; bytewise
// elsewhere) and the in-string mask by a prefix XOR of the quote bits. The in-buffer reader
// (span_pull.h) then finds the end of a string or of a skipped container with a bit scan instead
// of scanning bytes: callgrind of `ncdx timeline` (2026-12-06) put 30 % of a trace event in token
// scans and 19 % in the args of kernels and launches, read only for "correlation".
//
// The strings are JsonPull's (json_pull.cc string_end): the index starts outside any string, a
// quote opens one, and inside it a backslash takes the byte after it, whatever that byte is; a
// backslash outside a string escapes nothing (JsonPull's skip() steps over it). simdjson marks
// escapes everywhere; here a block with a backslash (or an escape carried into it) is classified
// byte by byte instead, so the two can never disagree. Traces rarely have any.
#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace ncdx::analyze::timeline {

class StructIndex {
 public:
  struct Block {
    std::uint64_t quote;    // a '"' that opens or closes a string
    std::uint64_t bracket;  // '{' '}' '[' ']' outside strings
    std::uint64_t bslash;   // any '\\'
  };

  // Starts over at `base`, outside any string; nothing indexed yet.
  void reset(const char* base) {
    base_ = base;
    size_ = 0;
    blocks_.clear();
    in_string_ = escape_ = false;
  }
  // Indexes bytes up to base + n (n only grows). Only whole blocks are indexed unless `last`:
  // then the tail too, and the index is final (no later extend()).
  void extend(std::size_t n, bool last);

  const char* base() const { return base_; }
  // Bytes indexed from base(); a search never looks at or past base() + size().
  std::size_t size() const { return size_; }
  bool covers(const char* p) const { return p >= base_ && p < base_ + size_; }

  // The first byte at or after p (inside the index) whose bit is set in `field`; nullptr if none.
  const char* next(const char* p, std::uint64_t Block::* field) const {
    std::size_t off = static_cast<std::size_t>(p - base_);
    if (off >= size_) return nullptr;
    std::size_t w = off >> 6;
    std::uint64_t m = blocks_[w].*field & (~std::uint64_t{0} << (off & 63));
    while (m == 0) {
      if (++w >= blocks_.size()) return nullptr;
      m = blocks_[w].*field;
    }
    std::size_t at = (w << 6) + static_cast<std::size_t>(std::countr_zero(m));
    return at < size_ ? base_ + at : nullptr;
  }
  const char* next_quote(const char* p) const { return next(p, &Block::quote); }
  const char* next_bracket(const char* p) const { return next(p, &Block::bracket); }
  // Whether [p, e) (inside the index) holds a backslash: only the blocks of the range are read.
  bool has_backslash(const char* p, const char* e) const {
    std::size_t off = static_cast<std::size_t>(p - base_), end = static_cast<std::size_t>(e - base_);
    if (off >= end) return false;
    std::size_t w = off >> 6, last = (end - 1) >> 6;
    std::uint64_t m = blocks_[w].bslash & (~std::uint64_t{0} << (off & 63));
    for (; w < last; m = blocks_[++w].bslash)
      if (m) return true;
    return (m & (~std::uint64_t{0} >> (63 - ((end - 1) & 63)))) != 0;
  }
  // Whether p is a bracket outside strings (a check that the index and the reader agree on where
  // strings are, before the reader relies on it).
  bool is_bracket(const char* p) const {
    std::size_t off = static_cast<std::size_t>(p - base_);
    return off < size_ && (blocks_[off >> 6].bracket >> (off & 63) & 1);
  }

 private:
  void classify_bytewise(const char* p, std::size_t n, Block& b);

  const char* base_ = nullptr;
  std::size_t size_ = 0;
  std::vector<Block> blocks_;
  bool in_string_ = false;  // at base_ + size_
  bool escape_ = false;     // the byte at base_ + size_ is escaped
};

}  // namespace ncdx::analyze::timeline
