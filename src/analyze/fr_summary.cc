// Printable and JSON forms of an FR analysis (the report layer renders Findings itself).
#include <map>

#include "analyze/fr_analyze.h"
#include "core/json.h"
#include "core/table.h"

namespace ncdx::analyze {
namespace {

using nlohmann::json;

// "17 (0,1,3) · 16 (2)": ranks grouped by value, most common first.
std::string by_value(const FrPgSummary& g, bool completed) {
  std::map<std::string, std::vector<int>> m;
  for (const auto& r : g.ranks) {
    if (!r.has_dump) continue;
    auto v = completed ? r.last_completed : r.last_enqueued;
    m[v ? std::to_string(*v) : "?"].push_back(r.rank);
  }
  std::vector<std::pair<std::string, std::vector<int>>> v(m.begin(), m.end());
  std::stable_sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.second.size() > b.second.size(); });
  std::string out;
  for (const auto& [val, ranks] : v) {
    if (!out.empty()) out += " · ";
    out += val + " (" + format_rank_list(ranks) + ")";
  }
  return out.empty() ? "-" : out;
}

}  // namespace

std::string format_fr_summary(const FrAnalysis& a, bool color) {
  core::Table t({"group", "members", "dumps", "last completed seq (ranks)", "last enqueued seq (ranks)",
                 "first unfinished", "status"});
  for (const auto& g : a.groups) {
    std::size_t dumps = 0;
    for (const auto& r : g.ranks) dumps += r.has_dump;
    std::string first = g.first_unfinished_seq
                            ? std::to_string(*g.first_unfinished_seq) + " " + g.first_unfinished_op.value_or("")
                            : "-";
    bool ok = g.status.rfind("ok", 0) == 0;
    t.add({g.desc ? g.name + ":" + *g.desc : g.name, format_rank_list(g.members),
           std::to_string(dumps) + "/" + std::to_string(g.members.size()), by_value(g, true), by_value(g, false),
           first, core::Cell(g.status, ok ? core::Color::green : core::Color::red)});
  }
  std::string out = "Flight Recorder: " + std::to_string(a.dump_count) + " dump(s)";
  if (!a.ranks_with_dump.empty()) out += " (ranks " + format_rank_list(a.ranks_with_dump) + ")";
  if (!a.ranks_without_dump.empty()) out += ", none for rank(s) " + format_rank_list(a.ranks_without_dump);
  out += "\n" + t.render(color, 60);
  return out;
}

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
