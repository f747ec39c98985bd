#include "analyze/judge/table_shape.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <string_view>

#include "measure/collective/collective.h"

namespace ncdx::analyze::judge {

namespace mc = model::cost;

namespace {

// Bytes per element of a type name nccl-tests prints: ncdx bench's table of them (also the names
// of builds against NCCL 1.x, "char" and "int"), and the fp8 types of src/common.cu @ v2.19.6,
// which ncdx bench does not run.
std::optional<int> element_bytes(std::string_view t) {
  if (auto d = measure::parse_datatype(t)) return static_cast<int>(measure::size_of(*d));
  if (t == "f8e4m3" || t == "f8e5m2") return 1;
  return std::nullopt;
}

// Two printed decimals on an algbw of >= 1 GB/s put the factor within 1 % (more digits above).
bool near(double a, double b) { return std::fabs(a - b) <= 0.01 * std::max(1.0, b); }

}  // namespace

TableShape table_shape(const NcclTestsRun& run) {
  TableShape s;
  const NcclTestsRow* largest = nullptr;
  // busbw / algbw where the two printed decimals say most: the side with the largest algbw.
  std::optional<double> f;
  double f_err = 0, best_algbw = 0;
  for (const auto& r : run.rows) {
    if (r.count == 0 || r.size == 0 || !element_bytes(r.type)) continue;
    if (largest && (r.redop != largest->redop || r.root != largest->root || r.type != largest->type)) return {};
    if (!largest || r.size > largest->size) largest = &r;
    for (const auto* side : {&r.oop, &r.ip}) {
      if (!side->algbw_gbps || !side->busbw_gbps || *side->algbw_gbps < 1.0 || *side->algbw_gbps <= best_algbw) continue;
      best_algbw = *side->algbw_gbps;
      f = *side->busbw_gbps / best_algbw;
      f_err = *f * (0.005 / best_algbw + (*side->busbw_gbps > 0 ? 0.005 / *side->busbw_gbps : 0.0));
    }
  }
  if (!largest) return s;
  // size / (count x element): 1, or the rank count where nccl-tests prints the per-rank count (its
  // largest row: alltoall rounds the per-rank count down to 16 bytes, which small rows feel).
  const int elt = *element_bytes(largest->type);
  const double per = static_cast<double>(largest->size) / (static_cast<double>(largest->count) * elt);
  const long k = std::lround(per);
  if (k < 1 || std::fabs(per - static_cast<double>(k)) > 0.01 * static_cast<double>(k)) return s;
  const bool op = !largest->redop.empty() && largest->redop != "none";
  const bool rooted = largest->root && *largest->root >= 0;
  s.evidence = "redop " + (largest->redop.empty() ? std::string("-") : largest->redop) + ", root " +
               (largest->root ? std::to_string(*largest->root) : std::string("-")) + ", size = " +
               (k > 1 ? std::to_string(k) + " x " : std::string()) + "count x " + std::to_string(elt) + " B" +
               (f ? fmt::format(", busbw = {:.3f} x algbw", *f) : std::string());
  auto says = [&](std::optional<mc::Collective> c, std::optional<int> n, const std::string& why) {
    s.coll = c;
    s.nranks = n;
    s.evidence += why;
  };
  if (k >= 2) {
    // Per-rank counts: reduce_scatter (an operation), all_gather or alltoall ("none", the same
    // columns); the factor must be (n-1)/n for that n.
    if (f && !near(*f, measure::busbw_factor(measure::Collective::reducescatter, static_cast<int>(k)))) return {};
    const std::string n = std::to_string(k);
    if (rooted) return {};  // gather/scatter: rooted per-rank counts, not collectives the model has
    if (op) says(mc::Collective::ReduceScatter, static_cast<int>(k), " = (n-1)/n: reduce_scatter on " + n + " ranks");
    else says(std::nullopt, static_cast<int>(k), " = (n-1)/n: all_gather or alltoall on " + n + " ranks");
    return s;
  }
  if (rooted) {  // broadcast ("none") or reduce (an operation); busbw = algbw, no rank count
    if (f && !near(*f, measure::busbw_factor(measure::Collective::broadcast, 0))) return {};
    says(op ? mc::Collective::Reduce : mc::Collective::Broadcast, std::nullopt, op ? ": reduce" : ": broadcast");
    return s;
  }
  if (!op || !f) return s;  // hypercube, or no readable factor
  // An operation, unrooted, whole-size count: all_reduce, 2(n-1)/n; sendrecv prints the same columns
  // (it loops over the operations too) with a factor of 1, which is also all_reduce on 2 ranks.
  if (near(*f, 1.0) || *f >= 2.0 || *f < 1.0) return s;
  // n = 2 / (2 - f): the rank count when the factor's rounding leaves one integer (n^2/2 x the
  // factor's error: exact to a few dozen ranks on GB/s-scale rows, not at thousands).
  const double lo = 2.0 / (2.0 - (*f - f_err)), hi = *f + f_err < 2.0 ? 2.0 / (2.0 - (*f + f_err)) : 1e18;
  const double n = std::ceil(lo - 1e-9);
  const bool one = n <= std::floor(hi + 1e-9) && n + 1 > std::floor(hi + 1e-9) && n >= 3;
  says(mc::Collective::AllReduce, one ? std::optional<int>(static_cast<int>(n)) : std::nullopt,
       " = 2(n-1)/n: all_reduce" + (one ? " on " + std::to_string(static_cast<int>(n)) + " ranks" : std::string()));
  return s;
}

}  // namespace ncdx::analyze::judge
