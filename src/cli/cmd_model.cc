// `ncdx model`: NCCL's algorithm/protocol choice and predicted time per collective and size
// (model/cost/), --explain cost tables, --what-if scenarios, --calibrate on a measured sweep,
// and --judge of nccl-tests / ncdx bench results against the prediction (analyze/judge/).
#include <cstdio>
#include <iostream>

#include "analyze/judge/calibrate.h"
#include "analyze/judge/judge.h"
#include "cli/cmd_model_mpi.h"
#include "cli/model_inputs.h"
#include "cli/command.h"
#include "core/json.h"
#include "core/outcome.h"
#include "core/strings.h"
#include "core/term.h"
#include "model/cost/nccl_log_inputs.h"
#include "model/cost/spec_parse.h"
#include "model/cost/sweep.h"
#include "model/cost/what_if.h"
#include "report/context.h"
#include "report/model/model_render.h"
#include "report/sanitize.h"

namespace ncdx::cli {
namespace {
namespace mc = model::cost;
namespace aj = analyze::judge;

struct ModelOpts {
  std::string spec, nccl, nccl_log, colls, min_bytes = "8", max_bytes = "128M", factor = "2", algo, proto;
  std::string judge, calibrate, bytes = "64M", backend = "nccl";
  MpiModelOpts mpi;  // --backend mpi: Open MPI's coll_tuned algorithms on α-β links
  std::vector<std::string> what_if;
  bool explain = false;
  double slow_below = 70;
};

int fail(const core::Status& st) {
  std::fprintf(stderr, "ncdx model: %s\n", st.message().c_str());
  return static_cast<int>(st.code());
}

core::Result<std::vector<std::uint64_t>> sizes(const ModelOpts& o) { return model_sizes(o.min_bytes, o.max_bytes, o.factor); }

int run(const ModelOpts& o, const GlobalOptions& g) {
  if (o.backend == "mpi") {
    if (!o.spec.empty() || !o.judge.empty() || !o.calibrate.empty() || !o.what_if.empty() || !o.proto.empty())
      return fail(core::Status::usage("--backend mpi takes --np, --alpha-us, --beta-ns, --beta-x-ns, --gamma-ns, --coll, --algo, -b/-e/-f"));
    auto sz = sizes(o);
    if (!sz.ok()) return fail(sz.status());
    MpiModelOpts m = o.mpi;
    m.colls = o.colls;
    m.algos = o.algo;
    return run_model_mpi(m, *sz, g);
  }
  if (o.backend != "nccl") return fail(core::Status::usage("--backend expects nccl or mpi, got \"" + o.backend + "\""));
  // Version: --nccl, else the NCCL log's, else 2.27.7 (the newest 2.19-2.27 release).
  auto in = load_model_inputs({o.spec, o.nccl, o.nccl_log, o.algo, o.proto, o.calibrate}, "model");
  if (!in.ok()) return fail(in.status());
  const mc::Options& opts = in->options;
  const std::optional<mc::NcclVersion>& version = in->given_version;
  const mc::NcclVersion ver = in->version;
  const std::optional<mc::ClusterSpec>& spec = in->spec;

  std::vector<aj::Judgement> judgements;
  if (!o.judge.empty()) {
    auto text = read_input(o.judge);
    if (!text.ok()) return fail(text.status());
    auto runs = aj::parse_nccl_tests(*text, o.judge == "-" ? "<stdin>" : o.judge);
    if (!runs.ok()) return fail(runs.status());
    aj::JudgeOptions jo;
    jo.spec = spec;
    jo.version = version;
    jo.slow_below = o.slow_below / 100.0;
    jo.nccl_algo = o.algo;
    jo.nccl_proto = o.proto;
    if (!o.colls.empty()) {
      auto c = mc::parse_collective(o.colls);
      if (!c) return fail(core::Status::usage("--coll with --judge expects one collective (allreduce, sendrecv, ...)"));
      jo.coll = c;
    }
    judgements = aj::judge_runs(*runs, jo);
  }
  std::optional<mc::SweepResult> sweep;
  std::vector<mc::WhatIf> what_ifs;
  if (spec && o.judge.empty()) {
    mc::SweepRequest req;
    req.spec = *spec;
    req.version = ver;
    req.options = opts;
    req.explain = o.explain;
    if (!o.colls.empty()) {
      for (auto c : core::split(o.colls, ',')) {
        auto pc = mc::parse_collective(core::trim(c));
        if (!pc) return fail(core::Status::usage("--coll: unknown collective \"" + std::string(c) +
                                                 "\" (expected allreduce, allgather, reducescatter, broadcast, reduce, alltoall, sendrecv)"));
        req.collectives.push_back(*pc);
      }
    }
    auto sz = sizes(o);
    if (!sz.ok()) return fail(sz.status());
    req.sizes = *sz;
    auto r = mc::run_sweep(req);
    if (!r.ok()) return fail(r.status());
    sweep = std::move(*r);
    auto wb = mc::parse_size(o.bytes);
    if (!wb || *wb == 0) return fail(core::Status::usage("--bytes expects a size such as 64M"));
    for (const auto& w : o.what_if) {
      auto x = mc::what_if(w, *spec, ver, *wb, opts);
      if (!x.ok()) return fail(x.status());
      what_ifs.push_back(std::move(*x));
    }
  } else if (!spec && o.judge.empty()) {
    return fail(core::Status::usage("give --spec \"nodes=N,gpus=G,gpu=H100,nic=8x400G-IB\" (or --judge FILE)"));
  }

  const int code = core::exit_code_of(judgements, [](const aj::Judgement& j) { return aj::outcome_of(j.kind); });
  if (g.json) {
    nlohmann::json j = {{"schema", "ncdx.model/1"}};
    nlohmann::json seen = nlohmann::json::object();
    seen["nccl"] = ver.str();
    j["context"] = report::make_context(seen, !g.no_timestamps);
    auto body = report::model_json(sweep ? &*sweep : nullptr, o.explain, what_ifs, judgements, o.judge);
    for (auto& [k, v] : body.items()) j[k] = v;
    std::cout << core::dump_json(j);
  } else {
    bool color = core::color_enabled(stdout) && !g.no_color;
    if (sweep) std::cout << report::render_model_text(*sweep, o.explain, color);
    if (!what_ifs.empty()) std::cout << report::render_what_if_text(what_ifs);
    if (!judgements.empty()) std::cout << report::sanitize_text(report::render_judge_text(judgements, o.judge == "-" ? "<stdin>" : o.judge, color), color);
  }
  return code;
}

}  // namespace

CLI::App* add_model(CLI::App& root, const GlobalOptions& global, int& exit_code) {
  static ModelOpts o;
  auto* cmd = root.add_subcommand("model", "predict NCCL's algorithm/protocol and collective time; what-if; judge nccl-tests results");
  cmd->add_option("--spec", o.spec, "cluster: \"nodes=4,gpus=8,gpu=H100,nvlink=NV18,nic=8x400G-IB\" (grammar in docs/MODEL.md)");
  cmd->add_option("--nccl", o.nccl, "NCCL version whose model to use (default: the log's, else 2.27.7)");
  cmd->add_option("--nccl-log", o.nccl_log, "NCCL_DEBUG=INFO log (NCCL_DEBUG_SUBSYS=INIT,GRAPH,TUNING): Pattern lines replace the estimated graphs");
  cmd->add_option("--coll", o.colls, "collectives, comma separated (default: allreduce,allgather,reducescatter,broadcast,reduce)");
  cmd->add_option("-b,--minbytes", o.min_bytes, "smallest size (default 8)");
  cmd->add_option("-e,--maxbytes", o.max_bytes, "largest size (default 128M)");
  cmd->add_option("-f,--stepfactor", o.factor, "size multiplier (default 2)");
  cmd->add_option("--algo", o.algo, "NCCL_ALGO value to model (--backend mpi: Open MPI algorithm names, comma separated)");
  cmd->add_option("--backend", o.backend, "nccl (NCCL's cost model, default) or mpi (α-β model of Open MPI's coll_tuned algorithms)");
  cmd->add_option("--np", o.mpi.np, "--backend mpi: ranks, one per host");
  cmd->add_option("--alpha-us", o.mpi.alpha_us, "--backend mpi: link latency per message (us)");
  cmd->add_option("--beta-ns", o.mpi.beta_ns, "--backend mpi: link time per byte of a one-way stream (ns/B; 8000 / Mbit/s)");
  cmd->add_option("--beta-x-ns", o.mpi.beta_x_ns,
                  "--backend mpi: time per byte of a two-way exchange above the eager limit (ns/B; default --beta-ns)");
  cmd->add_option("--gamma-ns", o.mpi.gamma_ns, "--backend mpi: reduction time per byte (ns/B, default 0)");
  cmd->add_option("--proto", o.proto, "NCCL_PROTO value to model");
  cmd->add_flag("--explain", o.explain, "print NCCL's full cost table (lat/bw/time per algorithm x protocol) for each row");
  cmd->add_option("--what-if", o.what_if, "tp | dp=<params>:<bucket> | lose-nic | lose-nvlink | nccl=<version> (repeatable)");
  cmd->add_option("--bytes", o.bytes, "tensor size for --what-if (default 64M)");
  cmd->add_option("--judge", o.judge, "nccl-tests output (text or -J JSON, '-' = stdin) to judge against the model");
  cmd->add_option("--slow-below", o.slow_below, "verdict 'slow' below this % of the expected busbw (default 70)");
  cmd->add_option("--calibrate", o.calibrate, "measured sweep (nccl-tests/ncdx bench output) of this cluster to fit bandwidth/latency scales");
  cmd->callback([&exit_code, &global] { exit_code = run(o, global); });
  return cmd;
}

}  // namespace ncdx::cli
