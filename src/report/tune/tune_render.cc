#include "report/tune/tune_render.h"

#include <cstdio>
#include <sstream>

#include "core/strings.h"
#include "core/table.h"

namespace ncdx::report {

namespace {
std::string num(double v, const char* f = "%.1f") {
  char b[64];
  std::snprintf(b, sizeof b, f, v);
  return b;
}
// The search's trials as a share of what the exhaustive search measures (issue #15: <= 25 %).
double share(const model::tune::CollReport& c) {
  return c.exhaustive_trials ? static_cast<double>(c.trials) / static_cast<double>(c.exhaustive_trials) : 0;
}
}  // namespace

std::string render_tune_text(const model::tune::MpiTuneReport& r) {
  std::ostringstream o;
  o << "ncdx tune --backend mpi: Open MPI coll_tuned, " << r.np << " ranks, fabric: " << r.fabric << "\n";
  o << "rules file: " << r.rules_path << "\n\n";
  bool same = false;
  for (const auto& c : r.colls) {
    o << measure::name_of(c.coll) << ": " << c.trials << " trials in " << c.launches << " jobs, "
      << num(100.0 * share(c), "%.1f") << " % of the exhaustive search's " << c.exhaustive_trials << " (" << c.configurations
      << " configurations x " << c.sizes << " sizes x " << c.repeats << ")";
    if (r.exhaustive) o << ", which ran in " << c.exhaustive_launches << " jobs";
    o << "\n";
    if (c.budget > 0)
      o << "budget: " << c.budget << " trials" << (c.skipped ? ", reached: " + std::to_string(c.skipped) + " jobs skipped, their buckets keep the default" : "")
        << "\n";
    std::vector<std::string> head{"SIZE", "CHOICE", "DEFAULT us", "TUNED us", "GAIN"};
    if (r.exhaustive) {
      head.push_back("EXHAUSTIVE BEST");
      head.push_back("EXH us");
      head.push_back("% OF EXH");
    }
    core::Table t(head);
    for (const auto& b : c.buckets) {
      std::vector<core::Cell> row{core::human_bytes(static_cast<double>(b.bytes)), b.chosen, num(b.default_us), num(b.tuned_us),
                                  num(b.gain_vs_default, "%.3fx")};
      if (r.exhaustive) {
        row.emplace_back(b.exhaustive_best);
        row.emplace_back(num(b.exhaustive_us));
        row.emplace_back(num(b.pct_of_exhaustive, "%.1f") + (b.same_as_exhaustive ? " (same)" : ""));
        same |= b.same_as_exhaustive;
      }
      t.add(row);
    }
    o << t.render(false, 100) << "\n";
  }
  o << "Choices differ from the default only where the gain beat the measured noise of the search; the\n"
       "times above come from a separate validation in which default, tuned and exhaustive rules ran interleaved.\n";
  if (same)
    o << "(same): the tuned and the exhaustive rule are the same configuration there, so their % is the\n"
         "validation's own noise, not a loss.\n";
  return o.str();
}

nlohmann::json tune_json(const model::tune::MpiTuneReport& r, const nlohmann::json& context) {
  nlohmann::json j = {{"schema", "ncdx.tune/1"}, {"context", context}, {"backend", "mpi"}, {"np", r.np},
                      {"fabric", r.fabric}, {"rules_path", r.rules_path}, {"rules", r.rules_text},
                      {"exhaustive", r.exhaustive}};
  nlohmann::json colls = nlohmann::json::array();
  for (const auto& c : r.colls) {
    nlohmann::json b = nlohmann::json::array();
    for (const auto& x : c.buckets)
      b.push_back({{"bytes", x.bytes}, {"choice", x.chosen}, {"changed", x.changed}, {"search_noise_us", x.search_noise_us},
                   {"default_us", x.default_us}, {"tuned_us", x.tuned_us}, {"gain_vs_default", x.gain_vs_default},
                   {"exhaustive_best", r.exhaustive ? nlohmann::json(x.exhaustive_best) : nlohmann::json(nullptr)},
                   {"exhaustive_us", r.exhaustive ? nlohmann::json(x.exhaustive_us) : nlohmann::json(nullptr)},
                   {"pct_of_exhaustive", r.exhaustive ? nlohmann::json(x.pct_of_exhaustive) : nlohmann::json(nullptr)},
                   {"same_as_exhaustive", r.exhaustive ? nlohmann::json(x.same_as_exhaustive) : nlohmann::json(nullptr)}});
    colls.push_back({{"collective", std::string(measure::name_of(c.coll))}, {"trials", c.trials}, {"launches", c.launches},
                     {"exhaustive_trials", c.exhaustive_trials}, {"trial_share", share(c)},
                     {"exhaustive_definition", {{"configurations", c.configurations}, {"sizes", c.sizes}, {"repeats", c.repeats}}},
                     {"trial_budget", c.budget}, {"budget_skipped_launches", c.skipped},
                     {"buckets", b}});
  }
  j["collectives"] = colls;
  return j;
}

}  // namespace ncdx::report
