#include "analyze/fr/align.h"

#include <algorithm>
#include <set>

#include "core/strings.h"

namespace ncdx::analyze::fr_detail {
namespace {

std::optional<long long> max_opt(std::optional<long long> a, std::optional<long long> b) {
  if (!a) return b;
  if (!b) return a;
  return std::max(*a, *b);
}

// pg_status is keyed by pg_id; entries carry both pg_id and the group name.
const FrPgStatus* status_for(const FrRankDump& d, const std::string& name, std::optional<long long> pg_id) {
  std::string key;
  if (pg_id) {
    key = std::to_string(*pg_id);
  } else {
    // No entry of this group survived in the buffer: trust "pg_id == name" only when every other
    // entry of this rank follows that rule (the default naming, groups "0", "1", …).
    auto n = core::parse_int(name);
    if (!n) return nullptr;
    for (const auto& e : d.entries)
      if (!e.pg_id || !e.pg_name || std::to_string(*e.pg_id) != *e.pg_name) return nullptr;
    key = name;
  }
  for (const auto& s : d.pg_status)
    if (s.pg_id == key) return &s;
  return nullptr;
}

}  // namespace

bool is_p2p(const FrEntry& e) {
  if (e.is_p2p) return *e.is_p2p;
  std::string op = e.op();
  return op == "send" || op == "recv";
}

std::optional<long long> RankView::entered_upto() const { return max_opt(status_enqueued, max_seq); }
std::optional<long long> RankView::completed_upto() const { return max_opt(status_completed, max_completed); }

std::vector<PgView> align_groups(const FrDump& dump, std::vector<std::string>& notes) {
  std::map<std::string, PgView> groups;
  std::map<std::string, std::set<int>> mentioned;  // ranks whose dump names the group
  for (const auto& d : dump.ranks) {
    for (const auto& c : d.pg_config) {
      PgView& g = groups[c.key];
      g.name = c.key;
      if (!g.desc && c.desc) g.desc = c.desc;
      if (c.ranks) {
        if (!g.members_from_config) {
          g.members = *c.ranks;
          g.members_from_config = true;
        } else if (g.members != *c.ranks) {
          notes.push_back("process group " + c.key + ": ranks differ between dumps (" + d.file + ")");
        }
      }
      if (d.rank) mentioned[c.key].insert(*d.rank);
    }
    for (const auto& e : d.entries) {
      if (!e.pg_name) continue;
      PgView& g = groups[*e.pg_name];
      g.name = *e.pg_name;
      if (!g.desc && e.pg_desc) g.desc = e.pg_desc;
      if (d.rank) mentioned[*e.pg_name].insert(*d.rank);
    }
  }
  std::vector<PgView> out;
  for (auto& [name, g] : groups) {
    if (!g.members_from_config) g.members.assign(mentioned[name].begin(), mentioned[name].end());
    else g.group_ranks = g.members;
    std::sort(g.members.begin(), g.members.end());
    g.members.erase(std::unique(g.members.begin(), g.members.end()), g.members.end());
    for (int r : g.members) {
      RankView v;
      v.rank = r;
      for (const auto& d : dump.ranks)
        if (d.rank == r) {
          v.dump = &d;
          break;
        }
      if (v.dump) {
        std::optional<long long> pg_id;
        for (const auto& e : v.dump->entries) {
          if (!e.pg_name || *e.pg_name != name) continue;
          if (!pg_id) pg_id = e.pg_id;
          if (!v.newest || e.record_id.value_or(-1) > v.newest->record_id.value_or(-1) ||
              (e.record_id == v.newest->record_id && e.index > v.newest->index))
            v.newest = &e;
          if (is_p2p(e)) {
            v.p2p.push_back(&e);
            continue;
          }
          if (!e.collective_seq_id) continue;
          long long s = *e.collective_seq_id;
          v.by_seq[s].push_back(&e);
          v.max_seq = max_opt(v.max_seq, s);
          if (e.completed()) v.max_completed = max_opt(v.max_completed, s);
        }
        for (auto& [s, es] : v.by_seq)
          std::sort(es.begin(), es.end(), [](const FrEntry* a, const FrEntry* b) {
            return a->record_id.value_or(-1) != b->record_id.value_or(-1)
                       ? a->record_id.value_or(-1) < b->record_id.value_or(-1)
                       : a->index < b->index;
          });
        if (const FrPgStatus* st = status_for(*v.dump, name, pg_id)) {
          if (st->last_enqueued && *st->last_enqueued >= 0) v.status_enqueued = st->last_enqueued;
          if (st->last_completed && *st->last_completed >= 0) v.status_completed = st->last_completed;
        }
      }
      g.ranks.push_back(std::move(v));
    }
    out.push_back(std::move(g));
  }
  std::stable_sort(out.begin(), out.end(), [](const PgView& a, const PgView& b) {
    auto x = core::parse_int(a.name), y = core::parse_int(b.name);
    if (x && y) return *x < *y;
    if (x.has_value() != y.has_value()) return x.has_value();
    return a.name < b.name;
  });
  return out;
}

}  // namespace ncdx::analyze::fr_detail
