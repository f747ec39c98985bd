#include "model/tune/ompi_alphabeta.h"

#include <algorithm>
#include <cmath>

namespace ncdx::model::tune {

namespace {

using measure::Collective;

// c1 + cL·L + cP·(P−1) + cH·P/2 + cF·(P−1)/P, with P the rank count the algorithm's core runs
// on and L = log2 P (rounded up when P is not a power of two).
struct Poly {
  double one = 0, log = 0, pm1 = 0, half = 0, frac = 0;
  double at(double P, double L) const { return one + log * L + pm1 * (P - 1) + half * P / 2 + frac * (P - 1) / P; }
};

// Ranks::pof2: the algorithm runs its core on the largest power of two ≤ p and the other ranks
// join through a pre- and a post-step (`extra_*`, added only when p is not a power of two).
enum class Ranks { all, pof2 };
// Open MPI's own fallbacks (it silently runs another algorithm): below p elements, below pof2
// elements, at a rank count that is not a power of two, at an odd rank count, always (at the
// default segment size).
enum class Fallback { none, count_lt_p, count_lt_pof2, not_pow2, odd, always };
// Tree broadcasts: the critical path of Open MPI's tree, walked (see tree_cost).
enum class Tree { none, bmtree };

struct Row {
  Collective coll;
  const char* name;
  Ranks ranks;
  Poly alpha, beta, gamma;              // α steps; β and γ bytes per byte of `bytes`
  Poly extra_alpha, extra_beta, extra_gamma;
  Fallback fallback;
  const char* fallback_to;
  Tree tree;
};

constexpr Poly P0{};

// The table. Sources are Open MPI v4.1.4, ompi/mca/coll/base/ (the algorithms `coll_tuned_<coll>
// _algorithm` selects, coll_tuned_<coll>_decision.c), and Thakur et al. 2005 for the step counts.
const Row kRows[] = {
    // coll_base_allreduce.c ompi_coll_base_allreduce_intra_basic_linear: basic-linear reduce to
    // rank 0 (blocking receives one after the other, each reduced before the next is posted:
    // (p−1)(α + nβ + nγ)), then a basic-linear bcast (p−1 concurrent isends on rank 0's link:
    // α + (p−1)nβ).
    {Collective::allreduce, "basic_linear", Ranks::all, {1, 0, 1, 0, 0}, {0, 0, 2, 0, 0}, {0, 0, 1, 0, 0}, P0, P0, P0,
     Fallback::none, "", Tree::none},
    // ..._intra_recursivedoubling: log2 p rounds of a full-buffer exchange and a reduction
    // (Thakur §4.1: lg p·α + n lg p·β + n lg p·γ); other rank counts fold the first 2r ranks in
    // pairs before and send the result back after (+2α + 2nβ + nγ).
    {Collective::allreduce, "recursive_doubling", Ranks::pof2, {0, 1, 0, 0, 0}, {0, 1, 0, 0, 0}, {0, 1, 0, 0, 0},
     {2, 0, 0, 0, 0}, {2, 0, 0, 0, 0}, {1, 0, 0, 0, 0}, Fallback::none, "", Tree::none},
    // ..._intra_ring: reduce-scatter then allgather on a ring, 2(p−1) steps of one block (n/p);
    // each received block is reduced before it is sent on: 2(p−1)α + 2(p−1)/p·nβ + (p−1)/p·nγ
    // (Thakur §4.1, ring allgather §3.1). count < p runs recursive doubling (line 371).
    {Collective::allreduce, "ring", Ranks::all, {0, 0, 2, 0, 0}, {0, 0, 0, 0, 2}, {0, 0, 0, 0, 1}, P0, P0, P0,
     Fallback::count_lt_p, "recursive_doubling", Tree::none},
    // ..._intra_ring_segmented: with the default segment size (0) segcount = count, so
    // count < size·segcount always holds and it runs the ring (line 656).
    {Collective::allreduce, "segmented_ring", Ranks::all, P0, P0, P0, P0, P0, P0, Fallback::always, "ring", Tree::none},
    // ..._intra_redscat_allgather (Rabenseifner): recursive-halving reduce-scatter and
    // recursive-doubling allgather, 2 lg p·α + 2(p−1)/p·nβ + (p−1)/p·nγ (Thakur §4.1); other rank
    // counts fold in pairs first (+2α + 2nβ + nγ); count < pof2 runs recursive doubling (line 988).
    {Collective::allreduce, "rabenseifner", Ranks::pof2, {0, 2, 0, 0, 0}, {0, 0, 0, 0, 2}, {0, 0, 0, 0, 1},
     {2, 0, 0, 0, 0}, {2, 0, 0, 0, 0}, {1, 0, 0, 0, 0}, Fallback::count_lt_pof2, "recursive_doubling", Tree::none},

    // coll_base_bcast.c ompi_coll_base_bcast_intra_basic_linear: the root isends to all p−1
    // ranks at once; they share its link: α + (p−1)nβ.
    {Collective::broadcast, "basic_linear", Ranks::all, {1, 0, 0, 0, 0}, {0, 0, 1, 0, 0}, P0, P0, P0, P0, Fallback::none, "",
     Tree::none},
    // ..._intra_pipeline with the default segment size (0: one segment) is a chain of fan-out 1:
    // p−1 hops of the whole buffer, (p−1)(α + nβ).
    {Collective::broadcast, "pipeline", Ranks::all, {0, 0, 1, 0, 0}, {0, 0, 1, 0, 0}, P0, P0, P0, P0, Fallback::none, "",
     Tree::none},
    // ..._intra_binomial: ompi_coll_base_bcast_intra_generic on the binomial tree
    // (coll_base_topo.c ompi_coll_base_topo_build_bmtree); unsegmented, each node isends the
    // whole buffer to all its children at once and waits for all, so a node with k children
    // takes α + k·nβ. Not Thakur's ⌈lg p⌉(α + nβ), which assumes one send after the other: for
    // p = 2^L the critical path is L·α + L(L+1)/2·nβ.
    {Collective::broadcast, "binomial", Ranks::all, P0, P0, P0, P0, P0, P0, Fallback::none, "", Tree::bmtree},
    // ..._intra_scatter_allgather: binomial scatter (blocking sends of n/2, n/4, … from the root:
    // lg p·α + (p−1)/p·nβ) then recursive-doubling allgather (lg p·α + (p−1)/p·nβ) — van de
    // Geijn's broadcast, Thakur §3.2; count < p runs basic_linear. For p not a power of two
    // Open MPI adds halving steps inside the allgather; L rounded up is the model there.
    {Collective::broadcast, "scatter_allgather", Ranks::all, {0, 2, 0, 0, 0}, {0, 0, 0, 0, 2}, P0, P0, P0, P0,
     Fallback::count_lt_p, "basic_linear", Tree::none},
    // ..._intra_scatter_allgather_ring: the same scatter, then a ring allgather:
    // (lg p + p − 1)α + 2(p−1)/p·nβ (Thakur §3.2); count < p runs basic_linear.
    {Collective::broadcast, "scatter_allgather_ring", Ranks::all, {0, 1, 1, 0, 0}, {0, 0, 0, 0, 2}, P0, P0, P0, P0,
     Fallback::count_lt_p, "basic_linear", Tree::none},

    // coll_base_allgather.c (n = the gathered buffer, p blocks of n/p).
    // ..._intra_bruck: ⌈lg p⌉ steps, blocks 1, 2, 4, … : ⌈lg p⌉α + (p−1)/p·nβ (Thakur §3.1;
    // the final local rotation is a memory copy, not counted).
    {Collective::allgather, "bruck", Ranks::all, {0, 1, 0, 0, 0}, {0, 0, 0, 0, 1}, P0, P0, P0, P0, Fallback::none, "",
     Tree::none},
    // ..._intra_recursivedoubling: lg p·α + (p−1)/p·nβ; not a power of two runs Bruck (line 275).
    {Collective::allgather, "recursive_doubling", Ranks::all, {0, 1, 0, 0, 0}, {0, 0, 0, 0, 1}, P0, P0, P0, P0,
     Fallback::not_pow2, "bruck", Tree::none},
    // ..._intra_ring: (p−1)α + (p−1)/p·nβ (Thakur §3.1).
    {Collective::allgather, "ring", Ranks::all, {0, 0, 1, 0, 0}, {0, 0, 0, 0, 1}, P0, P0, P0, P0, Fallback::none, "",
     Tree::none},
    // ..._intra_neighborexchange: p/2 steps (one block, then two per step): (p/2)α + (p−1)/p·nβ;
    // odd p runs the ring (line 499).
    {Collective::allgather, "neighbor", Ranks::all, {0, 0, 0, 1, 0}, {0, 0, 0, 0, 1}, P0, P0, P0, P0, Fallback::odd, "ring",
     Tree::none},
    // ..._intra_two_procs: one exchange of n/2 (2 ranks only).
    {Collective::allgather, "two_proc", Ranks::all, {1, 0, 0, 0, 0}, {0, 0, 0, 0, 1}, P0, P0, P0, P0, Fallback::none, "",
     Tree::none},
};

const Row* find(Collective c, const std::string& name) {
  for (const auto& r : kRows)
    if (r.coll == c && name == r.name) return &r;
  return nullptr;
}

bool pow2(int p) { return p > 0 && (p & (p - 1)) == 0; }
int floor_pow2(int p) {
  int q = 1;
  while (q * 2 <= p) q *= 2;
  return q;
}
double ceil_log2(int p) {
  int l = 0;
  while ((1 << l) < p) ++l;
  return l;
}

// Critical path of a tree broadcast in which every node isends to all its children at once:
// the children of a node with k children all receive α + k·nβ after it did. Returns the
// deepest leaf by β bytes (then α steps), the term that dominates at the sizes the model is for.
AlphaBetaCost tree_cost(Tree t, int p) {
  std::vector<int> parent(static_cast<std::size_t>(p), -1), kids(static_cast<std::size_t>(p), 0);
  if (t == Tree::bmtree) {
    // ompi_coll_base_topo_build_bmtree, root 0: index i's children are i ^ mask for mask from
    // opal_next_poweroftwo(i) (the smallest power of two > i; 1 for 0) while i ^ mask < p.
    for (int i = 0; i < p; ++i) {
      int mask = 1;
      while (mask <= i) mask <<= 1;
      for (; mask < p && (i ^ mask) < p; mask <<= 1) {
        parent[static_cast<std::size_t>(i ^ mask)] = i;
        ++kids[static_cast<std::size_t>(i)];
      }
    }
  }
  AlphaBetaCost worst;
  for (int v = 1; v < p; ++v) {
    double a = 0, b = 0;
    for (int u = v; parent[static_cast<std::size_t>(u)] >= 0; u = parent[static_cast<std::size_t>(u)]) {
      a += 1;
      b += kids[static_cast<std::size_t>(parent[static_cast<std::size_t>(u)])];
    }
    if (b > worst.beta_bytes || (b == worst.beta_bytes && a > worst.alpha_steps)) {
      worst.alpha_steps = a;
      worst.beta_bytes = b;
    }
  }
  return worst;
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
  const double n = static_cast<double>(bytes);
  if (r->tree != Tree::none) {
    out = tree_cost(r->tree, p);
    out.algorithm = name;
    out.beta_bytes *= n;
    return out;
  }
  const int P = r->ranks == Ranks::pof2 ? floor_pow2(p) : p;
  const double L = ceil_log2(P);
  out.alpha_steps = r->alpha.at(P, L);
  out.beta_bytes = r->beta.at(P, L) * n;
  out.gamma_bytes = r->gamma.at(P, L) * n;
  if (r->ranks == Ranks::pof2 && P != p) {
    out.alpha_steps += r->extra_alpha.at(P, L);
    out.beta_bytes += r->extra_beta.at(P, L) * n;
    out.gamma_bytes += r->extra_gamma.at(P, L) * n;
  }
  return out;
}

std::vector<std::string> ompi_alphabeta_algorithms(Collective c) {
  std::vector<std::string> out;
  for (const auto& r : kRows)
    if (r.coll == c) out.emplace_back(r.name);
  return out;
}

}  // namespace ncdx::model::tune
