// libFuzzer target: the --from readers (doctor/topo/audit/env recommend): bounded JSON parse and
// the inventory decoder over whatever parses. Bad input must come back as a Status (65), never
// as an exception, a crash or unbounded memory (issue #12: 1e999 escaped as internal error).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "core/json.h"
#include "probe/inventory.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto j = ncdx::core::parse_json(text, "fuzz.json");
  if (!j) {
    if (j.status().code() != ncdx::core::Exit::bad_input) std::abort();
    return 0;
  }
  const nlohmann::json& inv = j->is_object() && j->contains("inventory") ? (*j)["inventory"] : *j;
  auto r = ncdx::probe::inventory_from_json(inv, "fuzz.json");
  if (!r && r.status().code() != ncdx::core::Exit::bad_input) std::abort();
  if (r) (void)ncdx::probe::to_json(*r);
  return 0;
}
