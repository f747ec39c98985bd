// libFuzzer target: every `ncdx timeline` reader (Chrome/Kineto/Ray traces, NCCL Inspector lines,
// step logs: read_timeline_input picks by content) then the analysis and every renderer. Bad input
// must come back as bad_input, never a crash, hang or unbounded memory.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "analyze/timeline/inputs.h"
#include "analyze/timeline/json_pull.h"
#include "analyze/timeline/result.h"
#include "core/json.h"
#include "report/timeline_render.h"

using namespace ncdx::analyze::timeline;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > (1u << 20)) return 0;
  std::string_view in(reinterpret_cast<const char*>(data), size);
  TraceSet set;
  // Two copies as two ranks, so matching and alignment run too.
  for (const char* name : {"rank0.json", "rank1.json"}) {
    MemorySource src(in);
    auto st = read_timeline_input(src, name, set);
    if (!st.is_ok() && st.code() != ncdx::core::Exit::bad_input) std::abort();
    if (!st.is_ok()) return 0;
  }
  TimelineOptions o;
  auto r = analyze_timeline(set, o);
  // As the CLI writes it (core::dump_json: invalid UTF-8 from the trace replaced, never a throw).
  // A plain dump() threw type_error 316 on a name with invalid UTF-8 after 78 625 runs of the
  // 300 s run (fuzz/corpus/timeline_trace_fuzz/regress_invalid_utf8_name.json).
  (void)ncdx::core::dump_json(ncdx::report::timeline_json(r, nlohmann::json::object()));
  (void)ncdx::report::render_timeline_text(r, true);
  (void)ncdx::report::render_timeline_html(r);
  return 0;
}
