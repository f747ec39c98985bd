#include "model/cost/sweep.h"

namespace ncdx::model::cost {

std::vector<std::uint64_t> default_sizes() {
  std::vector<std::uint64_t> s;
  for (std::uint64_t b = 8; b <= (128ull << 20); b *= 2) s.push_back(b);  // nccl-tests -b 8 -e 128M -f 2
  return s;
}

core::Result<SweepResult> run_sweep(const SweepRequest& req) {
  auto m = Model::build(req.spec, req.version, req.options);
  if (!m.ok()) return m.status();
  SweepResult r;
  r.spec = req.spec;
  r.version = req.version;
  r.graphs = m->graphs();
  r.comm_channels = m->comm_channels();
  r.notes = m->notes();
  auto colls = req.collectives;
  if (colls.empty())
    colls = {Collective::AllReduce, Collective::AllGather, Collective::ReduceScatter, Collective::Broadcast, Collective::Reduce};
  auto sizes = req.sizes.empty() ? default_sizes() : req.sizes;
  r.rows.reserve(colls.size() * sizes.size());
  for (auto c : colls)
    for (auto b : sizes) {
      SweepRow row;
      row.prediction = m->predict(c, b);
      if (req.explain) row.cost = m->cost_table(c, b);
      r.rows.push_back(std::move(row));
    }
  return r;
}

}  // namespace ncdx::model::cost
