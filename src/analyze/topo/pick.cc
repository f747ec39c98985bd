#include "analyze/topo/pick.h"

#include <algorithm>
#include <set>
#include <tuple>

namespace ncdx::analyze {

using probe::Link;
using probe::LinkType;

namespace {

constexpr std::size_t kMaxSubsets = 2000000;

// Nearest NICs of a GPU: all NICs at the best known path rank.
std::pair<std::vector<std::size_t>, Link> nearest_nics(const probe::TopoMatrix& m, std::size_t g) {
  std::vector<std::size_t> best;
  Link best_link;
  for (std::size_t n = 0; n < m.nics.size(); ++n) {
    const Link& l = m.gpu_nic(g, n);
    if (!l.known()) continue;
    if (best.empty() || probe::rank(l) < probe::rank(best_link)) {
      best = {n};
      best_link = l;
    } else if (probe::rank(l) == probe::rank(best_link)) {
      best.push_back(n);
    }
  }
  return {best, best_link};
}

std::size_t choose(std::size_t n, std::size_t k) {
  long double r = 1;
  for (std::size_t i = 1; i <= k; ++i) r = r * static_cast<long double>(n - k + i) / static_cast<long double>(i);
  return r > 1e18L ? static_cast<std::size_t>(-1) : static_cast<std::size_t>(r + 0.5L);
}

bool ib_verbs_name(const std::string& n) {
  // EFA devices (rdmap*) and plain netdevs (eth*, ens*) are not selected through NCCL_IB_HCA.
  return !n.empty() && n.rfind("rdmap", 0) != 0 && n.rfind("eth", 0) != 0 && n.rfind("ens", 0) != 0 &&
         n.rfind("enp", 0) != 0;
}

}  // namespace

TopoScore score_subset(const probe::TopoMatrix& m, const std::vector<std::size_t>& gpus) {
  TopoScore s;
  s.worst = Link{LinkType::self, 0};
  std::set<int> numa;
  for (std::size_t i = 0; i < gpus.size(); ++i) {
    if (m.gpus[gpus[i]].numa_node) numa.insert(*m.gpus[gpus[i]].numa_node);
    if (!m.nics.empty()) {
      auto [nics, link] = nearest_nics(m, gpus[i]);
      s.nic_rank_sum += probe::rank(link);
    }
    for (std::size_t j = i + 1; j < gpus.size(); ++j) {
      const Link& l = m.gpu_gpu(gpus[i], gpus[j]);
      if (probe::rank(l) > s.worst_rank || (probe::rank(l) == s.worst_rank && l.nvlinks < s.worst.nvlinks))
        s.worst_rank = probe::rank(l), s.worst = l;
      s.nvlinks += l.nvlinks;
    }
  }
  s.numa_nodes = static_cast<int>(numa.size());
  return s;
}

bool better(const TopoScore& a, const TopoScore& b) {
  return std::make_tuple(a.worst_rank, -a.nvlinks, a.numa_nodes, a.nic_rank_sum) <
         std::make_tuple(b.worst_rank, -b.nvlinks, b.numa_nodes, b.nic_rank_sum);
}

core::Result<TopoPick> pick_gpus(const probe::TopoMatrix& m, int k_in) {
  const std::size_t n = m.gpus.size();
  if (k_in < 1 || static_cast<std::size_t>(k_in) > n)
    return core::Status::usage("--pick " + std::to_string(k_in) + ": the topology has " + std::to_string(n) +
                               " GPUs; pick 1.." + std::to_string(n));
  const auto k = static_cast<std::size_t>(k_in);
  TopoPick p;
  std::vector<std::size_t> best;
  TopoScore best_score;
  if (choose(n, k) <= kMaxSubsets) {
    // Lexicographic enumeration, so on equal scores the first (lowest indices) wins.
    std::vector<std::size_t> cur(k);
    for (std::size_t i = 0; i < k; ++i) cur[i] = i;
    for (;;) {
      auto s = score_subset(m, cur);
      ++p.candidates;
      if (best.empty() || better(s, best_score)) best = cur, best_score = s;
      std::size_t i = k;
      while (i > 0 && cur[i - 1] == n - k + (i - 1)) --i;
      if (i == 0) break;
      ++cur[i - 1];
      for (std::size_t j = i; j < k; ++j) cur[j] = cur[j - 1] + 1;
    }
  } else {
    // Greedy: from each start GPU, add the GPU that keeps the best score.
    p.exhaustive = false;
    for (std::size_t start = 0; start < n; ++start) {
      std::vector<std::size_t> cur{start};
      while (cur.size() < k) {
        std::optional<std::size_t> pick;
        TopoScore ps;
        for (std::size_t g = 0; g < n; ++g) {
          if (std::find(cur.begin(), cur.end(), g) != cur.end()) continue;
          auto trial = cur;
          trial.push_back(g);
          auto s = score_subset(m, trial);
          ++p.candidates;
          if (!pick || better(s, ps)) pick = g, ps = s;
        }
        cur.push_back(*pick);
      }
      std::sort(cur.begin(), cur.end());
      auto s = score_subset(m, cur);
      if (best.empty() || better(s, best_score) || (!better(best_score, s) && cur < best)) best = cur, best_score = s;
    }
    p.warnings.push_back("too many subsets to compare them all; a greedy search chose this one");
  }
  p.gpus = best;
  p.score = best_score;

  std::set<std::string> hca;
  bool all_ib = true;
  for (auto g : best) {
    GpuBinding b;
    b.gpu = m.gpus[g].index;
    b.cpus = m.gpus[g].cpu_affinity;
    b.numa_node = m.gpus[g].numa_node;
    auto [nics, link] = nearest_nics(m, g);
    b.nics = nics;
    b.nic_link = link;
    if (!m.nics.empty() && link.known() && probe::rank(link) > probe::rank(Link{LinkType::pxb, 0}))
      p.warnings.push_back("GPU" + std::to_string(b.gpu) + "'s nearest NIC is " + probe::to_string(link) +
                           ": NCCL uses GPUDirect RDMA only up to PXB by default (NCCL_NET_GDR_LEVEL)");
    if (probe::rank(link) <= probe::rank(Link{LinkType::pxb, 0}))
      for (auto x : nics) {
        const auto& name = m.nics[x].name;
        if (name.empty()) {
          all_ib = false;
          continue;
        }
        hca.insert(name);
        all_ib &= ib_verbs_name(name);
      }
    p.bindings.push_back(b);
  }
  p.hca.assign(hca.begin(), hca.end());
  p.hca_applies = !p.hca.empty() && all_ib;
  if (!m.nvlink_known && k > 1)
    p.warnings.push_back("the topology source lists no NVLinks: GPUs were ranked by PCIe path only");
  if (best_score.worst_rank >= probe::rank(Link{LinkType::sys, 0}) && k > 1)
    p.warnings.push_back("the chosen GPUs still talk across the CPU interconnect (SYS); no better subset exists");
  if (best_score.numa_nodes > 1)
    p.warnings.push_back("the chosen GPUs span " + std::to_string(best_score.numa_nodes) +
                         " NUMA nodes: bind each rank to its own GPU's node, not one node for all");
  return p;
}

}  // namespace ncdx::analyze
