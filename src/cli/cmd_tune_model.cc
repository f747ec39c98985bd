// `ncdx tune --model` (cmd_tune_model.h).
#include "cli/cmd_tune_model.h"

#include <cstdio>
#include <filesystem>
#include <iostream>

#include "core/atomic_file.h"
#include "core/json.h"
#include "core/strings.h"
#include "model/cost/types.h"
#include "model/tune/nccl_model_tune.h"
#include "report/context.h"
#include "report/tune/model_tune_render.h"

namespace ncdx::cli {
namespace {

namespace mc = model::cost;

constexpr const char* kEnvHeader = "# ncdx tune --model:";  // the first line of every env file it writes

core::Result<std::vector<mc::Collective>> collectives(const std::string& list) {
  std::vector<mc::Collective> out;
  if (list.empty()) return out;
  for (auto c : core::split(list, ',')) {
    auto pc = mc::parse_collective(core::trim(c));
    if (!pc || static_cast<int>(*pc) >= mc::kNumNcclFuncs)
      return core::Status::usage("--collectives: '" + std::string(c) +
                                 "' is not one NCCL's tuner decides (allreduce, allgather, reducescatter, broadcast, reduce)");
    out.push_back(*pc);
  }
  return out;
}

}  // namespace

void add_tune_model_flags(CLI::App* cmd, TuneModelFlags& f) {
  cmd->add_flag("--model", f.on, "NCCL: predict the tuner table from the cost model (no GPU); every row is labelled predicted");
  cmd->add_option("--spec", f.in.spec, "--model: cluster, as `ncdx model --spec` (\"nodes=2,gpus=8,gpu=H100,nic=8x400G-IB\")");
  cmd->add_option("--nccl", f.in.nccl, "--model: NCCL version to model (default: the log's, else 2.27.7)");
  cmd->add_option("--nccl-log", f.in.nccl_log, "--model: NCCL_DEBUG=INFO log; its Pattern lines replace the estimated graphs");
  cmd->add_option("--calibrate", f.in.calibrate, "--model: measured sweep (nccl-tests/ncdx bench output) of this cluster");
  cmd->add_option("--algo", f.in.algo, "--model: the NCCL_ALGO the jobs run with (its mask is respected)");
  cmd->add_option("--proto", f.in.proto, "--model: the NCCL_PROTO the jobs run with");
  cmd->add_option("--min-gain", f.min_gain_pct, "--model: % of predicted time a rule must save over NCCL's pick")->capture_default_str();
  cmd->add_option("--out", f.out, "--model: directory for nccl_tuner.conf (and nccl.env)");
  cmd->add_option("--tuner-file", f.tuner_file, "--model: where to write the tuner CSV (default nccl_tuner.conf)");
  cmd->add_option("--env-file", f.env_file, "--model: where to write the env file when one setting wins everywhere (default nccl.env)");
}

int run_tune_model(const TuneModelFlags& f, const TuneSweepFlags& sweep, const GlobalOptions& g) {
  constexpr const char* kCmd = "tune";
  if (f.in.spec.empty()) return fail(kCmd, core::Status::usage("--model needs --spec \"nodes=N,gpus=G,gpu=H100,nic=8x400G-IB\""));
  if (!f.out.empty() && (!f.tuner_file.empty() || !f.env_file.empty()))
    return fail(kCmd, core::Status::usage("give --out DIR or --tuner-file/--env-file, not both"));
  auto in = load_model_inputs(f.in, kCmd);
  if (!in.ok()) return fail(kCmd, in.status());
  auto sizes = model_sizes(sweep.b.empty() ? "8" : sweep.b, sweep.e.empty() ? "4G" : sweep.e, sweep.f.empty() ? "2" : sweep.f);
  if (!sizes.ok()) return fail(kCmd, sizes.status());
  auto colls = collectives(sweep.colls);
  if (!colls.ok()) return fail(kCmd, colls.status());
  model::tune::ModelTuneRequest req;
  req.spec = *in->spec;
  req.version = in->version;
  req.options = in->options;
  req.collectives = *colls;
  req.sizes = *sizes;
  req.min_gain = f.min_gain_pct / 100.0;
  if (!(f.min_gain_pct > 0 && f.min_gain_pct < 100)) return fail(kCmd, core::Status::usage("--min-gain expects a % between 0 and 100"));
  auto res = model::tune::tune_from_model(req);
  if (!res.ok()) return fail(kCmd, res.status());

  namespace fs = std::filesystem;
  const fs::path dir = f.out.empty() ? fs::path() : fs::path(f.out);
  if (!f.out.empty()) {
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) return fail(kCmd, core::Status::not_found(f.out + ": cannot create (" + ec.message() + ")"));
  }
  report::ModelTuneView v;
  v.result = &*res;
  v.spec = f.in.spec;
  v.nccl = in->version.str();
  v.nccl_algo = in->options.nccl_algo;
  v.nccl_proto = in->options.nccl_proto;
  v.nnodes = req.spec.nodes;
  v.nranks = req.spec.nranks();
  v.min_gain = req.min_gain;
  if (in->calibration) {
    v.calibration = f.in.calibrate;
    v.bw_scale = in->calibration->bw_scale;
    v.lat_scale = in->calibration->lat_scale;
  }
  v.tuner_path = f.out.empty() ? (f.tuner_file.empty() ? "nccl_tuner.conf" : f.tuner_file) : (dir / "nccl_tuner.conf").string();
  v.tuner_text = model::tune::render_nccl_tuner_csv(res->rules, report::model_tune_file_header(v));
  if (auto st = core::write_file_atomic(v.tuner_path, v.tuner_text); !st) return fail(kCmd, st);
  const std::string env_path = f.out.empty() ? (f.env_file.empty() ? "nccl.env" : f.env_file) : (dir / "nccl.env").string();
  if (res->env.empty() && env_path != "-") {
    // An env file an earlier run wrote would still look like this run's advice: remove it (only ours).
    auto old = read_input(env_path);
    std::error_code ec;
    if (old.ok() && old->rfind(kEnvHeader, 0) == 0 && fs::remove(env_path, ec) && !ec) v.env_removed = env_path;
  }
  if (!res->env.empty()) {
    v.env_path = env_path;
    const std::string env = model::tune::render_nccl_env_file(
        res->env, std::string(kEnvHeader).substr(2) + " PREDICTED, not measured (NCCL " + v.nccl + ", spec " + v.spec + "). " + res->env_why +
                      ". NCCL reads this file as NCCL_CONF_FILE (>= 2.23.4) or ~/.nccl.conf; values are verbatim (do not source it in sh).");
    if (auto st = core::write_file_atomic(v.env_path, env); !st) return fail(kCmd, st);
  }
  if (g.json) {
    nlohmann::json seen = nlohmann::json::object();
    seen["nccl"] = v.nccl;
    std::cout << core::dump_json(report::model_tune_json(v, report::make_context(seen, !g.no_timestamps)));
  } else {
    std::cout << report::render_model_tune_text(v);
  }
  return 0;
}

}  // namespace ncdx::cli
