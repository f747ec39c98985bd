// timeline_json (timeline_render.h): the ncdx.timeline/1 document.
#include <cmath>

#include "core/json.h"
#include "report/summary_json.h"
#include "report/timeline_render.h"

namespace ncdx::report {
namespace {

using namespace ncdx::analyze::timeline;

core::Outcome outcome_of(const Straggler& s) { return s.significant ? core::Outcome::warn : core::Outcome::info; }
// A change in step or collective time is what fail-slow means: a warning whether it lasts or not.
constexpr core::Outcome kSlowdown = core::Outcome::warn;

double r3(double v) { return std::round(v * 1000.0) / 1000.0; }
nlohmann::json opt3(const std::optional<double>& v) { return v ? nlohmann::json(r3(*v)) : nlohmann::json(nullptr); }

}  // namespace

core::Tally timeline_tally(const TimelineResult& r) {
  core::Tally n = core::tally_of(r.stragglers, [](const Straggler& s) { return outcome_of(s); });
  for (std::size_t i = 0; i < r.slowdowns.size(); ++i) n.add(kSlowdown);
  return n;
}

nlohmann::json timeline_json(const TimelineResult& r, const nlohmann::json& context) {
  nlohmann::json j;
  j["schema"] = "ncdx.timeline/1";
  j["context"] = context;
  j["inputs"] = r.inputs;
  j["summary"] = summary_json(timeline_tally(r));
  j["totals"] = {{"ranks", r.ranks.size()},
                  {"span_us", r3(r.span_us)},
                  {"instances", r.instances},
                  {"events", r.events},
                  {"skipped_events", r.skipped},
                  {"bytes_read", r.bytes_read},
                  {"headline", timeline_headline(r)}};
  nlohmann::json ranks = nlohmann::json::array(), overlap = nlohmann::json::array();
  for (const auto& s : r.ranks) {
    nlohmann::json reasons = nlohmann::json::object();
    for (const auto& [k, v] : s.skip_reasons) reasons[k] = v;
    ranks.push_back({{"rank", s.rank},
                     {"file", s.file},
                     {"format", s.format},
                     {"rank_from", s.rank_from},
                     {"comm_source", s.comm_source},
                     {"gpu", s.gpu},
                     {"comm_ops", s.comm_ops},
                     {"steps", s.steps},
                     {"span_us", r3(s.span_us)},
                     {"comm_us", r3(s.comm_us)},
                     {"compute_us", r3(s.compute_us)},
                     {"memory_us", r3(s.memory_us)},
                     {"idle_us", r3(s.idle_us)},
                     {"clock_offset_us", r3(s.clock_offset_us)},
                     {"events", s.events},
                     {"skipped_events", s.skipped},
                     {"skip_reasons", reasons}});
    overlap.push_back({{"rank", s.rank},
                       {"comm_us", r3(s.comm_us)},
                       {"compute_us", r3(s.compute_us)},
                       {"overlap_us", r3(s.overlap_us)},
                       {"overlap_pct", opt3(s.overlap_pct)},
                       {"idle_pct", opt3(s.idle_pct)},
                       {"compute_pct", opt3(s.compute_pct)},
                       {"non_compute_pct", opt3(s.non_compute_pct)},
                       {"comm_pct", opt3(s.comm_pct)}});
  }
  j["ranks"] = ranks;
  j["overlap"] = overlap;
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& row : r.heat.comm_frac) {
    nlohmann::json a = nlohmann::json::array();
    for (float v : row) a.push_back(r3(v));
    rows.push_back(a);
  }
  j["heatmap"] = {{"t0_us", r3(r.heat.t0_us)},
                  {"bucket_us", r3(r.heat.bucket_us)},
                  {"unit", "fraction of the bucket spent in collectives"},
                  {"ranks", r.heat.ranks},
                  {"rows", rows}};
  j["stragglers"] = nlohmann::json::array();
  for (const auto& s : r.stragglers)
    j["stragglers"].push_back({{"rank", s.rank},
                               {"late_count", s.late_count},
                               {"instances", s.instances},
                               {"mean_delay_us", r3(s.mean_delay_us)},
                               {"wait_caused_us", r3(s.wait_caused_us)},
                               {"significant", s.significant},
                               {"status", core::to_string(outcome_of(s))}});
  j["slowdowns"] = nlohmann::json::array();
  for (const auto& s : r.slowdowns) {
    j["slowdowns"].push_back({{"rank", s.rank >= 0 ? nlohmann::json(s.rank) : nlohmann::json(nullptr)},
                              {"from_step", s.from_step},
                              {"to_step", s.to_step ? nlohmann::json(*s.to_step) : nlohmann::json(nullptr)},
                              {"factor", r3(s.factor)},
                              {"side", s.side},
                              {"series", s.series},
                              {"axis", s.axis},
                              {"before_us", r3(s.before_us)},
                              {"after_us", r3(s.after_us)},
                              {"lasting", s.lasting},
                              {"status", core::to_string(kSlowdown)}});
    if (s.side == "link") j["slowdowns"].back()["peer"] = s.peer;
  }
  j["windows"] = nlohmann::json::array();
  for (const auto& w : r.windows)
    j["windows"].push_back({{"start_us", r3(w.start_us)},
                            {"end_us", r3(w.end_us)},
                            {"reason", w.reason},
                            {"kind", w.kind},
                            {"rank", w.rank >= 0 ? nlohmann::json(w.rank) : nlohmann::json(nullptr)}});
  j["collectives"] = nlohmann::json::array();
  for (const auto& c : r.collectives)
    j["collectives"].push_back({{"name", c.name},
                                {"size_bucket", c.size_bucket},
                                {"ops", c.ops},
                                {"instances", c.instances},
                                {"total_us", r3(c.total_us)},
                                {"mean_us", r3(c.mean_us)},
                                {"max_us", r3(c.max_us)},
                                {"bytes_per_op", opt3(c.bytes_per_op)},
                                {"source", c.source},
                                {"file", c.file.empty() ? nlohmann::json(nullptr) : nlohmann::json(c.file)},
                                {"group_size", c.group_size ? nlohmann::json(*c.group_size) : nlohmann::json(nullptr)},
                                {"busbw_instances", c.busbw_instances},
                                {"transfer_us", opt3(c.transfer_us)},
                                {"busbw_gbps", opt3(c.busbw_gbps)},
                                {"expected_busbw_gbps", opt3(c.expected_busbw_gbps)},
                                {"pct_of_expected", opt3(c.pct_of_expected)}});
  j["expectation"] = r.expectation.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.expectation);
  j["notes"] = r.notes;
  return j;
}

}  // namespace ncdx::report
