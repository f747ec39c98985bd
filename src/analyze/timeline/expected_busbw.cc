// set_expectation and group_spec (expected_busbw.h).
#include "analyze/timeline/expected_busbw.h"

#include <map>
#include <memory>

#include "model/cost/predict.h"
#include "model/cost/spec_parse.h"

namespace ncdx::analyze::timeline {
namespace mc = model::cost;

std::optional<mc::ClusterSpec> group_spec(const mc::ClusterSpec& spec, int n) {
  if (n < 1 || n == spec.nranks()) return spec;
  if (n > spec.nranks()) return std::nullopt;
  mc::ClusterSpec g = spec;
  if (n <= spec.gpus_per_node) {
    g.nodes = 1;
    g.gpus_per_node = n;
    return g;
  }
  if (n % spec.gpus_per_node != 0) return std::nullopt;
  g.nodes = n / spec.gpus_per_node;
  return g;
}

core::Status set_expectation(TimelineOptions& o, const mc::ClusterSpec& spec, const mc::NcclVersion& version) {
  auto whole = mc::Model::build(spec, version);
  if (!whole.ok()) return whole.status();
  // One model per group size (the tables depend on the ranks), built when first asked for.
  auto models = std::make_shared<std::map<int, std::optional<mc::Model>>>();
  models->emplace(spec.nranks(), std::move(*whole));
  o.expected_busbw = [models, spec, version](std::string_view coll, std::uint64_t bytes, int n) -> std::optional<double> {
    auto c = mc::parse_collective(coll);
    if (!c) return std::nullopt;
    auto g = group_spec(spec, n);
    if (!g) return std::nullopt;
    auto it = models->find(g->nranks());
    if (it == models->end()) {
      auto m = mc::Model::build(*g, version);
      it = models->emplace(g->nranks(), m.ok() ? std::optional<mc::Model>(std::move(*m)) : std::nullopt).first;
    }
    if (!it->second) return std::nullopt;
    auto p = it->second->predict(*c, bytes);
    if (!p.available || !(p.busbw_gbps > 0)) return std::nullopt;
    return p.busbw_gbps;
  };
  o.expectation = "ncdx model (NCCL " + version.str() + ") on " + mc::describe(spec);
  return {};
}

}  // namespace ncdx::analyze::timeline
