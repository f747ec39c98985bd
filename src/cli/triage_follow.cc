#include "cli/triage_follow.h"

#include <atomic>
#include <iostream>
#include <map>
#include <set>

#include "analyze/logs/log_line.h"
#include "analyze/logs/tail.h"
#include "analyze/triage/scan.h"
#include "core/json.h"
#include "core/term.h"
#include "report/context.h"
#include "report/triage_render.h"
#include "report/sanitize.h"

namespace ncdx::cli {

int run_triage_follow(const std::vector<std::string>& paths, double idle_seconds,
                      const knowledge::SignatureSet& sigs, const analyze::CorrelateOptions& copts,
                      const GlobalOptions& g) {
  static std::atomic<bool> stop{false};
  analyze::stop_on_sigint(&stop);
  analyze::FollowOptions fo;
  fo.idle_seconds = idle_seconds;
  fo.stop = &stop;
  analyze::Scanner scanner(sigs);
  std::map<std::string, std::size_t> file_index;
  std::set<std::string> alerted;  // one alert per signature: later hits are counted, not printed
  std::vector<analyze::TriageEvent> fresh;
  bool color = core::color_enabled(stdout);

  analyze::Follower follower(paths, fo);
  follower.run([&](const analyze::FollowedLine& l) {
    auto it = file_index.find(l.path);
    if (it == file_index.end())
      it = file_index.emplace(l.path, scanner.add_file(l.path, analyze::hints_from_path(l.path))).first;
    fresh.clear();
    scanner.feed(it->second, l.line_number, l.text, &fresh);
    for (const auto& ev : fresh) {
      const auto& sig = sigs.all()[ev.sig];
      // Observations (a node without IB, a benign warning) go into the final report, not an alert.
      if (sig.severity < core::Severity::warn || !alerted.insert(sig.id).second) continue;
      core::Finding f;
      f.id = sig.id;
      f.klass = sig.klass;
      f.severity = sig.severity;
      f.title = sig.title;
      f.evidence.push_back({l.path, ev.line, ev.rank, ev.host, ev.time_text.empty() ? std::nullopt : std::optional(ev.time_text), ev.text});
      if (g.json) {
        auto j = core::to_json(f);
        j["type"] = "alert";
        std::cout << j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
      } else {
        std::cout << report::sanitize_text(report::render_alert_line(f, color), color);
      }
      std::cout.flush();
    }
  });
  for (const auto& p : follower.problems()) scanner.note_problem(p);
  auto result = analyze::correlate(scanner.finish(), sigs, copts);
  if (g.json) {
    auto j = report::triage_json(result, report::make_context({}, !g.no_timestamps));
    j["type"] = "verdict";
    std::cout << j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  } else {
    std::cout << "\n" << report::sanitize_text(report::render_triage_text(result, color), color);
  }
  if (result.verdict.klass == "none") return 0;
  return result.verdict.severity >= core::Severity::error ? 2 : 1;
}

}  // namespace ncdx::cli
