// libFuzzer target: the --from readers (doctor/topo/audit/env recommend, model/tune --model):
// bounded JSON parse, the inventory decoder over whatever parses, and the cluster spec of a
// doctor or cluster report (analyze/cluster/spec_from_report.h). Bad input must come back as a Status (65), never
// as an exception, a crash or unbounded memory (issue #12: 1e999 escaped as internal error).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "analyze/cluster/spec_from_report.h"
#include "core/json.h"
#include "probe/inventory.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  // A report either gives a spec, or a reason why not, or is refused as bad input.
  if (auto d = ncdx::analyze::spec_from_report(text, "fuzz.json"); d) {
    if (!d->spec && d->why_not.empty()) std::abort();
  } else if (d.status().code() != ncdx::core::Exit::bad_input) {
    std::abort();
  }
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
