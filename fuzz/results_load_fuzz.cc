// libFuzzer target: `ncdx report`'s reader of saved results (analyze/results/load.h): any JSON,
// normalised into judged items, matrices and the document's own summary. Bad input must come back
// as a Status (65), never as an exception, a crash or unbounded memory.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "analyze/results/load.h"
#include "core/json.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto j = ncdx::core::parse_json(text, "fuzz.json");
  if (!j) {
    if (j.status().code() != ncdx::core::Exit::bad_input) std::abort();
    return 0;
  }
  auto r = ncdx::analyze::normalise_result(*j, "fuzz.json");
  if (!r && r.status().code() != ncdx::core::Exit::bad_input) std::abort();
  return 0;
}
