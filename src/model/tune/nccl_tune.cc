#include "model/tune/nccl_tune.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>

#include "core/atomic_file.h"
#include "core/log.h"
#include "model/tune/nccl_space.h"
#include "model/tune/nccl_tuner_file.h"
#include "model/tune/tune_validation.h"

namespace ncdx::model::tune {

namespace {

namespace fs = std::filesystem;
using measure::TrialEnv;

MeasureFn measure_with(const NcclTuneOptions& o, measure::Collective c) {
  return [&o, c](const Config& cfg, const std::vector<std::size_t>& sizes) -> core::Result<std::map<std::size_t, Sample>> {
    core::log::info("tune: {} {} at {} sizes", measure::name_of(c), nccl_label(cfg), sizes.size());
    auto t = measure::run_trial(o.spec, c, {}, nccl_env(cfg), sizes);
    if (!t) return t.status();
    std::map<std::size_t, Sample> out;
    for (const auto& r : t->rows) out[r.bytes] = Sample{r.p50_us, r.stdev_us, r.n};
    return out;
  };
}

// One short launch at the smallest and the largest size (1 iteration): whether NCCL runs `cfg` at
// all here, and the library and communicator shape. Not a trial: nothing is measured.
core::Result<measure::TrialResult> probe(const NcclTuneOptions& o, measure::Collective c, const TrialEnv& env) {
  measure::MpirunSpec s = o.spec;
  s.iters = 1;
  s.warmup = 1;
  std::vector<std::size_t> at{o.sizes.front()};
  if (o.sizes.back() != o.sizes.front()) at.push_back(o.sizes.back());
  return measure::run_trial(s, c, {}, env, at);
}

// The env file's variables when one configuration won in every bucket of every collective tuned,
// else empty with `why`. NCCL_ALGO/NCCL_PROTO in the per-function form ("AllReduce:Ring"), which
// NCCL reads from 2.24 (tuning.cc parseList @ v2.24.3-1); before, one global value would also force
// the collectives not tuned (a global NCCL_ALGO=Tree fails AllGather), so no file then.
std::vector<NcclEnvVar> global_setting(const std::vector<SearchResult>& rs, const std::vector<measure::Collective>& colls,
                                       const cost::NcclVersion& v, std::string& why) {
  std::optional<Config> one;
  for (const auto& r : rs)
    for (const auto& b : r.buckets) {
      if (b.chosen.alg == 0) {
        why = "NCCL's own choice stays in some bucket: no global setting";
        return {};
      }
      if (one && *one != b.chosen) {
        why = "the choice differs between buckets: per-bucket rules in the tuner CSV only";
        return {};
      }
      one = b.chosen;
    }
  if (!one) {
    why = "nothing tuned";
    return {};
  }
  if (v.code() < 22403) {
    why = "one setting won everywhere, but NCCL " + v.str() + " reads NCCL_ALGO only globally (per-function form from 2.24)";
    return {};
  }
  auto p = nccl_pair(one->alg);
  std::string algo, proto;
  for (auto c : colls) {
    auto cc = cost::parse_collective(measure::name_of(c));
    std::string f(cost::nccl_name(*cc));
    algo += (algo.empty() ? "" : ";") + f + ":" + std::string(cost::name(p->algo));
    proto += (proto.empty() ? "" : ";") + f + ":" + std::string(cost::name(p->proto));
  }
  std::vector<NcclEnvVar> vars{{"NCCL_ALGO", algo}, {"NCCL_PROTO", proto}};
  if (one->knob > 0) {
    vars.push_back({"NCCL_MIN_NCHANNELS", std::to_string(one->knob)});
    vars.push_back({"NCCL_MAX_NCHANNELS", std::to_string(one->knob)});
  }
  return vars;
}

}  // namespace

std::vector<NcclTunerRule> nccl_rules(const SearchResult& r, measure::Collective c, int nnodes, int nranks) {
  std::vector<NcclTunerRule> out;
  const auto& b = r.buckets;
  auto mid = [&](std::size_t i) {  // the first byte count of bucket i (i >= 1)
    std::size_t lo = b[i - 1].bytes, hi = b[i].bytes;
    std::size_t m = lo == 0 ? 1 : static_cast<std::size_t>(std::sqrt(static_cast<double>(lo) * static_cast<double>(hi)));
    return std::max(m, lo + 1);
  };
  for (std::size_t i = 0; i < b.size(); ++i) {
    auto p = nccl_pair(b[i].chosen.alg);
    if (!p) continue;
    NcclTunerRule x;
    x.coll = c;
    x.min_bytes = i == 0 ? b[i].bytes : mid(i);
    x.max_bytes = i + 1 == b.size() ? b[i].bytes : mid(i + 1) - 1;
    x.algo = std::string(cost::name(p->algo));
    x.proto = std::string(cost::name(p->proto));
    x.channels = b[i].chosen.knob > 0 ? b[i].chosen.knob : -1;
    x.nnodes = nnodes;
    x.nranks = nranks;
    if (!out.empty() && i > 0 && b[i - 1].chosen == b[i].chosen && out.back().max_bytes + 1 == x.min_bytes) {
      out.back().max_bytes = x.max_bytes;
      continue;
    }
    out.push_back(x);
  }
  return out;
}

core::Result<std::string> find_tuner_plugin(const std::string& explicit_path, const std::string& exe_in) {
  const std::string so = "libnccl-tuner-ncdx.so";
  if (!explicit_path.empty()) {
    std::error_code ec;
    if (!fs::is_regular_file(explicit_path, ec)) return core::Status::not_found("--plugin " + explicit_path + ": no such file");
    return fs::absolute(explicit_path, ec).string();
  }
  std::string exe = exe_in;
  if (exe.empty()) {
    char buf[4096];
    ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n > 0) exe.assign(buf, static_cast<std::size_t>(n));
  }
  const fs::path dir = fs::path(exe).parent_path();
  std::string tried;
  for (const fs::path& p : {dir / so, dir / ".." / "lib" / so, dir / ".." / ".." / "lib" / so}) {
    std::error_code ec;
    if (fs::is_regular_file(p, ec)) return fs::weakly_canonical(p, ec).string();
    tried += (tried.empty() ? "" : ", ") + p.lexically_normal().string();
  }
  return core::Status::not_found(so + " not found (tried " + tried + "): build target nccl-tuner-ncdx or give --plugin PATH");
}

core::Result<NcclTuneReport> tune_nccl(const NcclTuneOptions& o) {
  if (o.sizes.empty()) return core::Status::usage("no sizes to tune");
  NcclTuneReport rep;
  rep.csv_path = o.csv_path;
  rep.plugin = o.plugin;
  rep.exhaustive = o.exhaustive;
  rep.np = o.spec.np;
  // The default once: the library and the communicator's real shape, for the pairs and the rules.
  auto first = probe(o, o.colls.front(), nccl_env(Config{}));
  if (!first) return first.status().with_context("NCCL's default");
  ++rep.probe_launches;
  rep.library = first->library;
  rep.nranks = first->nranks;
  rep.nodes = std::max(1, first->nodes);
  auto version = nccl_version_of(first->library);
  if (!version) return core::Status::bad_input("trial output: library '" + first->library + "' is not 'NCCL x.y.z'");

  std::vector<NcclTunerRule> ours, best;
  std::vector<SearchResult> searched, exhausted;
  std::vector<SearchSpace> spaces;
  for (auto c : o.colls) {
    auto sp = nccl_space(c, *version, rep.nranks, rep.nodes, o.channels);
    if (!sp) return sp.status();
    std::vector<Candidate> usable;
    for (const auto& cand : sp->cands) {
      auto t = probe(o, c, nccl_env(Config{cand.id, 0}));
      ++rep.probe_launches;
      if (t) usable.push_back(cand);
      else rep.unavailable.push_back(std::string(measure::name_of(c)) + " " + cand.name + ": " + t.status().message());
    }
    sp->cands = usable;
    spaces.push_back(*sp);
  }
  for (std::size_t ci = 0; ci < o.colls.size(); ++ci) {
    const auto c = o.colls[ci];
    auto fn = measure_with(o, c);
    SearchOptions so = nccl_search_options(o.search);
    so.nranks = 0;  // Open MPI's ompi_runs_as only
    auto g = guided_search(spaces[ci], o.sizes, fn, so);
    if (!g) return g.status().with_context("tuning " + std::string(measure::name_of(c)));
    SearchResult ex;
    if (o.exhaustive) {
      auto e = exhaustive_search(spaces[ci], o.sizes, fn, so);
      if (!e) return e.status().with_context("exhaustive search of " + std::string(measure::name_of(c)));
      ex = *e;
    }
    for (const auto& r : nccl_rules(*g, c, rep.nodes, rep.nranks)) ours.push_back(r);
    if (o.exhaustive)
      for (const auto& r : nccl_rules(ex, c, rep.nodes, rep.nranks)) best.push_back(r);
    searched.push_back(*g);
    exhausted.push_back(ex);
  }
  const std::string shape = std::to_string(rep.nodes) + " node(s), " + std::to_string(rep.nranks) + " ranks";
  const std::string header =
      "NCCL tuner rules written by ncdx tune --backend nccl (" + rep.library + ", " + shape + ")\n"
      "use: NCCL_TUNER_PLUGIN=" + (o.plugin.empty() ? std::string("libnccl-tuner-ncdx.so") : o.plugin) + " NCDX_TUNER_FILE=THIS_FILE\n"
      "format: collective,min_bytes,max_bytes,algorithm,protocol,channels,nNodes,nRanks (NCCL's example tuner)\n"
      "no rule: NCCL's own choice (every bucket where the measured gain did not beat the noise)";
  rep.csv_text = render_nccl_tuner_csv(ours, header);
  const std::string best_text = render_nccl_tuner_csv(best, "exhaustive-search rules (comparison only)"), best_path = exhaustive_path(o.csv_path);
  if (auto s = write_rules(o.csv_path, rep.csv_text, o.exhaustive ? &best_text : nullptr); !s) return s;
  auto vars = global_setting(searched, o.colls, *version, rep.env_note);
  if (!vars.empty()) {
    rep.env_path = o.env_path;
    rep.env_text = render_nccl_env_file(vars, "one setting won in every bucket of every collective tuned (ncdx tune --backend nccl, " + shape + ")");
    if (auto s = core::write_file_atomic(o.env_path, rep.env_text); !s) return s;
  }

  // Validation: NCCL's default, the tuned CSV and the exhaustive CSV through the plugin, interleaved.
  auto with_plugin = [&](const std::string& csv) {
    TrialEnv e = nccl_env(Config{});
    std::error_code ec;
    e.set = {{"NCCL_TUNER_PLUGIN", o.plugin}, {"NCDX_TUNER_FILE", fs::absolute(csv, ec).string()}};
    return e;
  };
  for (std::size_t ci = 0; ci < o.colls.size(); ++ci) {
    const auto c = o.colls[ci];
    std::vector<TrialEnv> variants{nccl_env(Config{}), with_plugin(o.csv_path)};
    if (o.exhaustive) variants.push_back(with_plugin(best_path));
    auto times = validate_interleaved(static_cast<int>(variants.size()), o.validate_repeats, [&](int v) -> core::Result<std::vector<measure::TrialRow>> {
      auto t = measure::run_trial(o.spec, c, {}, variants[static_cast<std::size_t>(v)], o.sizes);
      if (!t) return t.status();
      return t->rows;
    });
    if (!times) return times.status().with_context("validating " + std::string(measure::name_of(c)));
    rep.colls.push_back(coll_report(c, searched[ci], o.exhaustive ? &exhausted[ci] : nullptr, o.search.exhaustive_repeats, nccl_label, *times));
  }
  return rep;
}

}  // namespace ncdx::model::tune
