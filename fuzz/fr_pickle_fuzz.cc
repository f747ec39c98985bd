// libFuzzer target: Flight Recorder pickle bytes → safe decoder → typed model (the path
// `ncdx triage --fr` takes) → analysis; and the same bytes → JSON (`unpickle`, read_fr_raw).
// Any input must end in a value or a bad_input Status: no crash, no hang, no unbounded memory.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "analyze/fr/analyze.h"
#include "analyze/fr/pickle.h"
#include "analyze/fr/reader.h"
#include "report/fr_summary.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace ncdx::analyze;
  std::string_view in(reinterpret_cast<const char*>(data), size);
  PickleLimits lim;
  lim.max_values = 200000;  // keep each run small; the limits themselves are under test
  lim.max_items = 400000;
  lim.max_output = 400000;
  (void)unpickle(in, "fuzz", lim);
  auto doc = decode_pickle(in, "fuzz", lim);
  if (!doc) return 0;
  auto d = parse_fr_doc(*doc, "fuzz", 0, "pickle", size % 2 == 0, lim.max_output);
  if (!d) return 0;
  FrDump dump;
  dump.source = "fuzz";
  dump.ranks.push_back(*d);
  dump.ranks.push_back(*d);  // two ranks so alignment and mismatch checks run
  dump.ranks[1].rank = 1;
  auto a = analyze_fr(dump);
  (void)ncdx::report::format_fr_summary(a);
  (void)to_json(a).dump();
  (void)to_json(dump).dump();
  return 0;
}
