// The hang checks of the FR analysis: per process group, the first collective not completed by
// every rank, and who never joined it. Mismatch checks are in fr/mismatch.cc.
#include "analyze/fr/analyze.h"

#include <algorithm>
#include <map>
#include <set>

#include "analyze/fr/align.h"
#include "analyze/fr/describe.h"
#include "analyze/fr/mismatch.h"
#include "analyze/fr/p2p.h"
#include "core/ranges.h"
#include "knowledge/findings.h"

namespace ncdx::analyze {
namespace {

using namespace fr_detail;
using core::Evidence;
using core::Finding;

constexpr std::size_t kMaxEvidence = 8;

struct SeqState {
  std::vector<int> not_entered, waiting, completed, unknown;
};

SeqState classify(const PgView& g, long long s) {
  SeqState st;
  for (const auto& v : g.ranks) {
    auto ent = v.entered_upto(), done = v.completed_upto();
    if (!v.dump || (!ent && !done)) st.unknown.push_back(v.rank);
    else if (done && *done >= s) st.completed.push_back(v.rank);
    else if (ent && *ent >= s) st.waiting.push_back(v.rank);
    else st.not_entered.push_back(v.rank);
  }
  return st;
}

const RankView* view_of(const PgView& g, int rank) {
  for (const auto& v : g.ranks)
    if (v.rank == rank) return &v;
  return nullptr;
}

// The op most waiting ranks are in at seq s ("all_reduce"), from their entries.
std::optional<std::string> op_at(const PgView& g, long long s, const std::vector<int>& ranks) {
  std::map<std::string, int> votes;
  for (int r : ranks)
    if (const RankView* v = view_of(g, r); v && v->by_seq.count(s))
      ++votes[v->by_seq.at(s).back()->profiling_name.value_or("?")];
  if (votes.empty()) return std::nullopt;
  return std::max_element(votes.begin(), votes.end(),
                          [](const auto& a, const auto& b) { return a.second < b.second; })->first;
}

// What a rank that never joined was doing, from its own newest entry in any group.
std::string culprit_activity(const FrDump& dump, int rank, const FrEntry** newest_out) {
  const FrRankDump* d = nullptr;
  for (const auto& x : dump.ranks)
    if (x.rank == rank) d = &x;
  *newest_out = nullptr;
  if (!d || d->entries.empty()) return "the dump has no entries";
  const FrEntry* newest = &d->entries.front();
  for (const auto& e : d->entries)
    if (e.record_id.value_or(-1) >= newest->record_id.value_or(-1)) newest = &e;
  *newest_out = newest;
  std::string where = group_label(newest->pg_name.value_or("?"), newest->pg_desc);
  std::string what = newest->profiling_name.value_or("?") +
                     (newest->collective_seq_id ? " seq " + std::to_string(*newest->collective_seq_id) : "") +
                     " on " + where;
  if (!newest->completed())
    return "newest entry is " + what + ", still " + newest->state.value_or("not completed") +
           ": blocked there (look at that group next)";
  return "newest entry, " + what + ", completed: busy or stuck outside NCCL (Python code, data "
         "loading, a dead or hung process) or waiting on a group with no entries";
}

bool any_frames(const FrDump& d) {
  for (const auto& r : d.ranks)
    for (const auto& e : r.entries)
      if (e.frames) return true;
  return false;
}

// The vars of the hang fixes (findings.yaml &fr-hang-*): who to look at, where, and whether the
// dumps lack stacks or history.
void add_hang_vars(knowledge::FindingVars& vars, const FrDump& dump, const std::vector<int>& culprits,
                   bool buffer_short) {
  vars["culprits"] = format_rank_list(culprits);
  vars["source"] = dump.source;
  vars["no_stacks"] = any_frames(dump) ? "" : "yes";
  vars["buffer_short"] = buffer_short ? "yes" : "";
}

// The innermost frames outside torch itself: where the user's code issued the collective.
std::string user_stack(const FrEntry& e) {
  if (!e.frames) return "";
  std::string out;
  int n = 0;
  for (const auto& f : *e.frames) {
    if (f.filename.find("torch/") != std::string::npos || n >= 2) continue;
    out += (n++ ? " <- " : "") + f.name + " (" + f.filename + (f.line ? ":" + std::to_string(*f.line) : "") + ")";
  }
  return out;
}

void push_entry_evidence(Finding& f, const PgView& g, long long s, const std::vector<int>& ranks,
                         std::size_t cap = kMaxEvidence) {
  std::size_t added = 0;
  for (int r : ranks) {
    if (f.evidence.size() >= kMaxEvidence || added >= cap) return;
    ++added;
    const RankView* v = view_of(g, r);
    if (!v || !v->dump) continue;
    Evidence e;
    e.file = v->dump->file;
    e.rank = r;
    const FrEntry* x = nullptr;
    std::string prefix;
    if (auto it = v->by_seq.find(s); it != v->by_seq.end()) {
      x = it->second.back();
    } else if (v->newest) {
      x = v->newest;
      prefix = "newest entry of the group: ";
    }
    if (x) {
      e.text = prefix + describe_entry(*x);
      if (x->time_created_ns) e.time = format_time_ns(*x->time_created_ns);
      if (std::string st = user_stack(*x); !st.empty()) e.text += "; called from " + st;
    }
    if (!x || !prefix.empty())
      e.text += std::string(x ? "; " : "") + "last enqueued seq " +
                (v->entered_upto() ? std::to_string(*v->entered_upto()) : "?") + ", last completed seq " +
                (v->completed_upto() ? std::to_string(*v->completed_upto()) : "?");
    f.evidence.push_back(std::move(e));
  }
}

// gloo records into the Flight Recorder (PyTorch 2.15) without work events: every entry stays
// "scheduled" with no discovered start, and pg_status counts a collective that failed as completed
// once it is retired (seen in real dumps of the fault bench, bench/faults/job.py --fr). Which rank
// "completed" a sequence number is then the order the errors arrived in, not evidence.
bool without_work_states(const FrDump& dump) {
  bool any = false;
  for (const auto& r : dump.ranks)
    for (const auto& e : r.entries) {
      any = true;
      if (!e.profiling_name || !e.profiling_name->starts_with("gloo:") || e.time_discovered_started_ns ||
          (e.state && *e.state != "scheduled"))
        return false;
    }
  return any;
}

void check_group(const FrDump& dump, const PgView& g, FrPgSummary& sum, std::vector<Finding>& out,
                 const std::set<long long>& mismatched, bool no_work_states) {
  std::optional<long long> lo, hi;
  for (const auto& v : g.ranks) {
    if (!v.dump) continue;
    auto done = v.completed_upto(), ent = v.entered_upto();
    if (!done && !ent) continue;
    long long next = done ? *done + 1 : (v.by_seq.empty() ? 1 : v.by_seq.begin()->first);
    lo = lo ? std::min(*lo, next) : next;
    if (ent) hi = hi ? std::max(*hi, *ent) : *ent;
  }
  if (!lo || !hi || *lo > *hi) {
    sum.status = lo ? "ok" : "no collectives recorded";
    return;
  }
  long long s = *lo;
  SeqState st = classify(g, s);
  sum.first_unfinished_seq = s;
  auto op = op_at(g, s, st.waiting);
  sum.first_unfinished_op = op;
  std::string op_text = op.value_or("the collective");
  std::string label = group_label(g.name, g.desc);
  bool buffer_short = false;
  for (const auto& v : g.ranks)
    if (v.dump && !v.by_seq.empty() && v.by_seq.begin()->first > s) buffer_short = true;

  if (!st.not_entered.empty() && !st.waiting.empty()) {
    std::map<std::string, std::vector<int>> activity;  // ranks doing the same thing are told once
    for (int r : st.not_entered) {
      const FrEntry* newest = nullptr;
      activity[culprit_activity(dump, r, &newest)].push_back(r);
    }
    std::string told;
    for (const auto& [act, ranks] : activity) told += " Rank(s) " + format_rank_list(ranks) + ": " + act + ".";
    knowledge::FindingVars vars{
        {"missing", format_rank_list(st.not_entered)}, {"waiting", format_rank_list(st.waiting)},
        {"op", op_text}, {"seq", std::to_string(s)}, {"group", label}, {"activity", told},
        {"no_dump", st.unknown.empty() ? "" : " No dump for rank(s) " + format_rank_list(st.unknown) + "."}};
    add_hang_vars(vars, dump, st.not_entered, buffer_short);
    // Sure when every member left a dump; a missing dump could hide another culprit.
    Finding f = knowledge::make_finding("fr.missing-ranks", vars, st.unknown.empty() ? "every-dump" : "dumps-missing");
    f.culprit.ranks = st.not_entered;
    f.culprit.component = "rank(s) that never called the collective";
    push_entry_evidence(f, g, s, st.not_entered, kMaxEvidence / 2);
    push_entry_evidence(f, g, s, st.waiting);
    sum.status = "rank(s) " + format_rank_list(st.not_entered) + " never joined " + op_text + " seq " +
                 std::to_string(s);
    out.push_back(std::move(f));
    return;
  }
  if (st.not_entered.empty() && !st.unknown.empty() && !st.waiting.empty() && st.completed.empty()) {
    knowledge::FindingVars vars{{"unknown", format_rank_list(st.unknown)}, {"waiting", format_rank_list(st.waiting)},
                                {"op", op_text}, {"seq", std::to_string(s)}, {"group", label}};
    add_hang_vars(vars, dump, st.unknown, buffer_short);
    Finding f = knowledge::make_finding("fr.missing-dumps", vars);
    f.culprit.ranks = st.unknown;
    f.culprit.component = "rank(s) without a dump";
    push_entry_evidence(f, g, s, st.waiting);
    sum.status = "all dumped ranks wait in " + op_text + " seq " + std::to_string(s) + "; no dump from " +
                 format_rank_list(st.unknown);
    out.push_back(std::move(f));
    return;
  }
  if (mismatched.count(s)) {  // the mismatch finding already explains why it cannot finish
    sum.status = "mismatched arguments at " + op_text + " seq " + std::to_string(s);
    return;
  }
  if (no_work_states) {  // who completed what is not recorded: no stuck or state finding from it
    sum.status = "first unretired seq " + std::to_string(s) + " (gloo: no work states)";
    return;
  }
  if (!st.waiting.empty() && st.completed.empty() && st.not_entered.empty()) {
    Finding f = knowledge::make_finding("fr.stuck-collective", {{"op", op_text}, {"seq", std::to_string(s)}, {"group", label}});
    f.culprit.component = "NCCL collective " + op_text;
    push_entry_evidence(f, g, s, st.waiting);
    sum.status = "all ranks in " + op_text + " seq " + std::to_string(s) + ", none completed";
    out.push_back(std::move(f));
    return;
  }
  if (!st.waiting.empty() && !st.completed.empty()) {
    Finding f = knowledge::make_finding("fr.state-mismatch", {{"op", op_text},
                                                              {"seq", std::to_string(s)},
                                                              {"group", label},
                                                              {"completed", format_rank_list(st.completed)},
                                                              {"waiting", format_rank_list(st.waiting)}});
    f.culprit.ranks = st.waiting;
    push_entry_evidence(f, g, s, st.waiting);
    push_entry_evidence(f, g, s, st.completed);
    sum.status = "seq " + std::to_string(s) + " completed on some ranks only";
    out.push_back(std::move(f));
    return;
  }
  sum.status = "first unfinished seq " + std::to_string(s);
}

void check_versions(const FrDump& dump, std::vector<Finding>& out) {
  auto by_value = [&](auto get) {
    std::map<std::string, std::vector<int>> m;
    for (const auto& r : dump.ranks)
      if (r.rank && get(r)) m[*get(r)].push_back(*r.rank);
    return m;
  };
  auto versions = by_value([](const FrRankDump& r) { return r.version; });
  auto libs = by_value([](const FrRankDump& r) { return r.comm_lib_version; });
  auto describe = [](const std::map<std::string, std::vector<int>>& m) {
    std::string s;
    for (const auto& [v, ranks] : m) s += (s.empty() ? "" : "; ") + v + " on rank(s) " + format_rank_list(ranks);
    return s;
  };
  if (libs.size() > 1) {
    Finding f = knowledge::make_finding("fr.comm-lib-version-mismatch", {{"versions", describe(libs)}});
    for (const auto& r : dump.ranks)
      if (r.comm_lib_version && f.evidence.size() < kMaxEvidence)
        f.evidence.push_back(Evidence{r.file, std::nullopt, r.rank, std::nullopt, std::nullopt,
                                      "comm_lib_version " + *r.comm_lib_version});
    out.push_back(std::move(f));
  }
  if (versions.size() > 1) {
    out.push_back(knowledge::make_finding("fr.dump-version-mismatch", {{"versions", describe(versions)}}));
  }
}

// One dump alone cannot name a culprit, but it can say what that rank waits in.
void check_single(const FrDump& dump, std::vector<Finding>& out) {
  if (dump.ranks.size() != 1) return;
  const FrRankDump& d = dump.ranks.front();
  const FrEntry* stuck = nullptr;
  for (const auto& e : d.entries)
    if (!e.completed() && (!stuck || e.record_id.value_or(-1) < stuck->record_id.value_or(-1))) stuck = &e;
  if (!stuck) return;
  Finding f = knowledge::make_finding(
      "fr.single-rank-waiting", {{"who", d.rank ? "Rank " + std::to_string(*d.rank) : std::string("This rank")},
                                 {"op", stuck->profiling_name.value_or("a collective")},
                                 {"group", group_label(stuck->pg_name.value_or("?"), stuck->pg_desc)}});
  f.evidence.push_back(Evidence{d.file, std::nullopt, d.rank, std::nullopt,
                                stuck->time_created_ns ? std::optional(format_time_ns(*stuck->time_created_ns))
                                                       : std::nullopt,
                                describe_entry(*stuck)});
  out.push_back(std::move(f));
}

}  // namespace

std::string format_rank_list(std::vector<int> r) {
  return core::format_ranges(std::move(r), core::RangeStyle{.pair_as_range = false});
}

FrAnalysis analyze_fr(const FrDump& dump) {
  FrAnalysis a;
  const bool no_work_states = without_work_states(dump);
  a.notes = dump.warnings;
  a.dump_count = dump.ranks.size();
  for (const auto& r : dump.ranks) {
    if (r.rank) a.ranks_with_dump.push_back(*r.rank);
    else a.notes.push_back(r.file + ": no rank number at the end of the file name; left out of cross-rank checks");
    a.notes.insert(a.notes.end(), r.warnings.begin(), r.warnings.end());
  }
  auto groups = align_groups(dump, a.notes);
  std::set<int> without;
  for (const auto& g : groups) {
    FrPgSummary sum;
    sum.name = g.name;
    sum.desc = g.desc;
    sum.members = g.members;
    sum.members_from_config = g.members_from_config;
    for (const auto& v : g.ranks) {
      FrRankProgress p;
      p.rank = v.rank;
      p.has_dump = v.dump != nullptr;
      p.last_enqueued = v.entered_upto();
      p.last_completed = v.completed_upto();
      if (!v.by_seq.empty()) p.first_seq_in_buffer = v.by_seq.begin()->first;
      if (v.newest) {
        p.last_op = v.newest->profiling_name;
        p.last_state = v.newest->state;
      }
      if (!v.dump) without.insert(v.rank);
      sum.ranks.push_back(std::move(p));
    }
    check_group(dump, g, sum, a.findings, check_mismatches(g, a.findings), no_work_states);
    if (check_p2p(g, a.findings) && (sum.status == "ok" || sum.status == "no collectives recorded"))
      sum.status = "send/recv pending";
    // gloo's dumps carry a pg_config entry without a name beside the named group their entries use:
    // a group of nothing, not one more group to look at.
    if (sum.name.empty() && (!sum.desc || sum.desc->empty()) && sum.status == "no collectives recorded") continue;
    a.groups.push_back(std::move(sum));
  }
  // With no rank numbers at all (one renamed file) "missing dumps" would be noise.
  if (!a.ranks_with_dump.empty()) a.ranks_without_dump.assign(without.begin(), without.end());
  if (!a.ranks_without_dump.empty())
    a.notes.push_back("no dump for rank(s) " + format_rank_list(a.ranks_without_dump) +
                      " (members of a process group in the other dumps)");
  if (no_work_states)
    a.notes.push_back("gloo dumps: no work states (every entry stays 'scheduled', a failed collective counts as "
                      "completed), so 'ok' means the ranks retired the same collectives, not that they succeeded");
  check_versions(dump, a.findings);
  check_single(dump, a.findings);
  std::stable_sort(a.findings.begin(), a.findings.end(),
                   [](const Finding& x, const Finding& y) { return x.severity > y.severity; });
  return a;
}

}  // namespace ncdx::analyze
