#include "analyze/triage/fr_trace_text.h"

#include <algorithm>
#include <charconv>

#include "analyze/triage/cascade.h"
#include "core/ranges.h"
#include "core/strings.h"
#include "knowledge/findings.h"

namespace ncdx::analyze {
namespace {

using Kind = FrTraceBlock::Kind;

// EntryState.log prints about a dozen lines after the header, then the stack; a field line further
// away belongs to something else.
constexpr long long kBlockLines = 24;
constexpr std::size_t kMaxRanks = 100000;  // elements kept from one printed set (hostile input)
constexpr std::size_t kMaxText = 400;

std::optional<long long> number_at(std::string_view s) {
  s = core::trim(s);
  long long v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p == s.data() || v < 0) return std::nullopt;
  return v;
}

// "{3, 4, 5}", "({2})" or "set()": Python's print of a set of ints (the ranks).
std::set<int> rank_set(std::string_view s) {
  std::set<int> out;
  auto open = s.find('{');
  if (open == std::string_view::npos) return out;
  auto close = s.find('}', open);
  if (close == std::string_view::npos) return out;
  for (auto part : core::split(s.substr(open + 1, close - open - 1), ',')) {
    if (out.size() >= kMaxRanks) break;
    if (auto n = number_at(part); n && *n <= 0x7fffffff) out.insert(static_cast<int>(*n));
  }
  return out;
}

std::string_view after(std::string_view text, std::string_view key) {
  auto at = text.find(key);
  return at == std::string_view::npos ? std::string_view{} : text.substr(at + key.size());
}

// "Culprit rank R; Error type: T, <details>" repeated, joined with ", " (types.py).
void read_errors(std::string_view msg, std::map<int, std::string>& out) {
  constexpr std::string_view key = "Culprit rank ";
  for (auto at = msg.find(key); at != std::string_view::npos && out.size() < kMaxRanks; at = msg.find(key, at + 1)) {
    auto rest = msg.substr(at + key.size());
    auto semi = rest.find(';');
    auto rank = number_at(rest.substr(0, semi));
    if (!rank || *rank > 0x7fffffff || semi == std::string_view::npos) continue;
    auto type = after(rest.substr(semi), "Error type: ");
    auto end = type.find_first_of(", ");
    out.emplace(static_cast<int>(*rank), std::string(type.substr(0, std::min(end, std::size_t{64}))));
  }
}

std::optional<Kind> header_kind(std::string_view text, long long& seq) {
  // "Not all ranks joining collective, sequence number: N" (2.10+; "…collective: sequence number:"
  // in the report of pytorch/pytorch#140969), "Collective sequence number: N has errors",
  // "Input/output mismatch in the collective sequence number: N" (all_to_all sizes).
  if (text.find("ollective") == std::string_view::npos) return std::nullopt;
  std::optional<Kind> kind;
  if (text.find("Not all ranks joining collective") != std::string_view::npos) kind = Kind::not_joined;
  else if (text.find("Input/output mismatch in the collective sequence number: ") != std::string_view::npos)
    kind = Kind::io_mismatch;
  else if (text.find("Collective sequence number: ") != std::string_view::npos &&
           text.find(" has errors") != std::string_view::npos)
    kind = Kind::has_errors;
  if (!kind) return std::nullopt;
  auto n = after(text, "sequence number: ");
  auto end = n.find_first_not_of("0123456789");
  seq = number_at(n.substr(0, end)).value_or(-1);
  return kind;
}

const FrTraceBlock* earliest(const std::vector<FrTraceBlock>& blocks, auto&& pred) {
  const FrTraceBlock* best = nullptr;
  for (const auto& b : blocks)
    if (pred(b) && (!best || b.file < best->file || (b.file == best->file && b.line < best->line))) best = &b;
  return best;
}

std::string ranks_text(const std::set<int>& s) { return core::format_ranges({s.begin(), s.end()}); }

std::set<int> minus(const std::set<int>& a, const std::set<int>& b) {
  std::set<int> out;
  std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::inserter(out, out.end()));
  return out;
}

std::string group_text(const FrTraceBlock& b) { return b.group.empty() ? "its process group" : b.group; }
std::string op_text(const FrTraceBlock& b) { return b.op.empty() ? "the collective" : b.op; }

ScoredFinding finish(core::Finding f, const FrTraceBlock& b, const std::set<int>& culprits, const ScanResult& scan,
                     const std::map<int, ProcessFacts>& ranks, std::string_view case_name) {
  f.culprit.ranks.assign(culprits.begin(), culprits.end());
  f.culprit.hosts = hosts_of(culprits, scan, ranks);
  f.evidence.push_back(core::Evidence{scan.input.files.at(b.file), b.line, std::nullopt, std::nullopt, std::nullopt,
                                      b.text});
  const double score = knowledge::finding_score(f.id, case_name);
  return ScoredFinding{std::move(f), score};
}

}  // namespace

void read_fr_trace_line(std::string_view text, std::size_t file, long long line, FrTraceTextState& st,
                        std::vector<FrTraceBlock>& out, std::size_t max_blocks) {
  if (st.open >= 0 && line - st.header_line > kBlockLines) st.open = -1;
  long long seq = -1;
  if (auto kind = header_kind(text, seq)) {
    st.open = -1;
    if (out.size() >= max_blocks) return;
    FrTraceBlock b;
    b.kind = *kind;
    b.seq = seq;
    b.file = file;
    b.line = line;
    b.text = std::string(core::trim(text.substr(0, kMaxText)));
    out.push_back(std::move(b));
    st.open = static_cast<long long>(out.size()) - 1;
    st.header_line = line;
    return;
  }
  // The ranks without a dump: fr_trace stops ("Missing dump files from ranks {2}",
  // check_no_missing_dump_files) or, with --allow-incomplete-ranks, cannot decide an entry ("…
  // because we missed FR dumps from ranks ({2}) …").
  if (text.find("from ranks") != std::string_view::npos) {
    std::string_view rest = after(text, "Missing dump files from ranks ");
    if (rest.empty()) rest = after(text, "missed FR dumps from ranks ");
    if (!rest.empty() && out.size() < max_blocks) {
      FrTraceBlock b;
      b.kind = Kind::missing_dumps;
      b.missing = rank_set(rest);
      b.file = file;
      b.line = line;
      b.text = std::string(core::trim(text.substr(0, kMaxText)));
      if (!b.missing.empty()) out.push_back(std::move(b));
      return;
    }
  }
  if (st.open < 0) return;
  FrTraceBlock& b = out[static_cast<std::size_t>(st.open)];
  const std::string_view t = core::trim(text);
  auto field = [&](std::string_view key) -> std::optional<std::string_view> {
    if (t.substr(0, key.size()) != key) return std::nullopt;
    return core::trim(t.substr(key.size()));
  };
  if (auto v = field("group info: ")) b.group = std::string(v->substr(0, 200));
  else if (auto v2 = field("collective: ")) b.op = std::string(v2->substr(0, 100));
  else if (auto v3 = field("missing ranks: ")) b.missing = rank_set(*v3);
  else if (auto v4 = field("expected ranks: ")) b.expected = rank_set(*v4);
  else if (auto v5 = field("collective state: ")) b.state = std::string(v5->substr(0, 32));
  else if (auto v6 = field("error msg: ")) read_errors(*v6, b.errors);
}

std::vector<ScoredFinding> fr_trace_findings(const ScanResult& scan, const std::map<int, ProcessFacts>& ranks) {
  std::vector<ScoredFinding> out;
  const auto& blocks = scan.fr_trace;
  if (blocks.empty()) return out;

  // 1. A collective whose arguments differ. fr_trace compares every rank's entry with its first
  //    rank's and names each rank that differs as "Culprit rank" (utils.py says so: if the first
  //    rank is the odd one, all the others are named). So when every other member is named, the
  //    first rank — the one member not named — is the odd one; with two members it cannot tell.
  if (const auto* b = earliest(blocks, [](const FrTraceBlock& x) { return !x.errors.empty(); })) {
    std::set<int> named;
    std::set<std::string> types;
    for (const auto& [r, t] : b->errors) {
      named.insert(r);
      types.insert(t);
    }
    std::set<int> culprits = named;
    std::string case_name = "named";
    const std::set<int> unnamed = minus(b->expected, named);
    if (b->kind == Kind::io_mismatch) {
      culprits.clear();  // all_to_all sizes: fr_trace says it cannot tell which rank is the source
      case_name = "undecidable";
    } else if (b->expected.size() == 2) {
      culprits = b->expected;
      case_name = "undecidable";
    } else if (b->expected.size() >= 3 && unnamed.size() == 1 && named.size() * 2 > b->expected.size()) {
      culprits = unnamed;  // the first rank disagreed with everybody
    }
    std::string type_list;
    for (const auto& t : types) type_list += (type_list.empty() ? "" : ", ") + t;
    auto f = knowledge::make_finding(
        "fr-trace.mismatch",
        {{"seq", std::to_string(b->seq)},
         {"op", op_text(*b)},
         {"group", group_text(*b)},
         {"types", type_list.empty() ? std::string("mismatch") : type_list},
         {"named", named.empty() ? std::string("no rank") : ranks_text(named)},
         {"culprits", culprits.empty() ? std::string("no single rank") : ranks_text(culprits)}},
        case_name);
    out.push_back(finish(std::move(f), *b, culprits, scan, ranks, case_name));
  }

  // 2. Ranks that never joined a collective the others are in. A block whose collective state is
  //    "completed" is not a hang: the collective finished on the ranks that recorded it, which it
  //    cannot without every member — the "missing" rank's ring buffer no longer holds it
  //    (TORCH_FR_BUFFER_SIZE). The earliest block still in flight is where the job stopped.
  if (const auto* b = earliest(blocks, [](const FrTraceBlock& x) {
        return x.kind == Kind::not_joined && !x.missing.empty() && x.state != "completed";
      })) {
    const std::set<int> waiting = minus(b->expected, b->missing);
    auto f = knowledge::make_finding(
        "fr-trace.not-joined",
        {{"seq", std::to_string(b->seq)},
         {"op", op_text(*b)},
         {"group", group_text(*b)},
         {"missing", ranks_text(b->missing)},
         {"waiting", waiting.empty() ? std::string("the other ranks") : "ranks " + ranks_text(waiting)},
         {"state", b->state.empty() ? std::string("unknown") : b->state}});
    out.push_back(finish(std::move(f), *b, b->missing, scan, ranks, {}));
  }

  // 3. Ranks that left no dump: a process that crashed, was killed or hung hard cannot dump.
  if (const auto* b = earliest(blocks, [](const FrTraceBlock& x) { return x.kind == Kind::missing_dumps; })) {
    auto f = knowledge::make_finding("fr-trace.missing-dumps", {{"missing", ranks_text(b->missing)}});
    out.push_back(finish(std::move(f), *b, b->missing, scan, ranks, {}));
  }
  return out;
}

}  // namespace ncdx::analyze
