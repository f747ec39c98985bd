// The printable per-group table of a Flight Recorder analysis (`ncdx triage --fr`).
#include "report/fr_summary.h"

#include <map>

#include "core/table.h"

namespace ncdx::report {
using analyze::FrAnalysis;
using analyze::FrPgSummary;
using analyze::format_rank_list;

namespace {

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
  for (const auto& n : a.notes) out += "note: " + n + "\n";
  return out;
}

}  // namespace ncdx::report
