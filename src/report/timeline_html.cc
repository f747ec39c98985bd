// render_timeline_section / render_timeline_html (timeline_render.h). All text escaped; the only
// script is inline: zoom buttons that scale the SVG and a read-out of the cell under the pointer.
#include <cstdio>

#include "report/html.h"
#include "report/timeline_render.h"

namespace ncdx::report {
namespace {

using namespace ncdx::analyze::timeline;

std::string f1(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.1f", v);
  return b;
}
std::string fo(const std::optional<double>& v) { return v ? f1(*v) : "-"; }
// A slowdown factor as the text report and the summary line print it ("15.42x").
std::string f2(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.2f", v);
  return b;
}

const char* kScript = R"(<script>
(function(){
  var root=document.currentScript.parentNode, svg=root.querySelector('svg.ncdx-timeline'), out=root.querySelector('.tl-readout');
  if(!svg) return; var w0=svg.getAttribute('width')*1, h0=svg.getAttribute('height')*1, z=1;
  function zoom(f){ z=Math.max(0.25,Math.min(16,z*f)); svg.setAttribute('width',w0*z); svg.setAttribute('height',h0*z); }
  root.querySelector('.tl-in').onclick=function(){zoom(1.5)}; root.querySelector('.tl-out').onclick=function(){zoom(1/1.5)};
  svg.addEventListener('mousemove',function(e){ var t=e.target; if(t.tagName==='rect'&&t.firstChild){ out.textContent=t.firstChild.textContent; } });
})();
</script>)";

}  // namespace

std::string render_timeline_section(const TimelineResult& r) {
  std::string o = "<section class=\"ncdx-timeline\">\n<h2>Timeline</h2>\n";
  bool alarm = !r.slowdowns.empty() || (!r.stragglers.empty() && r.stragglers[0].significant);
  o += std::string("<p class=\"") + (alarm ? "WARN" : "PASS") + "\">" + html_escape(timeline_headline(r)) + "</p>\n";
  o += "<p>" + std::to_string(r.ranks.size()) + " rank(s), " + std::to_string(r.instances) + " collectives matched, span " +
       f1(r.span_us / 1000.0) + " ms</p>\n";
  o += "<div><button class=\"tl-in\">zoom +</button> <button class=\"tl-out\">zoom -</button> <span class=\"tl-readout\"></span></div>\n";
  o += "<div style=\"overflow:auto\">" + render_timeline_svg(r) + "</div>\n";
  o += kScript;
  o += "\n<h3>Stragglers</h3>\n<table><tr><th>rank</th><th>late / matched</th><th>mean delay (ms)</th><th>others waited (ms)</th><th>verdict</th></tr>\n";
  for (const auto& s : r.stragglers)
    o += "<tr><td>" + std::to_string(s.rank) + "</td><td>" + std::to_string(s.late_count) + " / " + std::to_string(s.instances) +
         "</td><td>" + f1(s.mean_delay_us / 1000) + "</td><td>" + f1(s.wait_caused_us / 1000) + "</td><td class=\"" +
         (s.significant ? "WARN\">straggler" : "PASS\">chance") + "</td></tr>\n";
  o += "</table>\n<h3>Slowdowns (fail-slow)</h3>\n";
  if (r.slowdowns.empty()) o += "<p class=\"PASS\">none of 10 % or more</p>\n";
  else {
    o += "<table><tr><th>rank</th><th>side</th><th>from</th><th>factor</th><th>before (ms)</th><th>after (ms)</th><th>lasting</th></tr>\n";
    for (const auto& s : r.slowdowns)
      o += "<tr class=\"WARN\"><td>" + (s.side == "link" ? std::to_string(s.rank) + "-" + std::to_string(s.peer) : s.rank >= 0 ? std::to_string(s.rank) : std::string("all")) + "</td><td>" + html_escape(s.side) +
           "</td><td>" + html_escape(s.axis) + " " + std::to_string(s.from_step) + "</td><td>" + f2(s.factor) + "x</td><td>" +
           f1(s.before_us / 1000) + "</td><td>" + f1(s.after_us / 1000) + "</td><td>" +
           (s.lasting ? std::string("yes") : "no, back at " + std::to_string(s.to_step.value_or(0))) + "</td></tr>\n";
    o += "</table>\n";
  }
  o += "<h3>Bottleneck windows</h3>\n<table><tr><th>from (ms)</th><th>to (ms)</th><th>why</th></tr>\n";
  for (const auto& w : r.windows)
    o += "<tr><td>" + f1(w.start_us / 1000) + "</td><td>" + f1(w.end_us / 1000) + "</td><td>" + html_escape(w.reason) + "</td></tr>\n";
  o += "</table>\n<h3>Overlap and idle per rank (% of active span)</h3>\n"
       "<table><tr><th>rank</th><th>source</th><th>comm</th><th>compute</th><th>idle</th><th>other</th><th>comm hidden under compute</th><th>skipped events</th></tr>\n";
  for (const auto& s : r.ranks)
    o += "<tr><td>" + std::to_string(s.rank) + "</td><td>" + html_escape(s.comm_source) + "</td><td>" + fo(s.comm_pct) + "</td><td>" +
         fo(s.compute_pct) + "</td><td>" + fo(s.idle_pct) + "</td><td>" + fo(s.non_compute_pct) + "</td><td>" + fo(s.overlap_pct) +
         "</td><td>" + std::to_string(s.skipped) + "</td></tr>\n";
  o += "</table>\n<h3>Top collectives</h3>\n<p>busbw: nccl-tests' definition (size / time x the collective's factor); expected: " +
       html_escape(r.expectation.empty() ? std::string("no --spec: expectation not computed") : r.expectation) + "</p>\n"
       "<table><tr><th>collective</th><th>size</th><th>ops</th><th>total (ms)</th><th>mean (ms)</th><th>max (ms)</th>"
       "<th>busbw (GB/s)</th><th>expected (GB/s)</th><th>% of expected</th></tr>\n";
  for (const auto& c : r.collectives)
    o += "<tr><td>" + html_escape(c.name) + "</td><td>" +
         html_escape(c.source == "benchmark" && c.bytes_per_op ? std::to_string(static_cast<unsigned long long>(*c.bytes_per_op)) + " B" : c.size_bucket) +
         "</td><td>" + std::to_string(c.ops) + "</td><td>" + f1(c.total_us / 1000) + "</td><td>" + f1(c.mean_us / 1000) + "</td><td>" +
         f1(c.max_us / 1000) + "</td><td>" + fo(c.busbw_gbps) + "</td><td>" + fo(c.expected_busbw_gbps) + "</td><td>" + fo(c.pct_of_expected) +
         "</td></tr>\n";
  o += "</table>\n";
  for (const auto& n : r.notes) o += "<p>note: " + html_escape(n) + "</p>\n";
  o += "</section>\n";
  return o;
}

std::string render_timeline_html(const TimelineResult& r) { return html_page("ncdx timeline", render_timeline_section(r)); }

}  // namespace ncdx::report
