#pragma once
// Artefacts that pasting, scraping and terminals add inside a log line, removed before the prefix
// parser and the signatures see it: ANSI escape sequences (Ray and docker compose colour their
// prefixes; also written as "^[[36m" by cat -v/less), HTML entities of scraped issue pages
// (&#39; &quot; &gt;), non-breaking and zero-width spaces, a byte-order mark, typographic quotes.
// Markdown and launcher prefixes at the start of a line are layers of parse_prefix() instead, so
// that they are recognised between other prefixes too.
#include <cstddef>
#include <string>
#include <string_view>

namespace ncdx::analyze {

// True when `line` holds a byte clean_line() may change (ESC, '&', '^', '\r', any non-ASCII byte).
// 16 bytes a step (SSE2): a plain ASCII log line costs a few ns.
bool needs_cleaning(std::string_view line);

// The line without those artefacts, written into `buf` (never longer than the input). '\r' is
// kept: split_redraws() cuts there.
std::string_view clean_line(std::string_view line, std::string& buf);

// The pieces of a line between '\r' (tqdm redraws, a CR-only line end, "\r\r\n"): each non-empty
// piece is what a terminal showed on its own. Calls f(piece) in order.
template <typename F>
void split_redraws(std::string_view line, F&& f) {
  std::size_t start = 0;
  for (;;) {
    std::size_t cr = line.find('\r', start);
    std::string_view piece = line.substr(start, cr == std::string_view::npos ? std::string_view::npos : cr - start);
    if (!piece.empty()) f(piece);
    if (cr == std::string_view::npos) return;
    start = cr + 1;
  }
}

// A redacted or placeholder value ("<hostname>", "PRIVATE_IP", "xxx.xxx.xxx.xxx", "***",
// "[REDACTED]", "<IP>"): never reported as a host.
bool is_placeholder(std::string_view v);
// False when no placeholder starts with `f` (the hot-path check before is_placeholder()).
inline bool may_be_placeholder(char f) {
  switch (f) {
    case '*': case '<': case '[': case '{': case 'x': case 'X': case 'P': case 'R': case 'H': case 'I': case 'M':
    case 'h': case 'r': return true;
    default: return false;
  }
}

}  // namespace ncdx::analyze
