#include "model/tune/ompi_alphabeta.h"

#include <vector>

namespace ncdx::model::tune {

namespace {

using measure::Collective;

// What a step does on the wire (ompi_alphabeta.h, Link): a one-way stream, or a two-way
// exchange with one peer (ompi_coll_base_sendrecv with sendto == recvfrom).
enum class Pattern { one_way, exchange };

// A shift step (send to rank + s, receive from rank − s, mod p) is an exchange with one peer
// exactly when rank + s ≡ rank − s, i.e. 2s ≡ 0 (mod p): the ring (s = 1) at p = 2, Bruck's
// step at distance p/2.
Pattern shift(int p, int s) { return (2 * s) % p == 0 ? Pattern::exchange : Pattern::one_way; }

// One stretch of the critical path: `msgs` messages one after the other (α each), `bytes` on the
// wire in all, each message `msg` bytes (eager or rendezvous), `reduce` bytes reduced.
struct Step {
  double msgs;
  double bytes;
  Pattern pattern;
  double msg;
  double reduce = 0;
};
using Path = std::vector<Step>;

bool pow2(int p) { return p > 0 && (p & (p - 1)) == 0; }
int floor_pow2(int p) {
  int q = 1;
  while (q * 2 <= p) q *= 2;
  return q;
}
int ceil_log2(int p) {
  int l = 0;
  while ((1 << l) < p) ++l;
  return l;
}

// Open MPI's own fallbacks (it silently runs another algorithm): below p elements, below pof2
// elements, at a rank count that is not a power of two, at an odd rank count, always (at the
// default segment size).
enum class Fallback { none, count_lt_p, count_lt_pof2, not_pow2, odd, always };

struct Row {
  Collective coll;
  const char* name;
  Fallback fallback;
  const char* fallback_to;
  Path (*path)(int p, double n);  // the critical path at p ranks, n = nccl-tests' size
};

// Critical path of Open MPI's binomial broadcast (ompi_coll_base_bcast_intra_binomial →
// ompi_coll_base_bcast_intra_generic, coll_base_bcast.c:38 @ v4.1.4), unsegmented: every node
// isends the whole buffer to all its children at once and waits for all, so its children all
// receive α + k·nβ after it did (k children sharing its link). Not Thakur's ⌈lg p⌉(α + nβ), which
// assumes one send after the other: at p = 2^L the path is L·α + L(L+1)/2·nβ. Returns the
// deepest leaf by β bytes (then α steps), one-way.
Path binomial_tree(int p, double n) {
  // ompi_coll_base_topo_build_bmtree (coll_base_topo.c), root 0: index i's children are
  // i ^ mask for mask from opal_next_poweroftwo(i) (the smallest power of two > i; 1 for 0)
  // while i ^ mask < p.
  std::vector<int> parent(static_cast<std::size_t>(p), -1), kids(static_cast<std::size_t>(p), 0);
  for (int i = 0; i < p; ++i) {
    int mask = 1;
    while (mask <= i) mask <<= 1;
    for (; mask < p && (i ^ mask) < p; mask <<= 1) {
      parent[static_cast<std::size_t>(i ^ mask)] = i;
      ++kids[static_cast<std::size_t>(i)];
    }
  }
  double best_a = 0, best_b = 0;
  for (int v = 1; v < p; ++v) {
    double a = 0, b = 0;
    for (int u = v; parent[static_cast<std::size_t>(u)] >= 0; u = parent[static_cast<std::size_t>(u)]) {
      a += 1;
      b += kids[static_cast<std::size_t>(parent[static_cast<std::size_t>(u)])];
    }
    if (b > best_b || (b == best_b && a > best_a)) best_a = a, best_b = b;
  }
  return {{best_a, best_b * n, Pattern::one_way, n}};
}

// Binomial scatter from the root (coll_base_bcast.c:809-846): blocking sends of n/2, n/4, …,
// one after the other (Thakur §3.2: ⌈lg p⌉·α + (p−1)/p·nβ); one-way.
Step binomial_scatter(int p, double n) {
  return {static_cast<double>(ceil_log2(p)), (p - 1.0) / p * n, Pattern::one_way, n / 2};
}

// p−1 ring steps of one block of n/p: send right, receive left (ompi_coll_base_sendrecv to
// rank+1 from rank−1), a one-way stream per link, an exchange at p = 2.
Step ring_pass(int p, double n, double reduce_share) {
  return {p - 1.0, (p - 1.0) / p * n, shift(p, 1), n / p, reduce_share * (p - 1.0) / p * n};
}

// coll_base_allreduce.c @ v4.1.4 (n = the per-rank buffer).

// ompi_coll_base_allreduce_intra_basic_linear (:881): basic-linear reduce to rank 0 (blocking
// receives one after the other, each reduced before the next is posted: (p−1)(α + nβ + nγ)),
// then a basic-linear bcast (p−1 concurrent isends on rank 0's link: α + (p−1)nβ).
Path allreduce_basic_linear(int p, double n) {
  return {{p - 1.0, (p - 1.0) * n, Pattern::one_way, n, (p - 1.0) * n}, {1, (p - 1.0) * n, Pattern::one_way, n}};
}

// ompi_coll_base_allreduce_intra_recursivedoubling (:130): lg P rounds of a full-buffer exchange
// with rank ^ 2^k (ompi_coll_base_sendrecv_actual, :219) and a reduction (Thakur §4.1). Other
// rank counts fold the first 2r ranks in pairs before (an even rank sends its buffer to rank+1,
// :188) and send the result back after (:252): one-way, +2α + 2nβ + nγ.
Path allreduce_recursive_doubling(int p, double n) {
  const int P = floor_pow2(p);
  const double L = ceil_log2(P);
  Path out;
  if (P != p) out.push_back({1, n, Pattern::one_way, n, n});
  out.push_back({L, L * n, Pattern::exchange, n, L * n});
  if (P != p) out.push_back({1, n, Pattern::one_way, n});
  return out;
}

// ompi_coll_base_allreduce_intra_ring (:341): reduce-scatter then allgather on a ring, 2(p−1)
// steps of one block (n/p); each received block is reduced before it is sent on (Thakur §4.1).
Path allreduce_ring(int p, double n) {
  Path out{ring_pass(p, n, 1)};
  out.push_back(ring_pass(p, n, 0));
  return out;
}

// ompi_coll_base_allreduce_intra_redscat_allgather (:970, Rabenseifner): recursive-halving
// reduce-scatter and recursive-doubling allgather on P = pof2 ranks, every step an exchange with
// one peer (ompi_coll_base_sendrecv to and from `dest`, :1153, :1199) of n/2, n/4, …, n/P and back:
// 2 lg P·α + 2(P−1)/P·nβ + (P−1)/P·nγ (Thakur §4.1). Other rank counts first exchange halves in
// pairs and reduce them (:1045, :1073), the odd rank sends its reduced half on (:1058), and the
// result goes back at the end (:1224): +3α, n/2 exchanged, 1.5n one-way, n/2 reduced.
Path allreduce_rabenseifner(int p, double n) {
  const int P = floor_pow2(p);
  Path out;
  if (P != p) {
    out.push_back({1, n / 2, Pattern::exchange, n / 2, n / 2});
    out.push_back({1, n / 2, Pattern::one_way, n / 2});
  }
  for (int part = 2; part <= P; part *= 2) out.push_back({1, n / part, Pattern::exchange, n / part, n / part});
  for (int part = P; part >= 2; part /= 2) out.push_back({1, n / part, Pattern::exchange, n / part});
  if (P != p) out.push_back({1, n, Pattern::one_way, n});
  return out;
}

// coll_base_bcast.c @ v4.1.4.

// ompi_coll_base_bcast_intra_basic_linear (:628): the root isends to all p−1 ranks at once
// (:662); they share its link: α + (p−1)nβ.
Path bcast_basic_linear(int p, double n) { return {{1, (p - 1.0) * n, Pattern::one_way, n}}; }

// ompi_coll_base_bcast_intra_pipeline (:277) with the default segment size (0: one segment) is
// a chain of fan-out 1: p−1 one-way hops of the whole buffer, (p−1)(α + nβ).
Path bcast_pipeline(int p, double n) { return {{p - 1.0, (p - 1.0) * n, Pattern::one_way, n}}; }

// ompi_coll_base_bcast_intra_scatter_allgather (:774): the binomial scatter, then a
// recursive-doubling allgather, each step an exchange with vrank ^ mask (:872) of n/P, 2n/P, …,
// n/2 (van de Geijn's broadcast, Thakur §3.2). For p not a power of two Open MPI adds halving
// steps inside the allgather; the model keeps ⌈lg p⌉ exchanges of blocks n/2^⌈lg p⌉ · 2^k there.
Path bcast_scatter_allgather(int p, double n) {
  Path out{binomial_scatter(p, n)};
  const int L = ceil_log2(p);
  for (int k = 0; k < L; ++k) {
    const double m = n * (1 << k) / (1 << L);
    out.push_back({1, m, Pattern::exchange, m});
  }
  return out;
}

// ompi_coll_base_bcast_intra_scatter_allgather_ring (:951): the same scatter, then a ring
// allgather (:1045, right/left): (lg p + p − 1)α + 2(p−1)/p·nβ (Thakur §3.2).
Path bcast_scatter_allgather_ring(int p, double n) { return {binomial_scatter(p, n), ring_pass(p, n, 0)}; }

// coll_base_allgather.c @ v4.1.4 (n = the gathered buffer, p blocks of n/p).

// ompi_coll_base_allgather_intra_bruck (:85): steps at distance d = 1, 2, 4, … < p, each
// sending d blocks (p − d at the last step when d > p/2, :140) to rank − d and receiving from
// rank + d (:136): a one-way shift, an exchange when d = p/2. ⌈lg p⌉α + (p−1)/p·nβ (Thakur §3.1;
// the final local rotation is a memory copy, not counted).
Path allgather_bruck(int p, double n) {
  Path out;
  for (int d = 1; d < p; d <<= 1) {
    const double m = (d <= p / 2 ? d : p - d) * n / p;
    out.push_back({1, m, shift(p, d), m});
  }
  return out;
}

// ompi_coll_base_allgather_intra_recursivedoubling (:253): lg p exchanges with rank ^ 2^k
// (:311) of 2^k blocks: lg p·α + (p−1)/p·nβ.
Path allgather_recursive_doubling(int p, double n) {
  Path out;
  for (int d = 1; d < p; d <<= 1) out.push_back({1, d * n / p, Pattern::exchange, d * n / p});
  return out;
}

// ompi_coll_base_allgather_intra_ring (:358): (p−1)α + (p−1)/p·nβ (Thakur §3.1).
Path allgather_ring(int p, double n) { return {ring_pass(p, n, 0)}; }

// ompi_coll_base_allgather_intra_neighborexchange (:484): one exchange of one block with
// neighbor[0] (:553), then p/2 − 1 exchanges of two blocks with alternating neighbours (:576):
// (p/2)α + (p−1)/p·nβ, all with one peer per step.
Path allgather_neighbor(int p, double n) {
  return {{1, n / p, Pattern::exchange, n / p}, {p / 2 - 1.0, (p / 2 - 1.0) * 2 * n / p, Pattern::exchange, 2 * n / p}};
}

// ompi_coll_base_allgather_intra_two_procs (:598): one exchange of n/2 with rank ^ 1.
Path allgather_two_proc(int, double n) { return {{1, n / 2, Pattern::exchange, n / 2}}; }

Path nothing(int, double) { return {}; }

// The table: coll_tuned_<coll>_algorithm's names (knowledge/data/ompi_coll_tuned.tsv) and
// Open MPI's fallbacks, with the line of coll_base_<coll>.c @ v4.1.4 that takes each.
const Row kRows[] = {
    {Collective::allreduce, "basic_linear", Fallback::none, "", allreduce_basic_linear},
    {Collective::allreduce, "recursive_doubling", Fallback::none, "", allreduce_recursive_doubling},
    // count < p runs recursive doubling (coll_base_allreduce.c:371).
    {Collective::allreduce, "ring", Fallback::count_lt_p, "recursive_doubling", allreduce_ring},
    // ompi_coll_base_allreduce_intra_ring_segmented with the default segment size (0):
    // segcount = count, so count < size·segcount always holds and it runs the ring (:656).
    {Collective::allreduce, "segmented_ring", Fallback::always, "ring", nothing},
    // count < pof2 runs recursive doubling (:988).
    {Collective::allreduce, "rabenseifner", Fallback::count_lt_pof2, "recursive_doubling", allreduce_rabenseifner},

    {Collective::broadcast, "basic_linear", Fallback::none, "", bcast_basic_linear},
    {Collective::broadcast, "pipeline", Fallback::none, "", bcast_pipeline},
    {Collective::broadcast, "binomial", Fallback::none, "", binomial_tree},
    // count < p runs basic_linear (coll_base_bcast.c:794, :971).
    {Collective::broadcast, "scatter_allgather", Fallback::count_lt_p, "basic_linear", bcast_scatter_allgather},
    {Collective::broadcast, "scatter_allgather_ring", Fallback::count_lt_p, "basic_linear", bcast_scatter_allgather_ring},

    {Collective::allgather, "bruck", Fallback::none, "", allgather_bruck},
    // not a power of two runs Bruck (coll_base_allgather.c:275).
    {Collective::allgather, "recursive_doubling", Fallback::not_pow2, "bruck", allgather_recursive_doubling},
    {Collective::allgather, "ring", Fallback::none, "", allgather_ring},
    // odd p runs the ring (:499).
    {Collective::allgather, "neighbor", Fallback::odd, "ring", allgather_neighbor},
    {Collective::allgather, "two_proc", Fallback::none, "", allgather_two_proc},
};

const Row* find(Collective c, const std::string& name) {
  for (const auto& r : kRows)
    if (r.coll == c && name == r.name) return &r;
  return nullptr;
}

}  // namespace

std::optional<AlphaBetaCost> ompi_alphabeta(Collective c, const std::string& name, int nranks, std::size_t bytes, std::size_t elt) {
  const Row* r = find(c, name);
  if (!r || nranks < 1 || elt == 0) return std::nullopt;
  if (r->coll == Collective::allgather && name == "two_proc" && nranks != 2) return std::nullopt;
  const int p = nranks;
  const std::size_t count = bytes / elt;  // the count passed to MPI (allreduce, bcast)
  bool falls = false;
  switch (r->fallback) {
    case Fallback::none: break;
    case Fallback::count_lt_p: falls = count < static_cast<std::size_t>(p); break;
    case Fallback::count_lt_pof2: falls = count < static_cast<std::size_t>(floor_pow2(p)); break;
    case Fallback::not_pow2: falls = !pow2(p); break;
    case Fallback::odd: falls = p % 2 != 0; break;
    case Fallback::always: falls = true; break;
  }
  if (falls) {
    auto alt = ompi_alphabeta(c, r->fallback_to, nranks, bytes, elt);
    if (!alt) return std::nullopt;
    alt->runs_as = alt->runs_as.empty() ? alt->algorithm : alt->runs_as;
    alt->algorithm = name;
    return alt;
  }
  AlphaBetaCost out;
  out.algorithm = name;
  if (p == 1) return out;
  for (const Step& s : r->path(p, static_cast<double>(bytes))) {
    out.alpha_steps += s.msgs;
    (s.pattern == Pattern::exchange && s.msg >= kEagerLimitBytes ? out.beta_x_bytes : out.beta_bytes) += s.bytes;
    out.gamma_bytes += s.reduce;
  }
  return out;
}

int ompi_effective_segsize(Collective c, const std::string& name, std::size_t bytes, int segsize, std::size_t elt) {
  // COLL_BASE_COMPUTED_SEGCOUNT (coll_base_functions.h:407-415 @ v4.1.4) leaves segcount = count
  // unless typelng <= segsize < typelng·count; every segmented bcast and reduce but the split binary
  // tree starts from segcount = count and applies it (coll_base_bcast.c:257-351,725-740,
  // coll_base_reduce.c:391-542), so a segment covering the message is no segmentation, as 0 is.
  // The split binary tree splits the message in two first (coll_base_bcast.c:361-420): kept as is.
  const bool macro = (c == Collective::broadcast || c == Collective::reduce) && name != "split_binary_tree";
  if (!macro || segsize <= 0 || elt == 0) return segsize;
  const std::size_t s = static_cast<std::size_t>(segsize), count = bytes / elt;
  return s >= elt && s < elt * count ? segsize : 0;
}

std::string ompi_runs_as(Collective c, const std::string& name, int nranks, std::size_t bytes, int segsize, std::size_t elt) {
  if (c == Collective::allreduce && name == "segmented_ring" && segsize > 0 && elt > 0) {
    // ompi_coll_base_allreduce_intra_ring_segmented (coll_base_allreduce.c:650-662 @ v4.1.4):
    // segcount = count, COLL_BASE_COMPUTED_SEGCOUNT (coll_base_functions.h:407) sets it to
    // segsize/typelng (rounded to nearest) when typelng <= segsize < typelng*count, and
    // `count < size * segcount` runs the ring instead (v5.0.9: the same test).
    const std::size_t count = bytes / elt, s = static_cast<std::size_t>(segsize);
    std::size_t segcount = count;
    if (s >= elt && s < elt * count) segcount = s / elt + (s % elt > elt / 2 ? 1 : 0);
    const std::size_t ps = static_cast<std::size_t>(nranks) * segcount;
    if (count < ps) return ompi_runs_as(c, "ring", nranks, bytes, 0, elt);
    // One phase is the ring message for message: num_phases = count / (p·segcount), one more when
    // the remainder is ≥ p and more than half of p·segcount (:663-667); with one phase each block is
    // one segment, so every send, receive and reduction is the ring's (:341-537 vs :702-830).
    const std::size_t rem = count % ps;
    const std::size_t phases = count / ps + (rem >= static_cast<std::size_t>(nranks) && rem > ps / 2 ? 1 : 0);
    if (phases == 1) return ompi_runs_as(c, "ring", nranks, bytes, 0, elt);
    return name;
  }
  auto m = ompi_alphabeta(c, name, nranks, bytes, elt);
  return m && !m->runs_as.empty() ? m->runs_as : name;
}

std::vector<std::string> ompi_alphabeta_algorithms(Collective c) {
  std::vector<std::string> out;
  for (const auto& r : kRows)
    if (r.coll == c) out.emplace_back(r.name);
  return out;
}

}  // namespace ncdx::model::tune
