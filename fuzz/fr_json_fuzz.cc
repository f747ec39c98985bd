// libFuzzer target: Flight Recorder dump_json text → typed model → analysis.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "analyze/fr_analyze.h"
#include "analyze/fr_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace ncdx::analyze;
  if (size > (1u << 20)) return 0;
  std::string_view in(reinterpret_cast<const char*>(data), size);
  auto d = parse_fr_bytes(in, "fuzz.json", 3);
  if (!d) return 0;
  FrDump dump;
  dump.source = "fuzz";
  dump.ranks.push_back(*d);
  auto a = analyze_fr(dump);
  dump.ranks.push_back(*d);
  dump.ranks[1].rank = 0;
  a = analyze_fr(dump);
  (void)format_fr_summary(a);
  (void)to_json(a).dump();
  (void)to_json(dump).dump();
  return 0;
}
