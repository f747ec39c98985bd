// Ray workers to ranks (ray_workers.h).
#include "analyze/timeline/ray_workers.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace ncdx::analyze::timeline::ray {

namespace {

// The function of each unnamed task: the task::<function> span on the same worker holding its end.
void name_tasks(Worker& w) {
  std::sort(w.spans.begin(), w.spans.end(), [](const Task& a, const Task& b) { return a.start < b.start; });
  for (Task& t : w.tasks) {
    if (t.func != 0) continue;
    auto it = std::upper_bound(w.spans.begin(), w.spans.end(), t.end, [](Ns v, const Task& s) { return v < s.start; });
    while (it != w.spans.begin()) {
      --it;
      if (it->end >= t.end && it->start <= t.start) {
        t.func = it->func;
        break;
      }
      if (it->end < t.start) break;
    }
  }
}

}  // namespace

void file_workers(std::vector<Worker>& workers, std::vector<RankTrace>& ranks) {
  struct Ref {
    Ns start, end;
    std::size_t w, t;
  };
  std::map<std::uint32_t, std::vector<Ref>> by_func;
  for (std::size_t w = 0; w < workers.size(); ++w) {
    name_tasks(workers[w]);
    for (std::size_t t = 0; t < workers[w].tasks.size(); ++t) {
      const Task& k = workers[w].tasks[t];
      by_func[k.func].push_back({k.start, k.end, w, t});
    }
  }
  // round[w][t]: the round of task t of worker w.
  std::vector<std::vector<std::int64_t>> round(workers.size());
  for (std::size_t w = 0; w < workers.size(); ++w) round[w].assign(workers[w].tasks.size(), 0);
  for (auto& [func, refs] : by_func) {
    std::sort(refs.begin(), refs.end(), [](const Ref& a, const Ref& b) { return std::tie(a.start, a.end) < std::tie(b.start, b.end); });
    std::int64_t k = -1;
    Ns max_end = INT64_MIN;
    for (const Ref& x : refs) {
      if (x.start > max_end) ++k;
      max_end = std::max(max_end, x.end);
      round[x.w][x.t] = k;
    }
  }
  for (std::size_t w = 0; w < workers.size(); ++w) {
    const auto& tasks = workers[w].tasks;
    RankTrace& r = ranks[w];
    // (function, round) → arrival (last end) and the span of the worker's tasks in it.
    std::map<std::pair<std::uint32_t, std::int64_t>, Span> arrivals;
    std::map<std::uint32_t, std::size_t> calls;
    for (std::size_t t = 0; t < tasks.size(); ++t) {
      auto [it, fresh] = arrivals.try_emplace({tasks[t].func, round[w][t]}, Span{tasks[t].start, tasks[t].end});
      if (!fresh) it->second = {std::min(it->second.start, tasks[t].start), std::max(it->second.end, tasks[t].end)};
      ++calls[tasks[t].func];
    }
    std::uint32_t main_func = 0;
    std::size_t most = 0;
    for (auto [f, n] : calls)
      if (n > most) most = n, main_func = f;
    for (const auto& [key, s] : arrivals) {
      CommOp op;
      op.start = op.end = s.end;  // a task's "arrival" is its end: ray.get waits for the last one
      op.coll = op.pg = key.first;
      op.seq = key.second;
      r.comm.push_back(op);
      if (key.first == main_func) r.steps.push_back({key.second, s.start, s.end});
    }
    std::stable_sort(r.comm.begin(), r.comm.end(), [](const CommOp& a, const CommOp& b) { return a.start < b.start; });
  }
}

}  // namespace ncdx::analyze::timeline::ray
