// libFuzzer target: Hydra override lines (one per input line) parsed and applied to a small
// struct-mode config, strictly and with a schema-like oracle.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "analyze/config/hydra_apply.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace ncdx::analyze;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  std::vector<Override> ovs;
  std::size_t start = 0;
  while (start <= text.size() && ovs.size() < 64) {
    auto nl = text.find('\n', start);
    auto line = text.substr(start, nl == std::string_view::npos ? std::string_view::npos : nl - start);
    auto o = parse_override(line);
    if (o.ok()) ovs.push_back(*o);
    if (nl == std::string_view::npos) break;
    start = nl + 1;
  }
  auto base = nlohmann::json::parse(R"({"a":{"b":1,"c":null,"d":{"e":[1,2]}},"l":[1,{"x":2}],"m":"???"})");
  auto cfg = base;
  (void)apply_overrides(cfg, ovs, nullptr);
  cfg = base;
  (void)apply_overrides(cfg, ovs, [](const std::string& k) {
    return k.size() % 3 == 0 ? KeyTruth::unknown : k.size() % 3 == 1 ? KeyTruth::exists : KeyTruth::tree;
  });
  return 0;
}
