// `ncdx tune --backend mpi`: measure Open MPI's coll_tuned configurations per size bucket, write
// a dynamic-rules file, validate it against the default (and the exhaustive search) and report.
// The NCCL path (NCCL_ALGO x NCCL_PROTO x channels, the tuner plugin's CSV) needs GPUs and is
// not part of this build yet; `--backend nccl` says so. `--model` predicts NCCL's table from the
// cost model instead (cmd_tune_model.h).
#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "cli/cmd_tune_model.h"
#include "cli/command.h"
#include "core/json.h"
#include "core/strings.h"
#include "measure/collective/collective.h"
#include "model/tune/mpi_tune.h"
#include "report/context.h"
#include "report/tune/tune_render.h"

namespace ncdx::cli {
namespace {

struct TuneFlags {
  std::string backend = "mpi", colls = "allreduce", b = "8", e = "4M", rules = "ompi_coll_rules.conf", mpirun = "mpirun",
              mpirun_args, fabric = "loopback (one host)";
  long f = 4;
  int np = 4, n = 20, w = 3, repeats = 3, anchor = 4, confirm = 2, timeout = 300;
  double budget = 25;
  bool no_exhaustive = false;
  TuneModelFlags model;  // --model
};

int usage(const std::string& m) {
  std::fprintf(stderr, "ncdx tune: %s\n", m.c_str());
  return 64;
}

int run(const TuneFlags& fl, const GlobalOptions& g) {
  if (fl.backend == "nccl")
    return usage("--backend nccl needs GPUs and is not implemented in this build (use --backend mpi on CPU)");
  if (fl.backend != "mpi") return usage("--backend expects mpi or nccl, got '" + fl.backend + "'");
  model::tune::MpiTuneOptions o;
  o.colls.clear();
  for (auto c : core::split(fl.colls, ',')) {
    auto x = measure::parse_collective(c);
    if (!x || *x == measure::Collective::sendrecv)
      return usage("--collectives: '" + std::string(c) + "' is not one of allreduce, allgather, reducescatter, broadcast, reduce, alltoall");
    o.colls.push_back(*x);
  }
  auto b = measure::parse_size(fl.b), e = measure::parse_size(fl.e);
  if (!b || !e || *b > *e || fl.f < 2) return usage("-b/-e expect sizes with -b <= -e, -f a factor >= 2");
  o.sizes = measure::size_sweep(*b, *e, static_cast<std::size_t>(fl.f), 0);
  if (fl.np < 2 || fl.n < 1 || fl.repeats < 1 || fl.anchor < 1 || fl.confirm < 1 || !(fl.budget >= 0 && fl.budget <= 100))
    return usage("--np >= 2, -n >= 1, --repeats >= 1, --anchor-stride >= 1, --confirm >= 1, --budget 0-100");
  o.spec.mpirun = fl.mpirun;
  o.spec.np = fl.np;
  o.spec.iters = fl.n;
  o.spec.warmup = fl.w;
  o.spec.timeout_s = fl.timeout;
  std::istringstream args(fl.mpirun_args);
  for (std::string a; args >> a;) o.spec.args.push_back(a);
  o.search.anchor_stride = fl.anchor;
  o.search.confirm_repeats = fl.confirm;
  o.search.exhaustive_repeats = fl.repeats;
  o.search.max_share = fl.budget / 100.0;
  o.validate_repeats = fl.repeats;
  o.exhaustive = !fl.no_exhaustive;
  o.rules_path = fl.rules;
  o.fabric = fl.fabric;
  auto rep = model::tune::tune_mpi(o);
  if (!rep) {
    std::fprintf(stderr, "ncdx tune: %s\n", rep.status().message().c_str());
    return core::to_int(rep.status().code());
  }
  if (g.json)
    std::cout << core::dump_json(report::tune_json(*rep, report::make_context({}, !g.no_timestamps)));
  else
    std::cout << report::render_tune_text(*rep);
  return 0;
}

}  // namespace

CLI::App* add_tune(CLI::App& root, const GlobalOptions& g, int& exit_code) {
  auto* cmd = root.add_subcommand("tune", "measure and choose collective algorithms per size (Open MPI rules file; NCCL on GPU)");
  auto fl = std::make_shared<TuneFlags>();
  cmd->add_option("--backend", fl->backend, "mpi (Open MPI coll_tuned) or nccl")->capture_default_str();
  cmd->add_option("--collectives", fl->colls, "comma-separated collectives to tune")->capture_default_str();
  cmd->add_option("-b,--minbytes", fl->b, "smallest bucket")->capture_default_str();
  cmd->add_option("-e,--maxbytes", fl->e, "largest bucket")->capture_default_str();
  cmd->add_option("-f,--stepfactor", fl->f, "bucket size factor")->capture_default_str();
  cmd->add_option("--np", fl->np, "MPI ranks of each trial job")->capture_default_str();
  cmd->add_option("-n,--iters", fl->n, "iterations per trial")->capture_default_str();
  cmd->add_option("-w,--warmup_iters", fl->w, "warm-up iterations per trial")->capture_default_str();
  cmd->add_option("--repeats", fl->repeats, "repeats of the exhaustive search and of the validation")->capture_default_str();
  cmd->add_option("--anchor-stride", fl->anchor, "screen every algorithm at every N-th bucket")->capture_default_str();
  cmd->add_option("--confirm", fl->confirm, "confirm each finalist and the default with max(4, N + 1) trials")->capture_default_str();
  cmd->add_option("--budget", fl->budget,
                  "the search's trials at most, in % of the exhaustive search's (configurations x sizes x --repeats); 0 = none")
      ->capture_default_str();
  cmd->add_flag("--no-exhaustive", fl->no_exhaustive, "skip the exhaustive comparison");
  cmd->add_option("--rules", fl->rules, "where to write the Open MPI dynamic-rules file")->capture_default_str();
  cmd->add_option("--mpirun", fl->mpirun, "mpirun to launch trials with")->capture_default_str();
  cmd->add_option("--mpirun-args", fl->mpirun_args, "extra mpirun arguments, space-separated (hostfile, btl, rsh agent)");
  cmd->add_option("--fabric", fl->fabric, "what the ranks talk over, for the report")->capture_default_str();
  cmd->add_option("--timeout", fl->timeout, "seconds before a trial job is killed")->capture_default_str();
  add_tune_model_flags(cmd, fl->model);
  cmd->callback([cmd, fl, &g, &exit_code] {
    // Each mode's own flags are refused in the other, never silently ignored.
    const std::vector<const char*> mpi_only = {"--backend", "--np",   "-n",           "--repeats", "--anchor-stride",
                                               "--confirm", "--budget", "--no-exhaustive", "--rules",   "--mpirun",
                                               "--mpirun-args", "--fabric", "--timeout",  "-w"};
    const std::vector<const char*> model_only = {"--spec",  "--from",     "--nccl",    "--nccl-log", "--calibrate", "--algo",
                                                 "--proto", "--min-gain", "--out",     "--tuner-file", "--env-file"};
    for (const char* flag : fl->model.on ? mpi_only : model_only)
      if (cmd->count(flag)) {
        exit_code = usage(std::string(flag) + (fl->model.on ? " is not a flag of --model (it predicts without measuring)" : " needs --model"));
        return;
      }
    if (!fl->model.on) {
      exit_code = run(*fl, g);
      return;
    }
    auto given = [&](const char* flag, std::string v) { return cmd->count(flag) ? v : std::string(); };
    exit_code = run_tune_model(fl->model,
                               {given("--collectives", fl->colls), given("-b", fl->b), given("-e", fl->e), given("-f", std::to_string(fl->f))}, g);
  });
  return cmd;
}

}  // namespace ncdx::cli
