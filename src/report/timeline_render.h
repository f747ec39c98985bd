#pragma once
// Renderers of `ncdx timeline` results: JSON (ncdx.timeline/1, docs/schema/timeline.schema.json),
// terminal text (Unicode heatmap), standalone SVG and one self-contained HTML page. The HTML
// body section and the SVG are separate functions so `ncdx report` can embed them.
#include <string>

#include <nlohmann/json.hpp>

#include "analyze/timeline/result.h"
#include "core/outcome.h"

namespace ncdx::report {

// What the timeline judged: a significant straggler or a slowdown is a WARN, a rank that was
// late but within chance an INFO. The JSON summary and the exit code both come from it.
core::Tally timeline_tally(const analyze::timeline::TimelineResult& r);
nlohmann::json timeline_json(const analyze::timeline::TimelineResult& r, const nlohmann::json& context);
// Also accepts a saved timeline JSON (what `ncdx report` reads back): same text either way.
std::string render_timeline_text(const analyze::timeline::TimelineResult& r, bool color);
// The heatmap (rank × time, absolute 0–100 % scale, legend, axis in ms, straggler windows marked,
// a <title> per cell for hover values).
std::string render_timeline_svg(const analyze::timeline::TimelineResult& r);
// A <section> with the verdict, the SVG and the tables (escaped), plus a little plain JS for zoom
// and a hover read-out; no external assets.
std::string render_timeline_section(const analyze::timeline::TimelineResult& r);
std::string render_timeline_html(const analyze::timeline::TimelineResult& r);
// Who a slowdown is about: "rank 3", "all ranks", "link 3-4" (side "link").
std::string slowdown_subject(const analyze::timeline::Slowdown& s);
// One line: the straggler, the slowdowns, or "no straggler, no slowdown".
std::string timeline_headline(const analyze::timeline::TimelineResult& r);

}  // namespace ncdx::report
