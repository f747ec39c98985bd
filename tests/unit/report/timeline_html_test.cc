// The timeline page as a user reads it (report/timeline_html.cc, timeline_svg.cc): factors as the
// text report prints them, a heatmap whose axis and legend are not cut off, input text escaped.
#include <gtest/gtest.h>

#include <regex>

#include "report/timeline_render.h"

namespace ncdx::report {
namespace {

using namespace ncdx::analyze::timeline;

TimelineResult small_run() {
  TimelineResult r;
  r.heat.bucket_us = 50000;
  r.heat.ranks = {0, 1};
  r.heat.comm_frac = {{0.1f, 0.9f, 0.5f}, {0.2f, 0.0f, 1.0f}};
  r.span_us = 150000;
  Slowdown s;
  s.rank = 1;
  s.from_step = 6;
  s.factor = 15.4216;
  s.side = "compute";
  s.axis = "step";
  s.before_us = 10000;
  s.after_us = 154200;
  r.slowdowns.push_back(s);
  r.windows.push_back(Window{50000, 100000, "rank 1 <script>alert(1)</script>", "straggler", 1});
  return r;
}

TEST(TimelineHtml, SlowdownFactorReadsLikeTheTextReport) {
  const std::string page = render_timeline_html(small_run());
  EXPECT_NE(page.find(">15.42x<"), std::string::npos);
  EXPECT_EQ(page.find("1542.2 %"), std::string::npos);
}

// Chromium cut the legend sentence and the last axis label when the SVG was only as wide as a few
// columns: the canvas now holds both.
TEST(TimelineHtml, SvgIsWideEnoughForItsLegendAndAxis) {
  const std::string svg = render_timeline_svg(small_run());
  std::smatch m;
  ASSERT_TRUE(std::regex_search(svg, m, std::regex("width=\"([0-9.]+)\"")));
  const double width = std::stod(m[1]);
  ASSERT_TRUE(std::regex_search(svg, m, std::regex("<text x=\"([0-9.]+)\"[^>]*>100 % of the bucket in collectives; blue outline: a rank others waited for</text>")));
  const double legend_x = std::stod(m[1]);
  // ~6 px per character at font-size 11 for the 71-character sentence.
  EXPECT_GE(width, legend_x + 71 * 6);
}

TEST(TimelineHtml, InputTextIsEscaped) {
  const std::string page = render_timeline_html(small_run());
  EXPECT_EQ(page.find("<script>alert(1)"), std::string::npos);
  EXPECT_NE(page.find("&lt;script&gt;alert(1)"), std::string::npos);
}

}  // namespace
}  // namespace ncdx::report
