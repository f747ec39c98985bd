// The JSON form of an FR analysis ("flight_recorder" in triage's report; fr_dump_json's output).
#include "analyze/fr/analyze.h"
#include "core/json.h"

namespace ncdx::analyze {

using nlohmann::json;

json to_json(const FrAnalysis& a) {
  using core::opt_json;
  json groups = json::array(), findings = json::array();
  for (const auto& g : a.groups) {
    json ranks = json::array();
    for (const auto& r : g.ranks)
      ranks.push_back({{"rank", r.rank}, {"has_dump", r.has_dump}, {"last_enqueued", opt_json(r.last_enqueued)},
                       {"last_completed", opt_json(r.last_completed)},
                       {"first_seq_in_buffer", opt_json(r.first_seq_in_buffer)}, {"last_op", opt_json(r.last_op)},
                       {"last_state", opt_json(r.last_state)}});
    groups.push_back({{"name", g.name}, {"desc", opt_json(g.desc)}, {"members", g.members},
                      {"members_from_config", g.members_from_config}, {"ranks", ranks},
                      {"first_unfinished_seq", opt_json(g.first_unfinished_seq)},
                      {"first_unfinished_op", opt_json(g.first_unfinished_op)}, {"status", g.status}});
  }
  for (const auto& f : a.findings) findings.push_back(core::to_json(f));
  return {{"groups", groups}, {"findings", findings}, {"ranks_with_dump", a.ranks_with_dump},
          {"ranks_without_dump", a.ranks_without_dump}, {"notes", a.notes}};
}

}  // namespace ncdx::analyze
