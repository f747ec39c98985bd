#include "cluster/schedule/round_robin.h"

#include <algorithm>

namespace ncdx::cluster {

std::vector<Round> round_robin(int n) {
  std::vector<Round> rounds;
  if (n < 2) return rounds;
  // Circle method: fix slot 0, rotate the others one step per round. An odd count gets a
  // phantom slot (index n) whose partner sits the round out.
  int m = n % 2 == 0 ? n : n + 1;
  std::vector<int> slot(m);
  for (int i = 0; i < m; ++i) slot[i] = i;
  rounds.reserve(m - 1);
  for (int r = 0; r < m - 1; ++r) {
    Round round;
    round.reserve(m / 2);
    for (int i = 0; i < m / 2; ++i) {
      int a = slot[i], b = slot[m - 1 - i];
      if (a >= n || b >= n) continue;
      round.emplace_back(std::min(a, b), std::max(a, b));
    }
    std::sort(round.begin(), round.end());
    rounds.push_back(std::move(round));
    std::rotate(slot.begin() + 1, slot.end() - 1, slot.end());
  }
  return rounds;
}

int partner_in(const Round& round, int node) {
  for (const auto& [a, b] : round) {
    if (a == node) return b;
    if (b == node) return a;
  }
  return -1;
}

}  // namespace ncdx::cluster
