// Fuzzes the line-prefix parser and the path hints: no crash, no read outside the input, and the
// message is always a suffix of the line (a view into it, never into freed memory).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "analyze/log_line.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view in(reinterpret_cast<const char*>(data), size);
  auto p = ncdx::analyze::parse_prefix(in);
  if (p.message.size() > in.size() || p.message.data() + p.message.size() != in.data() + in.size()) {
    if (!(p.message.empty() && p.message.data() == nullptr)) std::abort();
  }
  if (!p.source.empty() && (p.source.data() < in.data() || p.source.data() + p.source.size() > in.data() + in.size()))
    std::abort();
  auto h = ncdx::analyze::hints_from_path(in);
  if (h.rank && *h.rank < 0) std::abort();
  return 0;
}
