// Arrival skew per matched collective and the straggler verdict (parts.h). A rank's arrival is
// the start of its op (for Ray tasks, the end: when the worker reaches the driver's ray.get).
#include <algorithm>
#include <cmath>

#include "analyze/timeline/change_point.h"
#include "analyze/timeline/parts.h"

namespace ncdx::analyze::timeline::detail {

std::vector<Lateness> lateness(const std::vector<RankTrace>& ranks, const std::vector<Instance>& inst) {
  const std::size_t n = ranks.size();
  std::vector<Lateness> out(inst.size());
  std::vector<double> arr, second;
  for (std::size_t k = 0; k < inst.size(); ++k) {
    const Instance& in = inst[k];
    Lateness& l = out[k];
    arr.clear();
    double best = -1e300, next = -1e300;
    int who = -1;
    bool tie = false;
    l.first = INT64_MAX;
    l.end = INT64_MIN;
    for (std::size_t r = 0; r < n; ++r) {
      if (in.op[r] < 0) continue;
      const CommOp& op = ranks[r].comm[in.op[r]];
      double a = static_cast<double>(ranks[r].comm_source == CommSource::ray_task ? op.end : op.start);
      arr.push_back(a);
      l.first = std::min<Ns>(l.first, static_cast<Ns>(a));
      l.end = std::max(l.end, op.end);
      if (a > best) {
        next = best;
        best = a;
        who = static_cast<int>(r);
        tie = false;
      } else if (a == best) {
        tie = true;
        next = a;
      } else {
        next = std::max(next, a);
      }
    }
    double med = median(arr);
    if (arr.size() >= 3) second.push_back(std::max(0.0, next - med));
    if (who < 0 || tie || best - med <= 0) continue;
    l.who = who;
    l.delay = best - med;
    for (double a : arr) l.wait += best - a;
  }
  double typical;
  if (!second.empty()) {
    typical = median(second);
  } else {
    std::vector<double> d;
    for (const auto& l : out)
      if (l.who >= 0) d.push_back(l.delay);
    typical = median(d);
  }
  for (auto& l : out) l.big = l.who >= 0 && l.delay > 4 * typical && l.delay > 20000;
  return out;
}

std::vector<Straggler> find_stragglers(const std::vector<RankTrace>& ranks, const std::vector<Instance>& inst) {
  const std::size_t n = ranks.size();
  std::vector<Straggler> s(n);
  std::vector<int> big(n, 0);
  int total_big = 0;
  for (const Lateness& l : lateness(ranks, inst)) {
    if (l.who < 0) continue;
    Straggler& x = s[l.who];
    ++x.late_count;
    x.mean_delay_us += l.delay / 1000.0;
    x.wait_caused_us += l.wait / 1000.0;
    if (l.big) {
      ++big[l.who];
      ++total_big;
    }
  }
  for (auto& x : s) x.instances = static_cast<int>(inst.size());
  // Two ways to stand out, either suffices: late far more often than chance (binomial tail,
  // 5 sigma over instances/ranks), or owning most of the big delays.
  double expect = static_cast<double>(inst.size()) / static_cast<double>(std::max<std::size_t>(1, n));
  for (std::size_t r = 0; r < n; ++r) {
    s[r].rank = ranks[r].rank;
    if (s[r].late_count) s[r].mean_delay_us /= s[r].late_count;
    bool by_count = s[r].late_count >= std::max(5.0, expect + 5 * std::sqrt(expect));
    bool by_size = big[r] >= std::max(3.0, 0.05 * static_cast<double>(inst.size())) && big[r] * 2 > total_big;
    s[r].significant = (by_count || by_size) && s[r].mean_delay_us >= 20;
  }
  s.erase(std::remove_if(s.begin(), s.end(), [](const Straggler& x) { return x.late_count == 0; }), s.end());
  std::sort(s.begin(), s.end(), [](const Straggler& a, const Straggler& b) {
    if (a.significant != b.significant) return a.significant;
    if (a.wait_caused_us != b.wait_caused_us) return a.wait_caused_us > b.wait_caused_us;
    return a.rank < b.rank;
  });
  if (s.size() > 8) s.resize(8);
  return s;
}

}  // namespace ncdx::analyze::timeline::detail
