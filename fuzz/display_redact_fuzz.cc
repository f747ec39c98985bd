// libFuzzer target: the display sanitiser and the redactor (issue #12), with their invariants:
// nothing sanitize() returns holds a control byte, DEL, C1 or bidi override; output is bounded;
// redacting twice changes nothing more than redacting once.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "core/redact.h"
#include "report/sanitize.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto s = ncdx::report::sanitize(text, 256);
  if (s.size() > 256 + 64) std::abort();
  for (std::size_t i = 0; i < s.size(); ++i) {
    auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x20 || c == 0x7f) std::abort();
    if (c == 0xc2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) >= 0x80 &&
        static_cast<unsigned char>(s[i + 1]) <= 0x9f)
      std::abort();
    if (c == 0xe2 && s.compare(i, 2, "\xe2\x80") == 0 && i + 2 < s.size() &&
        static_cast<unsigned char>(s[i + 2]) >= 0xaa && static_cast<unsigned char>(s[i + 2]) <= 0xae)
      std::abort();
  }
  auto t = ncdx::report::sanitize_text(text);
  for (char c : t)
    if (c == '\x1b') std::abort();
  auto once = ncdx::core::redact_text(text);
  auto twice = ncdx::core::redact_text(once);
  if (twice.size() > once.size() + 64) std::abort();
  return 0;
}
