// StructIndex (struct_index.h): the block classification.
#include "analyze/timeline/struct_index.h"

#include <cstring>

#if defined(__SSE2__) && defined(__x86_64__)
#include <emmintrin.h>
#define NCDX_STRUCT_INDEX_SSE2 1
#endif

namespace ncdx::analyze::timeline {
namespace {

struct Raw {
  std::uint64_t quote = 0, bracket = 0, bslash = 0;
};

// The raw bits of 64 readable bytes at p: quotes, brackets, backslashes, strings not yet known.
Raw raw_bits(const char* p) {
  Raw r;
#ifdef NCDX_STRUCT_INDEX_SSE2
  const __m128i q = _mm_set1_epi8('"'), bs = _mm_set1_epi8('\\'), fold = _mm_set1_epi8(static_cast<char>(0xDF)),
                open = _mm_set1_epi8('['), close = _mm_set1_epi8(']');
  for (int i = 0; i < 4; ++i) {
    __m128i w = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * i));
    // '{' '}' are '[' ']' with bit 0x20 set: one AND folds them together.
    __m128i f = _mm_and_si128(w, fold);
    auto bits = [](__m128i m) { return static_cast<std::uint64_t>(static_cast<unsigned>(_mm_movemask_epi8(m))); };
    r.quote |= bits(_mm_cmpeq_epi8(w, q)) << (16 * i);
    r.bslash |= bits(_mm_cmpeq_epi8(w, bs)) << (16 * i);
    r.bracket |= bits(_mm_or_si128(_mm_cmpeq_epi8(f, open), _mm_cmpeq_epi8(f, close))) << (16 * i);
  }
#else
  for (int i = 0; i < 64; ++i) {
    char c = p[i];
    std::uint64_t bit = std::uint64_t{1} << i;
    if (c == '"') r.quote |= bit;
    if (c == '\\') r.bslash |= bit;
    if (c == '{' || c == '}' || c == '[' || c == ']') r.bracket |= bit;
  }
#endif
  return r;
}

// Bit i set when an odd number of bits at or below i are set in x.
std::uint64_t prefix_xor(std::uint64_t x) {
  x ^= x << 1;
  x ^= x << 2;
  x ^= x << 4;
  x ^= x << 8;
  x ^= x << 16;
  x ^= x << 32;
  return x;
}

}  // namespace

// A block with a backslash, or whose first byte is escaped: JsonPull's string rules byte by byte.
void StructIndex::classify_bytewise(const char* p, std::size_t n, Block& b) {
  b = {0, 0, 0};
  for (std::size_t i = 0; i < n; ++i) {
    char c = p[i];
    std::uint64_t bit = std::uint64_t{1} << i;
    if (c == '\\') b.bslash |= bit;
    if (in_string_) {
      if (escape_) {
        escape_ = false;
      } else if (c == '\\') {
        escape_ = true;
      } else if (c == '"') {
        b.quote |= bit;
        in_string_ = false;
      }
    } else if (c == '"') {
      b.quote |= bit;
      in_string_ = true;
    } else if (c == '{' || c == '}' || c == '[' || c == ']') {
      b.bracket |= bit;
    }
  }
}

void StructIndex::extend(std::size_t n, bool last) {
  while (size_ < n) {
    std::size_t avail = n - size_;
    if (avail < 64 && !last) return;
    const char* p = base_ + size_;
    char pad[64];
    std::size_t len = avail < 64 ? avail : 64;
    if (len < 64) {
      std::memset(pad, ' ', sizeof pad);
      std::memcpy(pad, p, len);
      p = pad;
    }
    Block b;
    Raw r = raw_bits(p);
    if (r.bslash == 0 && !escape_) {
      // No escapes: every quote opens or closes a string, and the bytes from an opening quote up
      // to (not including) its closing one are the string: the prefix XOR of the quote bits.
      std::uint64_t in = prefix_xor(r.quote) ^ (in_string_ ? ~std::uint64_t{0} : 0);
      b = {r.quote, r.bracket & ~in, 0};
      in_string_ = (in >> 63) != 0;
    } else {
      classify_bytewise(p, 64, b);
    }
    if (len < 64) {  // the padding (spaces) marks nothing; the state after it is the tail's
      std::uint64_t keep = (std::uint64_t{1} << len) - 1;
      b.quote &= keep;
      b.bracket &= keep;
      b.bslash &= keep;
    }
    blocks_.push_back(b);
    size_ += len;
  }
}

}  // namespace ncdx::analyze::timeline
