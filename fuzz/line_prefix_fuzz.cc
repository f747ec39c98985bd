// Fuzzes the line-prefix parser, the paste cleaner and the path hints: no crash, no read outside
// the input; the message and the match text are views into the line (never into freed memory),
// the message inside the text; the cleaned line is never longer than the input.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "analyze/logs/line_clean.h"
#include "analyze/logs/log_line.h"

namespace {
bool inside(std::string_view part, std::string_view whole) {
  if (part.empty()) return true;
  return part.data() >= whole.data() && part.data() + part.size() <= whole.data() + whole.size();
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view in(reinterpret_cast<const char*>(data), size);
  auto p = ncdx::analyze::parse_prefix(in);
  if (!inside(p.message, in) || !inside(p.text, in) || !inside(p.source, in)) std::abort();
  if (!p.message.empty() && !inside(p.message, p.text)) std::abort();
  std::string buf;
  auto clean = ncdx::analyze::clean_line(in, buf);
  if (clean.size() > in.size()) std::abort();
  std::size_t pieces = 0;
  ncdx::analyze::split_redraws(clean, [&](std::string_view piece) {
    if (piece.empty() || piece.find('\r') != std::string_view::npos) std::abort();
    auto q = ncdx::analyze::parse_prefix(piece);
    if (!inside(q.message, piece)) std::abort();
    ++pieces;
  });
  if (pieces > clean.size()) std::abort();
  auto h = ncdx::analyze::hints_from_path(in);
  if (h.rank && *h.rank < 0) std::abort();
  return 0;
}
