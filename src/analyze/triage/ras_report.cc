#include "analyze/triage/ras_report.h"

#include <algorithm>
#include <charconv>

#include "analyze/triage/cascade.h"
#include "core/ranges.h"
#include "core/strings.h"
#include "knowledge/findings.h"

namespace ncdx::analyze {
namespace {

using Kind = RasBlock::Kind;
constexpr long long kBlockLines = 400;   // a block lists at most RAS_CLIENT_DETAIL_THRESHOLD ranks per group
constexpr std::size_t kMaxRanks = 4096;  // ranks kept from one block (hostile input)
constexpr std::size_t kMaxText = 300;

// The number at the start of `s` (digits only), and the rest after it.
std::optional<long long> leading_number(std::string_view& s) {
  long long v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p == s.data() || v < 0) return std::nullopt;
  s.remove_prefix(static_cast<std::size_t>(p - s.data()));
  return v;
}

bool starts(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// "#0-0 (f8e1a5b9c0d2e3f4) INCOMPLETE": "#%d-%d (%016lx) KIND".
std::optional<Kind> header(std::string_view t, bool& other) {
  other = false;
  if (t.size() < 8 || t.front() != '#') return std::nullopt;
  auto close = t.find(") ");
  if (t.find(" (") == std::string_view::npos || close == std::string_view::npos || close > 40) return std::nullopt;
  auto kind = core::trim(t.substr(close + 2));
  if (kind == "INCOMPLETE") return Kind::incomplete;
  if (kind == "MISMATCH") return Kind::mismatch;
  other = kind == "ERROR";
  return std::nullopt;
}

// "on node H" at the end of a rank line ("... managed by process 123 on node h2").
void note_host(std::string_view t, int rank, RasBlock& b) {
  constexpr std::string_view key = " on node ";
  auto at = t.rfind(key);
  if (at == std::string_view::npos) return;
  auto h = core::trim(t.substr(at + key.size()));
  if (!h.empty() && h.size() < 256 && b.host_of.size() < kMaxRanks) b.host_of[rank] = std::string(h);
}

std::string ranks_text(const std::set<int>& s) { return core::format_ranges({s.begin(), s.end()}); }

ScoredFinding finish(core::Finding f, const RasBlock& b, const std::set<int>& culprits, const ScanResult& scan,
                     const std::map<int, ProcessFacts>& ranks) {
  f.culprit.ranks.assign(culprits.begin(), culprits.end());
  f.culprit.hosts = hosts_of(culprits, scan, ranks, /*all_known=*/true);
  // The report's own "on node H" (the address RAS knows the process by) names the node as well,
  // whatever name the rest of the log gives it (srun's host name for the same rank).
  std::set<std::string> hs(f.culprit.hosts.begin(), f.culprit.hosts.end());
  for (int r : culprits)
    if (auto it = b.host_of.find(r); it != b.host_of.end()) hs.insert(it->second);
  if (hs.size() <= culprits.size() + f.culprit.hosts.size()) f.culprit.hosts.assign(hs.begin(), hs.end());
  f.evidence.push_back(core::Evidence{scan.input.files.at(b.file), b.line, std::nullopt, std::nullopt, std::nullopt,
                                      b.text});
  const double score = knowledge::finding_score(f.id);
  return ScoredFinding{std::move(f), score};
}

}  // namespace

bool ras_layout_line(std::string_view text) {
  const std::string_view t = core::trim(text);
  return t == "Errors" || t == "Warnings" ||
         (starts(t, "Group ") && t.ends_with(" Status  Errors") && t.find(" Comms ") != std::string_view::npos);
}

void read_ras_line(std::string_view text, std::size_t file, long long line, RasTextState& st,
                   std::vector<RasBlock>& out, std::size_t max_blocks) {
  const std::string_view t = core::trim(text);
  if (t.empty()) return;
  if (st.open >= 0 && line - st.last_line > kBlockLines) st.open = -1;
  bool other = false;
  if (auto kind = header(t, other)) {
    st = RasTextState{};
    if (out.size() >= max_blocks) return;
    RasBlock b;
    b.kind = *kind;
    b.comm = std::string(t.substr(0, t.find(") ") + 1));
    b.file = file;
    b.line = line;
    b.text = std::string(t.substr(0, kMaxText));
    out.push_back(std::move(b));
    st.open = static_cast<long long>(out.size()) - 1;
    st.last_line = line;
    return;
  }
  if (other || st.open < 0) {
    st.open = -1;
    return;
  }
  RasBlock& b = out[static_cast<std::size_t>(st.open)];
  st.last_line = line;
  if (b.kind == Kind::incomplete) {
    if (starts(t, "Missing communicator data from ")) return;
    if (starts(t, "Rank ")) {
      std::string_view rest = t.substr(5);
      auto r = leading_number(rest);
      if (r && *r <= 0x7fffffff && starts(rest, " -- ") && b.missing.size() < kMaxRanks) {
        b.missing.insert(static_cast<int>(*r));
        note_host(rest, static_cast<int>(*r), b);
        return;
      }
    }
    st.open = -1;  // any other line ends the block
    return;
  }
  // MISMATCH: a status list, then one operation-count list per collective that differs.
  constexpr std::string_view differ = "Communicator ranks have different ";
  if (starts(t, differ)) {
    constexpr std::string_view tail = " operation counts";
    const bool counts = t.size() >= differ.size() + tail.size() && t.ends_with(tail);
    if (counts && b.coll.empty()) {
      b.coll = std::string(t.substr(differ.size(), t.size() - tail.size() - differ.size()).substr(0, 32));
    } else if (counts) {
      st.coll_done = true;  // a second collective: keep the first one's groups
    }
    st.counts = counts;
    return;
  }
  if (!st.counts || st.coll_done) {
    // status lines ("3 ranks have status ...", "Rank 2 has status ...") belong to the block too
    if (starts(t, "Rank ") || t.find(" ranks have ") != std::string_view::npos) return;
    st.open = -1;
    return;
  }
  std::string_view rest = t;
  if (starts(rest, "Rank ")) {
    rest.remove_prefix(5);
    auto r = leading_number(rest);
    if (!r || *r > 0x7fffffff) {
      st.open = -1;
      return;
    }
    const int rank = static_cast<int>(*r);
    if (starts(rest, " -- ")) {  // a member of the group whose count line came just before
      if (!b.groups.empty() && b.groups.back().ranks.size() < kMaxRanks) b.groups.back().ranks.insert(rank);
    } else if (starts(rest, " has launched up to operation ")) {
      rest.remove_prefix(30);
      auto op = leading_number(rest);
      b.groups.push_back({1, op.value_or(0), {rank}});
    } else if (starts(rest, " has not launched any operations")) {
      b.groups.push_back({1, 0, {rank}});
    } else {
      st.open = -1;
      return;
    }
    note_host(rest, rank, b);
    return;
  }
  if (auto n = leading_number(rest)) {
    if (starts(rest, " ranks have launched up to operation ")) {
      rest.remove_prefix(37);
      auto op = leading_number(rest);
      b.groups.push_back({*n, op.value_or(0), {}});
      return;
    }
    if (starts(rest, " ranks have not launched any operations")) {
      b.groups.push_back({*n, 0, {}});
      return;
    }
  }
  st.open = -1;
}

std::vector<ScoredFinding> ras_findings(const ScanResult& scan, const std::map<int, ProcessFacts>& ranks) {
  std::vector<ScoredFinding> out;
  // 1. The ranks behind the largest group of a communicator: the others launched operations these
  //    never did. Only when the largest group is strictly the largest and every behind rank is listed.
  for (const auto& b : scan.ras) {
    if (b.kind != Kind::mismatch || b.groups.size() < 2) continue;
    auto top = std::max_element(b.groups.begin(), b.groups.end(),
                                [](const auto& x, const auto& y) { return x.count < y.count; });
    if (std::count_if(b.groups.begin(), b.groups.end(), [&](const auto& g) { return g.count == top->count; }) > 1)
      continue;  // no single largest group: undecidable
    std::set<int> behind;
    long long behind_op = top->op;
    bool listed = true;
    for (const auto& g : b.groups) {
      if (&g == &*top || g.op >= top->op) continue;
      listed &= static_cast<long long>(g.ranks.size()) == g.count;
      behind.insert(g.ranks.begin(), g.ranks.end());
      behind_op = std::min(behind_op, g.op);
    }
    if (behind.empty() || !listed) continue;
    auto f = knowledge::make_finding(
        "nccl-ras.behind", {{"comm", b.comm},
                            {"coll", b.coll.empty() ? std::string("collective") : b.coll},
                            {"behind", ranks_text(behind)},
                            {"count", std::to_string(top->count)},
                            {"op", std::to_string(top->op)},
                            {"behind_op", behind_op > 0 ? "up to operation " + std::to_string(behind_op) : "none"}});
    out.push_back(finish(std::move(f), b, behind, scan, ranks));
    break;
  }
  // 2. The ranks that sent RAS no data about a communicator (their process is gone or stuck).
  for (const auto& b : scan.ras) {
    if (b.kind != Kind::incomplete || b.missing.empty()) continue;
    auto f = knowledge::make_finding("nccl-ras.missing", {{"comm", b.comm}, {"missing", ranks_text(b.missing)}});
    out.push_back(finish(std::move(f), b, b.missing, scan, ranks));
    break;
  }
  return out;
}

}  // namespace ncdx::analyze
