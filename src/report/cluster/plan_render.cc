#include "report/cluster/plan_render.h"

#include <fmt/format.h>

#include "measure/network/net_matrix.h"

namespace ncdx::report {

nlohmann::json render_plan_json(const analyze::ClusterPlan& p, bool timestamps) {
  nlohmann::json rounds = nlohmann::json::array();
  for (const auto& r : p.first_rounds) {
    nlohmann::json a = nlohmann::json::array();
    for (const auto& [x, y] : r) a.push_back({x, y});
    rounds.push_back(a);
  }
  return {{"schema", "ncdx.cluster-plan/1"},
          {"nodes", p.nodes},
          {"rounds", p.rounds},
          {"pairs", p.pairs},
          {"pairs_per_round", p.pairs_per_round},
          {"pair_budget_s", p.pair_budget_s},
          {"assumed_gbps", p.assumed_gbps},
          {"assumed_rtt_us", p.assumed_rtt_us},
          {"transport", p.transport},
          {"rails", p.rails},
          {"predicted_pair_s", p.predicted_pair_s},
          {"predicted_wall_s", p.predicted_wall_s},
          {"worst_wall_s", p.worst_wall_s},
          {"confirm_pairs", p.confirm_pairs},
          {"predicted_confirm_s", p.predicted_confirm_s},
          {"worst_confirm_s", p.worst_confirm_s},
          {"schedule_ms", timestamps ? nlohmann::json(p.schedule_ms) : nlohmann::json()},
          {"analysis_ms", timestamps ? nlohmann::json(p.analysis_ms) : nlohmann::json()},
          {"first_rounds", rounds}};
}

std::string render_plan_text(const analyze::ClusterPlan& p) {
  std::string out = fmt::format(
      "ncdx doctor --cluster --plan: {} nodes\n  {} rounds (round-robin), {} pairs, {} pairs in parallel per round\n"
      "  per-pair budget {:.1f} s; predicted pair {:.3f} s at an assumed {:g} Gb/s and {:g} µs round trip "
      "(--plan-gbps, --plan-rtt-us) → matrix ≈ {:.1f} s (worst case, a dead peer every round: {:.0f} s)\n",
      p.nodes, p.rounds, p.pairs, p.pairs_per_round, p.pair_budget_s, p.predicted_pair_s, p.assumed_gbps,
      p.assumed_rtt_us, p.predicted_wall_s, p.worst_wall_s);
  if (p.transport == "rdma")
    out += fmt::format("  RDMA: {} rail(s) a node, one after another: a ping-pong, then {} writes of {:g} MiB each way; "
                       "{:g} Gb/s is per rail (--plan-rails)\n",
                       p.rails, measure::kStreamsPerDirection, p.rdma_mib, p.assumed_gbps);
  if (p.confirm_pairs > 0)
    out += fmt::format("  confirmation, only when the matrix has suspects: at most {} pairs re-measured one at a time → "
                       "≈ {:.1f} s more (worst {:.0f} s)\n",
                       p.confirm_pairs, p.predicted_confirm_s, p.worst_confirm_s);
  out += fmt::format("  schedule built in {:.1f} ms, isolation on a synthetic {}-node matrix in {:.1f} ms\n",
                     p.schedule_ms, p.nodes, p.analysis_ms);
  for (std::size_t r = 0; r < p.first_rounds.size(); ++r) {
    out += "  round " + std::to_string(r + 1) + ":";
    std::size_t k = 0;
    for (const auto& [a, b] : p.first_rounds[r]) {
      if (++k > 8) {
        out += " …";
        break;
      }
      out += " " + std::to_string(a) + "-" + std::to_string(b);
    }
    out += "\n";
  }
  return out;
}

}  // namespace ncdx::report
