// libFuzzer target: `nvidia-smi topo -m` text parser (untrusted pastes).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "probe/topo_smi_parse.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto r = ncdx::probe::parse_smi_topo(text, "fuzz");
  if (r.ok()) {
    // Invariants every successful parse must keep.
    const auto& m = *r;
    if (m.links.size() != m.devices() * m.devices()) __builtin_trap();
    for (std::size_t i = 0; i < m.devices(); ++i)
      if (m.at(i, i).type != ncdx::probe::LinkType::self) __builtin_trap();
  }
  return 0;
}
