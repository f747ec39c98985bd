// libFuzzer target: the streaming JSON pull reader. Differential against nlohmann's parser: a text
// nlohmann accepts must be walked to its end without error (the pull reader is laxer only on
// number spelling, raw control bytes and UTF-8, never stricter, except its 512 nesting limit).
// Also skip() at every container must land on the same end.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include <nlohmann/json.hpp>

#include "analyze/timeline/json_pull.h"

using namespace ncdx::analyze::timeline;

static bool walk(std::string_view in, bool skip_all) {
  MemorySource src(in);
  JsonPull p(src, "fuzz.json", 1 << 16);
  for (int guard = 0; guard < (1 << 22); ++guard) {
    Tok t = p.next();
    if (t == Tok::end) return true;
    if (t == Tok::error) return false;
    if (t == Tok::num) (void)p.number();
    if (skip_all && (t == Tok::obj_begin || t == Tok::arr_begin) && p.depth() > 1 && !p.skip()) return false;
    if (!p.error().is_ok()) return false;
  }
  std::abort();  // more tokens than bytes: a loop
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > (1u << 16)) return 0;
  std::string_view in(reinterpret_cast<const char*>(data), size);
  bool pull = walk(in, false);
  bool skipped = walk(in, true);
  // nlohmann's lexer takes a NUL byte as the end of input ("true\0garbage" is accepted as true),
  // the pull reader does not: compare only texts without one.
  if (in.find('\0') == std::string_view::npos && nlohmann::json::accept(in)) {
    int depth = 0, max_depth = 0;
    for (char c : in) {
      if (c == '[' || c == '{') max_depth = std::max(max_depth, ++depth);
      if (c == ']' || c == '}') --depth;
    }
    if (max_depth < 400 && (!pull || !skipped)) std::abort();
  }
  return 0;
}
