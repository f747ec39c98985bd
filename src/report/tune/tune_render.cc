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

// The per-collective tables and the closing notes, shared by both backends.
std::string render_colls(const std::vector<model::tune::CollReport>& colls, bool exhaustive, const char* job) {
  std::ostringstream o;
  bool same = false;
  for (const auto& c : colls) {
    o << measure::name_of(c.coll) << ": " << c.trials << " trials in " << c.launches << " " << job << ", "
      << num(100.0 * share(c), "%.1f") << " % of the exhaustive search's " << c.exhaustive_trials << " (" << c.configurations
      << " configurations x " << c.sizes << " sizes x " << c.repeats << ")";
    if (exhaustive) o << ", which ran in " << c.exhaustive_launches << " " << job;
    o << "\n";
    if (c.budget > 0)
      o << "budget: " << c.budget << " trials" << (c.skipped ? ", reached: " + std::to_string(c.skipped) + " " + job + " skipped, their buckets keep the default" : "")
        << "\n";
    std::vector<std::string> head{"SIZE", "CHOICE", "DEFAULT us", "TUNED us", "GAIN"};
    if (exhaustive) {
      head.push_back("EXHAUSTIVE BEST");
      head.push_back("EXH us");
      head.push_back("% OF EXH");
    }
    core::Table t(head);
    for (const auto& b : c.buckets) {
      std::vector<core::Cell> row{core::human_bytes(static_cast<double>(b.bytes)), b.chosen, num(b.default_us), num(b.tuned_us),
                                  num(b.gain_vs_default, "%.3fx")};
      if (exhaustive) {
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

nlohmann::json colls_json(const std::vector<model::tune::CollReport>& colls, bool exhaustive) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& c : colls) {
    nlohmann::json b = nlohmann::json::array();
    for (const auto& x : c.buckets)
      b.push_back({{"bytes", x.bytes}, {"choice", x.chosen}, {"changed", x.changed}, {"search_noise_us", x.search_noise_us},
                   {"default_us", x.default_us}, {"tuned_us", x.tuned_us}, {"gain_vs_default", x.gain_vs_default},
                   {"exhaustive_best", exhaustive ? nlohmann::json(x.exhaustive_best) : nlohmann::json(nullptr)},
                   {"exhaustive_us", exhaustive ? nlohmann::json(x.exhaustive_us) : nlohmann::json(nullptr)},
                   {"pct_of_exhaustive", exhaustive ? nlohmann::json(x.pct_of_exhaustive) : nlohmann::json(nullptr)},
                   {"same_as_exhaustive", exhaustive ? nlohmann::json(x.same_as_exhaustive) : nlohmann::json(nullptr)}});
    out.push_back({{"collective", std::string(measure::name_of(c.coll))}, {"trials", c.trials}, {"launches", c.launches},
                   {"exhaustive_trials", c.exhaustive_trials}, {"exhaustive_launches", c.exhaustive_launches}, {"trial_share", share(c)},
                   {"exhaustive_definition", {{"configurations", c.configurations}, {"sizes", c.sizes}, {"repeats", c.repeats}}},
                   {"trial_budget", c.budget}, {"budget_skipped_launches", c.skipped},
                   {"buckets", b}});
  }
  return out;
}

}  // namespace

std::string render_tune_text(const model::tune::MpiTuneReport& r) {
  std::ostringstream o;
  o << "ncdx tune --backend mpi: " << (r.library.empty() ? std::string("Open MPI") : r.library) << " coll_tuned, " << r.np
    << " ranks, fabric: " << r.fabric << "\n";
  o << "rules file: " << r.rules_path << "\n\n";
  o << render_colls(r.colls, r.exhaustive, "jobs");
  return o.str();
}

std::string render_nccl_tune_text(const model::tune::NcclTuneReport& r) {
  std::ostringstream o;
  o << "ncdx tune --backend nccl: " << r.library << ", " << r.nodes << " node(s), " << r.nranks << " ranks"
    << (r.np > 0 ? ", mpirun -np " + std::to_string(r.np) : std::string(", one process")) << "\n";
  o << "tuner CSV: " << r.csv_path << " (validated through " << r.plugin << ")\n";
  o << "env file: " << (r.env_path.empty() ? "none: " + r.env_note : r.env_path) << "\n";
  o << "probe launches (which pairs NCCL runs here, not trials): " << r.probe_launches << "\n";
  for (const auto& u : r.unavailable) o << "  unavailable: " << u << "\n";
  if (r.nodes == 1 && r.nranks == 1) o << "one GPU: NCCL's collectives are local copies here, nothing crosses a link.\n";
  o << "\n" << render_colls(r.colls, r.exhaustive, "launches");
  return o.str();
}

nlohmann::json tune_json(const model::tune::MpiTuneReport& r, const nlohmann::json& context) {
  nlohmann::json j = {{"schema", "ncdx.tune/1"}, {"context", context}, {"backend", "mpi"}, {"np", r.np},
                      {"fabric", r.fabric}, {"rules_path", r.rules_path}, {"rules", r.rules_text},
                      {"exhaustive", r.exhaustive},
                      {"library", r.library.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.library)}};
  j["collectives"] = colls_json(r.colls, r.exhaustive);
  return j;
}

nlohmann::json nccl_tune_json(const model::tune::NcclTuneReport& r, const nlohmann::json& context) {
  nlohmann::json j = {{"schema", "ncdx.tune/1"}, {"context", context}, {"backend", "nccl"}, {"np", r.np},
                      {"library", r.library}, {"nnodes", r.nodes}, {"nranks", r.nranks},
                      {"rules_path", r.csv_path}, {"rules", r.csv_text}, {"plugin", r.plugin},
                      {"env_path", r.env_path.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.env_path)},
                      {"env", r.env_path.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.env_text)},
                      {"env_note", r.env_note}, {"unavailable", r.unavailable}, {"probe_launches", r.probe_launches},
                      {"exhaustive", r.exhaustive}};
  j["collectives"] = colls_json(r.colls, r.exhaustive);
  return j;
}

}  // namespace ncdx::report
