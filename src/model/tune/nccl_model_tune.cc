// The per-bucket decision of `ncdx tune --model` (nccl_model_tune.h): NCCL's pick, ncdx's best
// enabled entry, the gain threshold at the bucket's size and the no-loss check at its edges.
#include "model/tune/nccl_model_tune.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <tuple>

#include "model/tune/nccl_env_choice.h"

namespace ncdx::model::tune {
namespace {

using cost::Algo;
using cost::Collective;
using cost::Proto;

std::string entry_name(const cost::Prediction& p) { return std::string(cost::name(p.algo)) + "/" + std::string(cost::name(p.proto)); }

bool same_entry(const cost::Prediction& a, const cost::Prediction& b) { return a.algo == b.algo && a.proto == b.proto; }

std::string pct(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f %%", 100.0 * x);
  return buf;
}

std::string us(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f us", x);
  return buf;
}

measure::Collective measure_coll(Collective c) {
  switch (c) {
    case Collective::Broadcast: return measure::Collective::broadcast;
    case Collective::Reduce: return measure::Collective::reduce;
    case Collective::AllGather: return measure::Collective::allgather;
    case Collective::ReduceScatter: return measure::Collective::reducescatter;
    default: return measure::Collective::allreduce;
  }
}

// ncdx's fastest entry that NCCL's own table enables; NCCL's pick wins ties.
cost::Prediction best_entry(const cost::Model& nccl, const cost::Model& ncdx, Collective c, std::uint64_t bytes,
                            const cost::Prediction& pick) {
  cost::Prediction best = pick;
  for (int a = 0; a < cost::kNumAlgos; ++a)
    for (int p = 0; p < cost::kNumProtos; ++p) {
      const auto algo = static_cast<Algo>(a);
      const auto proto = static_cast<Proto>(p);
      const auto own = nccl.predict_entry(c, bytes, algo, proto);
      if (!own.available) continue;
      auto e = ncdx.predict_entry(c, bytes, algo, proto);
      e.nccl_time_us = own.nccl_time_us;  // NCCL's own (uncalibrated) estimate, as for its pick
      if (e.available && e.time_us < best.time_us) best = e;
    }
  return best;
}

// 1 - ncdx's time for `entry` / ncdx's time for NCCL's pick, at `bytes`.
double gain_at(const cost::Model& nccl, const cost::Model& ncdx, Collective c, std::uint64_t bytes, const cost::Prediction& entry) {
  auto pick = nccl.predict(c, bytes);
  if (!pick.available) return 0;
  auto t_pick = ncdx.predict_entry(c, bytes, pick.algo, pick.proto).time_us;
  auto t_entry = ncdx.predict_entry(c, bytes, entry.algo, entry.proto).time_us;
  return t_pick > 0 ? 1.0 - t_entry / t_pick : 0;
}

void decide(ModelTuneBucket& b, const cost::Model& nccl, const cost::Model& ncdx, double min_gain) {
  const auto pick = nccl.predict(b.coll, b.bytes);
  b.nccl = pick;
  b.best = pick;
  if (!pick.available) {
    b.why = pick.note.empty() ? "no entry available" : pick.note;
    return;
  }
  b.nccl = ncdx.predict_entry(b.coll, b.bytes, pick.algo, pick.proto);
  if (!b.nccl.available) {  // 2.19-2.23 Ring backup: NCCL_ALGO left nothing, NCCL runs Ring anyway
    b.nccl = pick;
    b.why = pick.note + ": not tuned";
    return;
  }
  b.nccl.nccl_time_us = pick.nccl_time_us;  // NCCL's own estimate (uncalibrated)
  b.best = best_entry(nccl, ncdx, b.coll, b.bytes, b.nccl);
  b.gain = b.nccl.time_us > 0 ? 1.0 - b.best.time_us / b.nccl.time_us : 0;
  b.edge_gain = b.gain;
  if (same_entry(b.best, b.nccl)) {
    b.why = "ncdx's model agrees with NCCL's pick";
    return;
  }
  const std::string versus = entry_name(b.best) + " " + us(b.best.time_us) + " vs NCCL's " + entry_name(b.nccl) + " " + us(b.nccl.time_us);
  if (b.gain < min_gain) {
    b.why = versus + ": " + pct(b.gain) + " faster, below the " + pct(min_gain) + " threshold";
    return;
  }
  for (std::uint64_t edge : {b.min_bytes, b.max_bytes})
    if (edge != b.bytes) b.edge_gain = std::min(b.edge_gain, gain_at(nccl, ncdx, b.coll, edge, b.best));
  if (b.edge_gain < 0) {
    b.why = versus + ", but slower than NCCL's pick at an edge of the bucket (" + pct(b.edge_gain) + ")";
    return;
  }
  b.rule = true;
  b.why = versus + " (" + pct(b.gain) + " faster, predicted)";
}

std::vector<NcclTunerRule> merged_rules(const std::vector<ModelTuneBucket>& buckets, const cost::ClusterSpec& spec) {
  std::vector<NcclTunerRule> out;
  const ModelTuneBucket* prev = nullptr;
  for (const auto& b : buckets) {
    if (!b.rule) {
      prev = nullptr;
      continue;
    }
    if (prev && prev->coll == b.coll && same_entry(prev->best, b.best) && out.back().max_bytes + 1 == b.min_bytes) {
      out.back().max_bytes = b.max_bytes;
    } else {
      NcclTunerRule r;
      r.coll = measure_coll(b.coll);
      r.min_bytes = b.min_bytes;
      r.max_bytes = b.max_bytes;
      r.algo = std::string(cost::name(b.best.algo));
      r.proto = std::string(cost::name(b.best.proto));
      r.nnodes = spec.nodes;
      r.nranks = spec.nranks();
      out.push_back(r);
    }
    prev = &b;
  }
  return out;
}

}  // namespace

std::pair<std::uint64_t, std::uint64_t> bucket_bounds(const std::vector<std::uint64_t>& s, std::size_t i) {
  auto mid = [&](std::size_t a) {  // floor of the geometric midpoint of s[a] and s[a + 1]
    return static_cast<std::uint64_t>(std::floor(std::sqrt(static_cast<long double>(s[a])) * std::sqrt(static_cast<long double>(s[a + 1]))));
  };
  std::uint64_t lo = i == 0 ? s[0] : std::max(mid(i - 1) + 1, s[i - 1] + 1);
  std::uint64_t hi = i + 1 == s.size() ? s[i] : std::max(std::min(mid(i), s[i + 1] - 1), s[i]);
  return {std::min(lo, s[i]), hi};
}

core::Result<ModelTuneResult> tune_from_model(const ModelTuneRequest& req) {
  if (req.sizes.empty() || req.sizes.front() == 0) return core::Status::usage("sizes must be >= 1 byte");
  for (std::size_t i = 1; i < req.sizes.size(); ++i)
    if (req.sizes[i] <= req.sizes[i - 1]) return core::Status::usage("sizes must be strictly ascending");
  if (!(req.min_gain > 0 && req.min_gain < 1)) return core::Status::usage("the gain threshold must be between 0 and 100 %");
  cost::Options nccl_opts = req.options;
  nccl_opts.bw_scale = 1.0;
  nccl_opts.lat_scale = 1.0;
  auto nccl = cost::Model::build(req.spec, req.version, nccl_opts);
  if (!nccl.ok()) return nccl.status();
  auto ncdx = cost::Model::build(req.spec, req.version, req.options);
  if (!ncdx.ok()) return ncdx.status();
  std::vector<Collective> colls = req.collectives;
  if (colls.empty()) colls = {Collective::AllReduce, Collective::AllGather, Collective::ReduceScatter, Collective::Broadcast, Collective::Reduce};
  ModelTuneResult out;
  for (auto c : colls) {
    if (static_cast<int>(c) >= cost::kNumNcclFuncs)
      return core::Status::usage(std::string(cost::name(c)) + " runs as point-to-point: NCCL asks no tuner about it");
    for (std::size_t i = 0; i < req.sizes.size(); ++i) {
      ModelTuneBucket b;
      b.coll = c;
      b.bytes = req.sizes[i];
      std::tie(b.min_bytes, b.max_bytes) = bucket_bounds(req.sizes, i);
      decide(b, *nccl, *ncdx, req.min_gain);
      out.buckets.push_back(std::move(b));
    }
  }
  out.rules = merged_rules(out.buckets, req.spec);
  auto env = choose_nccl_env(out.buckets, req.spec, req.version, nccl_opts, req.sizes);
  out.env = std::move(env.vars);
  out.env_why = std::move(env.why);
  return out;
}

}  // namespace ncdx::model::tune
