#pragma once
// Whitespace and limits shared by the two JSON pull readers (json_pull.h, the streaming one;
// span_pull.h, the in-buffer one): both must take exactly the same bytes, or the fast reader would
// accept what the streaming one rejects. (Both also scan with the same byte_scan.h functions:
// number_run for number tokens, find_quote_or_bracket to skip containers.)
#include <cstddef>

namespace ncdx::analyze::timeline::json_bytes {

// Limits of both: nesting depth (a skip counts from the container it skips) and number length.
inline constexpr std::size_t kMaxDepth = 512;
inline constexpr std::size_t kMaxNumber = 64;

// JSON whitespace (RFC 8259 §2). Most bytes tested are not whitespace and are above ' ': one
// compare rejects them.
inline bool is_ws(char c) {
  return static_cast<unsigned char>(c) <= ' ' && (c == ' ' || c == '\n' || c == '\r' || c == '\t');
}

}  // namespace ncdx::analyze::timeline::json_bytes
