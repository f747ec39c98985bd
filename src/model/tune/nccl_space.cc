#include "model/tune/nccl_space.h"

#include <algorithm>

#include "model/cost/algo_enable.h"

namespace ncdx::model::tune {

int nccl_id(const NcclPair& p) { return 1 + static_cast<int>(p.algo) * cost::kNumProtos + static_cast<int>(p.proto); }

std::optional<NcclPair> nccl_pair(int id) {
  if (id < 1 || id > cost::kNumAlgos * cost::kNumProtos) return std::nullopt;
  return NcclPair{static_cast<cost::Algo>((id - 1) / cost::kNumProtos), static_cast<cost::Proto>((id - 1) % cost::kNumProtos)};
}

core::Result<SearchSpace> nccl_space(measure::Collective c, const cost::NcclVersion& v, int nranks, int nodes,
                                     const std::vector<int>& channels) {
  auto cc = cost::parse_collective(measure::name_of(c));
  if (!cc || static_cast<int>(*cc) >= cost::kNumNcclFuncs)
    return core::Status::usage(std::string(measure::name_of(c)) + " runs as NCCL point-to-point: NCCL_ALGO/NCCL_PROTO do not apply");
  SearchSpace sp;
  for (int a = 0; a < cost::kNumAlgos; ++a) {
    const auto algo = static_cast<cost::Algo>(a);
    if (!cost::algo_known(algo, v) || !cost::algo_runs(*cc, algo, v)) continue;
    if (algo == cost::Algo::Pat && nodes > 0 && nodes != nranks) continue;
    if (algo == cost::Algo::NvlsTree && nodes == 1) continue;
    for (int p = 0; p < cost::kNumProtos; ++p) {
      const auto proto = static_cast<cost::Proto>(p);
      if (!cost::proto_runs(algo, proto)) continue;
      NcclPair pair{algo, proto};
      sp.cands.push_back({nccl_id(pair), nccl_label({nccl_id(pair), 0}), !channels.empty()});
    }
  }
  sp.knobs = channels;
  return sp;
}

std::string nccl_label(const Config& c) {
  auto p = nccl_pair(c.alg);
  if (!p) return "default";
  std::string s = std::string(cost::name(p->algo)) + "/" + std::string(cost::name(p->proto));
  if (c.knob > 0) s += "/" + std::to_string(c.knob) + "ch";
  return s;
}

const std::vector<std::string>& nccl_controlled_env() {
  static const std::vector<std::string> v{"NCCL_ALGO", "NCCL_PROTO", "NCCL_MIN_NCHANNELS", "NCCL_MAX_NCHANNELS",
                                          "NCCL_TUNER_PLUGIN", "NCDX_TUNER_FILE"};
  return v;
}

measure::TrialEnv nccl_env(const Config& c) {
  measure::TrialEnv e;
  e.unset = nccl_controlled_env();
  if (auto p = nccl_pair(c.alg)) {
    e.set.emplace_back("NCCL_ALGO", std::string(cost::name(p->algo)));
    e.set.emplace_back("NCCL_PROTO", std::string(cost::name(p->proto)));
  }
  if (c.knob > 0) {
    e.set.emplace_back("NCCL_MIN_NCHANNELS", std::to_string(c.knob));
    e.set.emplace_back("NCCL_MAX_NCHANNELS", std::to_string(c.knob));
  }
  return e;
}

SearchOptions nccl_search_options(SearchOptions o) {
  o.tie_guard = true;
  o.min_gain = std::max(o.min_gain, o.worth_confirming);
  return o;
}

std::optional<cost::NcclVersion> nccl_version_of(const std::string& library) {
  const std::string p = "NCCL ";
  if (library.rfind(p, 0) != 0) return std::nullopt;
  std::string v = library.substr(p.size());
  return cost::NcclVersion::parse(v.substr(0, v.find(' ')));  // "2.27.7 (/path/libnccl.so.2)"
}

}  // namespace ncdx::model::tune
