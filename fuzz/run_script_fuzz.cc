// libFuzzer target: a run_*.sh script (untrusted) through the shell lexer, the static expander
// (arithmetic included) and the override parser. Nothing is executed.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "analyze/config/hydra_override.h"
#include "analyze/config/run_script.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace ncdx::analyze;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto r = parse_run_script(text, "fuzz.sh", {{"NNODES", "2"}});
  if (r.ok())
    for (const auto& a : r->overrides) (void)parse_override(a.text);
  return 0;
}
