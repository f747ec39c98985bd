// `ncdx tune`: measure per size bucket, write what the library loads, validate it against the
// default (and the exhaustive search) and report. --backend mpi: Open MPI's coll_tuned
// configurations, a dynamic-rules file (model/tune/mpi_tune.h); --backend nccl: NCCL_ALGO x
// NCCL_PROTO x channel counts, NCCL's example-tuner CSV validated through libnccl-tuner-ncdx.so
// (model/tune/nccl_tune.h). `--model` predicts NCCL's table from the cost model instead
// (cmd_tune_model.h).
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
  std::string backend = "mpi", colls = "allreduce", b = "8", e = "4M", rules, mpirun = "mpirun",
              mpirun_args, fabric = "loopback (one host)", channels, plugin;
  long f = 4;
  int np = -1, n = 20, w = 3, repeats = 3, anchor = 4, confirm = 2, timeout = 300, gpus = 0;
  double budget = 25;
  bool no_exhaustive = false;
  TuneModelFlags model;  // --model
};

int usage(const std::string& m) {
  std::fprintf(stderr, "ncdx tune: %s\n", m.c_str());
  return 64;
}

// The options both backends share; "" or a usage message.
std::string common(const TuneFlags& fl, std::vector<measure::Collective>& colls, std::vector<std::size_t>& sizes,
                   model::tune::SearchOptions& so, measure::MpirunSpec& spec) {
  for (auto c : core::split(fl.colls, ',')) {
    auto x = measure::parse_collective(c);
    const bool p2p = x && (*x == measure::Collective::sendrecv || (fl.backend == "nccl" && *x == measure::Collective::alltoall));
    if (!x || p2p)
      return "--collectives: '" + std::string(c) + "' is not one of allreduce, allgather, reducescatter, broadcast, reduce" +
             (fl.backend == "nccl" ? " (alltoall and sendrecv are NCCL point-to-point: NCCL_ALGO does not apply)" : ", alltoall");
    colls.push_back(*x);
  }
  auto b = measure::parse_size(fl.b), e = measure::parse_size(fl.e);
  if (!b || !e || *b > *e || fl.f < 2) return "-b/-e expect sizes with -b <= -e, -f a factor >= 2";
  sizes = measure::size_sweep(*b, *e, static_cast<std::size_t>(fl.f), 0);
  if (fl.n < 1 || fl.repeats < 1 || fl.anchor < 1 || fl.confirm < 1 || !(fl.budget >= 0 && fl.budget <= 100))
    return "-n >= 1, --repeats >= 1, --anchor-stride >= 1, --confirm >= 1, --budget 0-100";
  spec.mpirun = fl.mpirun;
  spec.iters = fl.n;
  spec.warmup = fl.w;
  spec.timeout_s = fl.timeout;
  std::istringstream args(fl.mpirun_args);
  for (std::string a; args >> a;) spec.args.push_back(a);
  so.anchor_stride = fl.anchor;
  so.confirm_repeats = fl.confirm;
  so.exhaustive_repeats = fl.repeats;
  so.max_share = fl.budget / 100.0;
  return "";
}

int fail(const core::Status& s) {
  std::fprintf(stderr, "ncdx tune: %s\n", s.message().c_str());
  return core::to_int(s.code());
}

// A measured tune's report (either backend): JSON with the context, or the text table.
template <class Report, class Json, class Text>
int emit(const core::Result<Report>& rep, const GlobalOptions& g, Json json, Text text) {
  if (!rep) return fail(rep.status());
  if (g.json)
    std::cout << core::dump_json(json(*rep, report::make_context({}, !g.no_timestamps)));
  else
    std::cout << text(*rep);
  return 0;
}

int run_nccl(const TuneFlags& fl, const GlobalOptions& g) {
  model::tune::NcclTuneOptions o;
  o.colls.clear();
  if (auto m = common(fl, o.colls, o.sizes, o.search, o.spec); !m.empty()) return usage(m);
  // Without --np (and --mpirun-args) one process drives every local GPU; with it, one rank per GPU.
  o.spec.np = fl.np < 0 && fl.mpirun_args.empty() ? 0 : fl.np < 0 ? 2 : fl.np;
  if (o.spec.np == 1 || fl.gpus < 0) return usage("--np >= 2 (or leave it out: one process over -g GPUs), -g >= 0");
  o.spec.backend = "nccl";
  o.spec.gpus = fl.gpus;
  for (auto c : fl.channels.empty() ? std::vector<std::string_view>{} : core::split(fl.channels, ',')) {
    auto v = core::parse_int(core::trim(c));
    if (!v || *v < 1 || *v > 64) return usage("--channels expects channel counts 1-64 separated by commas, got '" + fl.channels + "'");
    o.channels.push_back(static_cast<int>(*v));
  }
  o.validate_repeats = fl.repeats;
  o.exhaustive = !fl.no_exhaustive;
  if (!fl.rules.empty()) return usage("--rules is the Open MPI rules file; --backend nccl writes --tuner-file (and --env-file)");
  o.csv_path = fl.model.tuner_file.empty() ? "nccl_tuner.conf" : fl.model.tuner_file;
  o.env_path = fl.model.env_file.empty() ? "nccl.env" : fl.model.env_file;
  auto plugin = model::tune::find_tuner_plugin(fl.plugin);
  if (!plugin) return fail(plugin.status());
  o.plugin = *plugin;
  return emit(model::tune::tune_nccl(o), g, report::nccl_tune_json, report::render_nccl_tune_text);
}

int run(const TuneFlags& fl, const GlobalOptions& g) {
  if (fl.backend == "nccl") return run_nccl(fl, g);
  if (fl.backend != "mpi") return usage("--backend expects mpi or nccl, got '" + fl.backend + "'");
  model::tune::MpiTuneOptions o;
  o.colls.clear();
  if (auto m = common(fl, o.colls, o.sizes, o.search, o.spec); !m.empty()) return usage(m);
  o.spec.np = fl.np < 0 ? 4 : fl.np;
  if (o.spec.np < 2) return usage("--np >= 2");
  if (!fl.channels.empty() || !fl.plugin.empty() || fl.gpus) return usage("--channels, --plugin and -g are for --backend nccl");
  o.validate_repeats = fl.repeats;
  o.exhaustive = !fl.no_exhaustive;
  o.rules_path = fl.rules.empty() ? "ompi_coll_rules.conf" : fl.rules;
  o.fabric = fl.fabric;
  return emit(model::tune::tune_mpi(o), g, report::tune_json, report::render_tune_text);
}

}  // namespace

CLI::App* add_tune(CLI::App& root, const GlobalOptions& g, int& exit_code) {
  auto* cmd = root.add_subcommand("tune", "measure and choose collective algorithms per size (Open MPI rules file; NCCL tuner CSV)");
  auto fl = std::make_shared<TuneFlags>();
  cmd->add_option("--backend", fl->backend, "mpi (Open MPI coll_tuned) or nccl")->capture_default_str();
  cmd->add_option("--collectives", fl->colls, "comma-separated collectives to tune")->capture_default_str();
  cmd->add_option("-b,--minbytes", fl->b, "smallest bucket")->capture_default_str();
  cmd->add_option("-e,--maxbytes", fl->e, "largest bucket")->capture_default_str();
  cmd->add_option("-f,--stepfactor", fl->f, "bucket size factor")->capture_default_str();
  cmd->add_option("--np", fl->np, "MPI ranks of each trial job (mpi: default 4; nccl: default none, one process over -g GPUs)");
  cmd->add_option("-g,--ngpus", fl->gpus, "nccl without --np: GPUs the one process drives (0 = every visible GPU)")->capture_default_str();
  cmd->add_option("--channels", fl->channels, "nccl: channel counts to try per pair, comma-separated (default: NCCL's own count only)");
  cmd->add_option("--plugin", fl->plugin,
                  "nccl: libnccl-tuner-ncdx.so for the validation (default: next to ncdx, ../lib, ../../lib = the build tree)");
  cmd->add_option("-n,--iters", fl->n, "iterations per trial")->capture_default_str();
  cmd->add_option("-w,--warmup_iters", fl->w, "warm-up iterations per trial")->capture_default_str();
  cmd->add_option("--repeats", fl->repeats, "repeats of the exhaustive search and of the validation")->capture_default_str();
  cmd->add_option("--anchor-stride", fl->anchor, "screen every algorithm at every N-th bucket")->capture_default_str();
  cmd->add_option("--confirm", fl->confirm, "confirm each finalist and the default with max(4, N + 1) trials")->capture_default_str();
  cmd->add_option("--budget", fl->budget,
                  "the search's trials at most, in % of the exhaustive search's (configurations x sizes x --repeats); 0 = none")
      ->capture_default_str();
  cmd->add_flag("--no-exhaustive", fl->no_exhaustive, "skip the exhaustive comparison");
  cmd->add_option("--rules", fl->rules, "mpi: where to write the Open MPI dynamic-rules file (default ompi_coll_rules.conf)");
  cmd->add_option("--mpirun", fl->mpirun, "mpirun to launch trials with")->capture_default_str();
  cmd->add_option("--mpirun-args", fl->mpirun_args, "extra mpirun arguments, space-separated (hostfile, btl, rsh agent)");
  cmd->add_option("--fabric", fl->fabric, "what the ranks talk over, for the report")->capture_default_str();
  cmd->add_option("--timeout", fl->timeout, "seconds before a trial job is killed")->capture_default_str();
  add_tune_model_flags(cmd, fl->model);
  cmd->callback([cmd, fl, &g, &exit_code] {
    // Each mode's own flags are refused in the other, never silently ignored.
    const std::vector<const char*> mpi_only = {"--backend", "--np", "-n", "-w", "--repeats", "--anchor-stride", "--confirm", "--budget",
                                    "--no-exhaustive", "--rules", "--mpirun", "--mpirun-args", "--fabric", "--timeout",
                                    "--channels", "--plugin", "-g"};
    const std::vector<const char*> model_only = {"--spec", "--from", "--nccl", "--nccl-log", "--calibrate", "--algo", "--proto", "--min-gain",
                                      "--out", "--tuner-file", "--env-file"};
    for (const char* flag : fl->model.on ? mpi_only : model_only) {
      // --tuner-file/--env-file: also the files of the measured NCCL table (--backend nccl).
      const bool files = std::string(flag) == "--tuner-file" || std::string(flag) == "--env-file";
      if (!cmd->count(flag) || (files && fl->backend == "nccl")) continue;
      exit_code = usage(std::string(flag) + (fl->model.on ? " is not a flag of --model (it predicts without measuring)"
                                                          : files ? " needs --model or --backend nccl" : " needs --model"));
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
