#include "analyze/fr/mismatch.h"

#include <algorithm>
#include <limits>
#include <map>
#include <string>

#include "analyze/fr/analyze.h"
#include "analyze/fr/describe.h"
#include "knowledge/findings.h"

namespace ncdx::analyze::fr_detail {
namespace {

using core::Evidence;
using core::Finding;

// Collectives whose tensors have the same shapes on every rank (fr_trace's matcher list minus
// the ones with per-rank splits or root-only buffers).
bool same_shapes_everywhere(const std::string& op) {
  static const std::set<std::string> k = {
      "all_reduce", "broadcast", "_broadcast_oop", "reduce", "_reduce_oop", "all_gather",
      "all_gather_single", "_all_gather_base", "all_gather_into_tensor_coalesced", "reduce_scatter",
      "reduce_scatter_single", "_reduce_scatter_base", "reduce_scatter_tensor_coalesced",
      "allreduce_coalesced", "ALLGATHER_coalesced", "REDUCE_SCATTER_coalesced", "all_reduce_barrier",
      "barrier", "coalesced"};
  return k.count(op) > 0;
}
bool is_all_to_all(const std::string& op) { return op.rfind("all_to_all", 0) == 0; }
bool root_only_buffers(const std::string& op) { return op == "gather" || op == "scatter"; }

// Element counts saturate at LLONG_MAX: the shapes come from a dump (fr_pickle_fuzz found dims
// whose product overflows), and the all_to_all check only compares totals.
constexpr long long kMaxNumel = std::numeric_limits<long long>::max();
long long add_sat(long long a, long long b) {
  long long r;
  return __builtin_add_overflow(a, b, &r) ? kMaxNumel : r;
}
long long numel(const std::optional<std::vector<std::vector<long long>>>& shapes) {
  long long n = 0;
  if (!shapes) return 0;
  for (const auto& s : *shapes) {
    long long m = 1;
    for (long long d : s)
      if (__builtin_mul_overflow(m, d, &m)) return kMaxNumel;
    n = add_sat(n, m);
  }
  return n;
}

// The finding row (findings.yaml: fr_trace's name and the texts) and what the ranks disagree on,
// for the culprit's component.
struct Kind {
  const char* id;
  const char* what;
};
constexpr Kind kOp{"fr.op-mismatch", "collective type"};
constexpr Kind kSize{"fr.size-mismatch", "tensor sizes"};
constexpr Kind kDtype{"fr.dtype-mismatch", "dtypes"};

void report(const PgView& g, long long s, const Kind& kind, const std::map<std::string, std::vector<int>>& sigs,
            std::size_t more, std::vector<Finding>& out) {
  // The majority is taken as right; on a tie, the side holding the lowest rank.
  auto best = sigs.begin();
  for (auto it = sigs.begin(); it != sigs.end(); ++it)
    if (it->second.size() > best->second.size() ||
        (it->second.size() == best->second.size() && it->second.front() < best->second.front()))
      best = it;
  std::size_t n = 0;
  for (const auto& [sig, ranks] : sigs) n += ranks.size();
  std::vector<int> culprits;
  for (const auto& [sig, ranks] : sigs)
    if (sig != best->first) culprits.insert(culprits.end(), ranks.begin(), ranks.end());
  std::sort(culprits.begin(), culprits.end());
  bool clear = best->second.size() * 2 > n && n >= 3;
  std::string label = group_label(g.name, g.desc);
  std::string sides;
  for (const auto& [sig, ranks] : sigs) sides += "rank(s) " + format_rank_list(ranks) + ": " + sig + ". ";
  Finding f = knowledge::make_finding(
      kind.id, {{"seq", std::to_string(s)},
                {"group", label},
                {"culprit_note", culprits.empty() ? "" : " (culprit rank(s) " + format_rank_list(culprits) + ")"},
                {"sides", sides},
                {"guess", !clear && !culprits.empty() ? "No clear majority, so which side is wrong is a guess. " : ""},
                {"more", more ? std::to_string(more) + " later sequence id(s) of this group are mismatched too." : ""},
                {"differ", culprits.empty() ? std::string() : " (rank(s) " + format_rank_list(culprits) + " differ)"}},
      culprits.empty() ? "no-minority" : clear ? "clear-majority" : "no-majority");
  f.culprit.ranks = culprits;
  f.culprit.component = std::string("collective arguments (") + kind.what + ")";
  std::vector<int> show = culprits;
  show.push_back(best->second.front());
  for (int r : show) {
    for (const auto& v : g.ranks) {
      if (v.rank != r || !v.dump || !v.by_seq.count(s) || f.evidence.size() >= 8) continue;
      const FrEntry& e = *v.by_seq.at(s).back();
      f.evidence.push_back(Evidence{v.dump->file, std::nullopt, r, std::nullopt,
                                    e.time_created_ns ? std::optional(format_time_ns(*e.time_created_ns))
                                                      : std::nullopt,
                                    describe_entry(e)});
    }
  }
  out.push_back(std::move(f));
}

}  // namespace

std::set<long long> check_mismatches(const PgView& g, std::vector<Finding>& out) {
  std::set<long long> seqs;
  for (const auto& v : g.ranks)
    for (const auto& [s, es] : v.by_seq) seqs.insert(s);
  std::set<long long> bad;
  struct First {
    long long seq = -1;
    std::map<std::string, std::vector<int>> sigs;
    std::size_t more = 0;
  };
  First op_first, size_first, dtype_first;
  auto note = [&](First& f, long long s, std::map<std::string, std::vector<int>> sigs) {
    bad.insert(s);
    if (f.seq < 0) {
      f.seq = s;
      f.sigs = std::move(sigs);
    } else {
      ++f.more;
    }
  };
  for (long long s : seqs) {
    std::map<std::string, std::vector<int>> ops, sizes, dtypes;
    std::size_t present = 0;
    long long in_total = 0, out_total = 0;
    for (const auto& v : g.ranks) {
      auto it = v.by_seq.find(s);
      if (it == v.by_seq.end()) continue;
      ++present;
      std::string op_sig, size_sig, dtype_sig;
      for (const FrEntry* e : it->second) {
        std::string sep = op_sig.empty() ? "" : " + ";
        op_sig += sep + e->profiling_name.value_or("?");
        size_sig += sep + "input " + shapes_text(e->input_sizes) + " output " + shapes_text(e->output_sizes);
        bool empty = (e->input_dtypes && e->input_dtypes->empty()) || (e->output_dtypes && e->output_dtypes->empty());
        if (!root_only_buffers(e->op()) && !empty)
          dtype_sig += sep + dtypes_text(e->input_dtypes) + " -> " + dtypes_text(e->output_dtypes);
        in_total = add_sat(in_total, numel(e->input_sizes));
        out_total = add_sat(out_total, numel(e->output_sizes));
      }
      ops[op_sig].push_back(v.rank);
      sizes[size_sig].push_back(v.rank);
      if (!dtype_sig.empty()) dtypes[dtype_sig].push_back(v.rank);
    }
    if (present < 2) continue;
    if (ops.size() > 1) {
      note(op_first, s, ops);
      continue;
    }
    std::string op = g.ranks.empty() ? "" : [&] {
      for (const auto& v : g.ranks)
        if (v.by_seq.count(s)) return v.by_seq.at(s).front()->op();
      return std::string();
    }();
    if (same_shapes_everywhere(op) && sizes.size() > 1) note(size_first, s, sizes);
    // all_to_all: per-rank splits differ legitimately, but what all ranks send must equal what
    // all receive (fr_trace's total numel check); only meaningful with every member present.
    if (is_all_to_all(op) && present == g.ranks.size() && in_total != out_total) {
      std::vector<int> all;
      for (const auto& [sig, ranks] : sizes) all.insert(all.end(), ranks.begin(), ranks.end());
      note(size_first, s, {{"total input numel " + std::to_string(in_total) + " but total output numel " +
                                std::to_string(out_total) + " over all ranks", all}});
    }
    if (dtypes.size() > 1) note(dtype_first, s, dtypes);
  }
  if (op_first.seq >= 0) report(g, op_first.seq, kOp, op_first.sigs, op_first.more, out);
  if (size_first.seq >= 0) report(g, size_first.seq, kSize, size_first.sigs, size_first.more, out);
  if (dtype_first.seq >= 0) report(g, dtype_first.seq, kDtype, dtype_first.sigs, dtype_first.more, out);
  return bad;
}

}  // namespace ncdx::analyze::fr_detail
