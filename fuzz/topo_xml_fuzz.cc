// libFuzzer target: NCCL topology XML (NCCL_TOPO_FILE / NCCL_TOPO_DUMP_FILE) and the XML reader.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "probe/topo_xml_parse.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto r = ncdx::probe::parse_nccl_topo_xml(text, "fuzz");
  if (r.ok()) {
    const auto& m = *r;
    if (m.gpus.empty() || m.links.size() != m.devices() * m.devices()) __builtin_trap();
  }
  return 0;
}
