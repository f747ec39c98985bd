// Which NCCL_ALGO/NCCL_PROTO setting, if any, reproduces ncdx's choices (nccl_env_choice.h).
#include "model/tune/nccl_env_choice.h"

#include <map>
#include <optional>
#include <set>

#include "core/strings.h"
#include "model/tune/nccl_model_tune.h"

namespace ncdx::model::tune {
namespace {

using cost::Collective;

const cost::Prediction& chosen(const ModelTuneBucket& b) { return b.rule ? b.best : b.nccl; }

// NCCL itself, given `vars`, picks the chosen entry in every bucket and, where the setting is
// global (< 2.24.3), keeps its own pick for the collectives not tuned.
bool reproduces(const std::vector<NcclEnvVar>& vars, const std::vector<ModelTuneBucket>& buckets, const cost::ClusterSpec& spec,
                const cost::NcclVersion& version, const cost::Options& base_opts, const std::vector<std::uint64_t>& sizes,
                bool per_function) {
  cost::Options o = base_opts;
  for (const auto& v : vars) (v.name == "NCCL_ALGO" ? o.nccl_algo : o.nccl_proto) = v.value;
  auto with = cost::Model::build(spec, version, o);
  auto base = cost::Model::build(spec, version, base_opts);
  if (!with.ok() || !base.ok()) return false;
  std::set<Collective> tuned;
  for (const auto& b : buckets) {
    tuned.insert(b.coll);
    if (!b.nccl.available) continue;
    auto p = with->predict(b.coll, b.bytes);
    if (!p.available || p.algo != chosen(b).algo || p.proto != chosen(b).proto) return false;
  }
  if (per_function) return true;
  for (int c = 0; c < cost::kNumNcclFuncs; ++c) {
    const auto coll = static_cast<Collective>(c);
    if (tuned.count(coll)) continue;
    for (auto s : sizes) {
      auto a = base->predict(coll, s), b = with->predict(coll, s);
      if (a.available != b.available || (a.available && (a.algo != b.algo || a.proto != b.proto))) return false;
    }
  }
  return true;
}

// The value that names one entry per ruled collective ("AllReduce:Tree;AllGather:Ring", or one
// global "Tree"), or nullopt when a ruled collective needs two.
template <class Get>
std::optional<std::string> value_of(const std::vector<ModelTuneBucket>& buckets, const std::set<Collective>& ruled, bool per_function,
                                    Get get) {
  std::map<Collective, std::set<std::string>> names;
  std::set<std::string> all;
  for (const auto& b : buckets)
    if (b.nccl.available && ruled.count(b.coll)) {
      names[b.coll].insert(get(chosen(b)));
      all.insert(get(chosen(b)));
    }
  if (!per_function) return all.size() == 1 ? std::optional<std::string>(*all.begin()) : std::nullopt;
  std::vector<std::string> parts;
  for (const auto& [c, set] : names) {
    if (set.size() != 1) return std::nullopt;
    parts.push_back(std::string(cost::nccl_name(c)) + ":" + *set.begin());
  }
  return core::join(parts, ";");
}

}  // namespace

EnvChoice choose_nccl_env(const std::vector<ModelTuneBucket>& buckets, const cost::ClusterSpec& spec, const cost::NcclVersion& version,
                          const cost::Options& nccl_options, const std::vector<std::uint64_t>& sizes) {
  std::set<Collective> ruled;
  for (const auto& b : buckets)
    if (b.rule) ruled.insert(b.coll);
  if (ruled.empty()) return {{}, "no rules: nothing to set"};
  if (!nccl_options.nccl_algo.empty() || !nccl_options.nccl_proto.empty())
    return {{}, "NCCL_ALGO/NCCL_PROTO are given (--algo/--proto, --nccl-log): an env file would replace them; use the tuner file"};
  const bool per_function = version.code() >= 22403;  // per-function syntax (algo_enable.cc)
  auto algo = value_of(buckets, ruled, per_function, [](const cost::Prediction& p) { return std::string(cost::name(p.algo)); });
  auto proto = value_of(buckets, ruled, per_function, [](const cost::Prediction& p) { return std::string(cost::name(p.proto)); });
  std::vector<std::vector<NcclEnvVar>> candidates;
  if (algo) candidates.push_back({{"NCCL_ALGO", *algo}});
  if (proto) candidates.push_back({{"NCCL_PROTO", *proto}});
  if (algo && proto) candidates.push_back({{"NCCL_ALGO", *algo}, {"NCCL_PROTO", *proto}});
  for (const auto& c : candidates) {
    if (!reproduces(c, buckets, spec, version, nccl_options, sizes, per_function)) continue;
    std::vector<std::string> kv;
    for (const auto& v : c) kv.push_back(v.name + "=" + v.value);
    return {c, "NCCL " + version.str() + " given " + core::join(kv, " ") +
                   " picks ncdx's choice in every bucket (replayed with the cost model at each bucket's size" +
                   (per_function ? "" : "; the collectives not tuned keep NCCL's pick") +
                   "); it also applies outside -b..-e, where nothing was checked"};
  }
  return {{}, "no single NCCL_ALGO/NCCL_PROTO setting makes NCCL pick ncdx's choice in every bucket: use the tuner file"};
}

}  // namespace ncdx::model::tune
