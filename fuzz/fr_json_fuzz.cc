// libFuzzer target: Flight Recorder dump_json text → typed model → analysis. The model is read
// without a JSON tree (fr/json_stream.h: streamed, entry by entry); it must equal the model read
// from nlohmann's tree (parse_fr_dump), which is the differential oracle here: any difference aborts.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "analyze/fr/analyze.h"
#include "analyze/fr/reader.h"
#include "report/fr_summary.h"
#include "core/json.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace ncdx::analyze;
  if (size > (1u << 20)) return 0;
  std::string_view in(reinterpret_cast<const char*>(data), size);
  auto d = parse_fr_bytes(in, "fuzz.json", 3);
  if (d && d->format == "json") {
    auto dom = ncdx::core::parse_json(in, "fuzz.json");
    if (!dom) std::abort();
    auto slow = parse_fr_dump(*dom, "fuzz.json", 3, "json");
    if (!slow || to_json(*slow).dump() != to_json(*d).dump()) std::abort();
  }
  if (!d) return 0;
  FrDump dump;
  dump.source = "fuzz";
  dump.ranks.push_back(*d);
  auto a = analyze_fr(dump);
  dump.ranks.push_back(*d);
  dump.ranks[1].rank = 0;
  a = analyze_fr(dump);
  (void)ncdx::report::format_fr_summary(a);
  (void)to_json(a).dump();
  (void)to_json(dump).dump();
  return 0;
}
