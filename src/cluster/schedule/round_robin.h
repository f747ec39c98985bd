#pragma once
// Pairwise schedules for the network matrix (docs/CLUSTER.md "Network matrix"): a round-robin
// tournament (the circle method) pairs every node with every other in N−1 rounds for even N
// (N rounds for odd N, one node sitting out each round), each node in at most one pair per
// round, so a round's pairs run in parallel without sharing an endpoint.
#include <cstddef>
#include <utility>
#include <vector>

namespace ncdx::cluster {

using Pair = std::pair<int, int>;  // (lower index, higher index)
using Round = std::vector<Pair>;

// Rounds for n nodes; empty for n < 2. Every unordered pair appears exactly once.
std::vector<Round> round_robin(int n);
// The partner of `node` in `round`, or -1 when it sits out.
int partner_in(const Round& round, int node);

}  // namespace ncdx::cluster
