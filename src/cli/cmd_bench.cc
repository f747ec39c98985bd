// `ncdx bench COLLECTIVE`: nccl-tests-compatible collective benchmarks over MPI (CPU) or NCCL
// (GPU). Flags are nccl-tests' own (-b -e -f -i -n -w -c -d -o -r -a -I -J -g), so a command
// line moves between the two tools unchanged. Runs the same on every rank; rank 0 reports.
#include <cstdio>
#include <iostream>

#include "cli/command.h"
#include "core/atomic_file.h"
#include "core/json.h"
#include "measure/collective/bench_run.h"
#include "report/bench/bench_render.h"
#include "report/context.h"

namespace ncdx::cli {
namespace {

struct BenchFlags {
  std::string coll = "allreduce", backend = "auto", b = "32M", e = "32M", i = "1M", type = "float", op = "sum", json_file, sizes;
  long f = 1;
  int n = 20, w = 1, c = 1, r = 0, a = 1, per_iter = 0, g = 0;
};

int usage(const std::string& m) {
  std::fprintf(stderr, "ncdx bench: %s\n", m.c_str());
  return 64;
}

int run(const BenchFlags& fl, const GlobalOptions& g, const std::vector<std::string>& argv) {
  measure::BenchOptions o;
  auto coll = measure::parse_collective(fl.coll);
  if (!coll) return usage("unknown collective '" + fl.coll + "' (allreduce, allgather, reducescatter, broadcast, reduce, alltoall, sendrecv)");
  o.coll = *coll;
  auto t = measure::parse_datatype(fl.type);
  if (!t) return usage("-d expects a type (int8 uint8 int32 uint32 int64 uint64 half float double bfloat16), got '" + fl.type + "'");
  o.type = *t;
  auto op = measure::parse_redop(fl.op);
  if (!op) return usage("-o expects sum, prod, max, min or avg, got '" + fl.op + "'");
  o.op = *op;
  auto b = measure::parse_size(fl.b), e = measure::parse_size(fl.e), i = measure::parse_size(fl.i);
  if (!b || !e || !i) return usage("-b/-e/-i expect a size such as 8, 64K, 32M or 1G");
  if (*b > *e) return usage("-b " + fl.b + " is larger than -e " + fl.e);
  if (fl.f < 1) return usage("-f must be >= 1");
  if (fl.a < 0 || fl.a > 3) return usage("-a expects 0 (rank 0), 1 (average), 2 (min) or 3 (max)");
  o.min_bytes = *b;
  o.max_bytes = *e;
  o.step_bytes = *i;
  o.step_factor = static_cast<std::size_t>(fl.f);
  o.iters = fl.n;
  o.warmup = fl.w;
  o.check = fl.c;
  o.root = fl.r;
  o.average = fl.a;
  if (!fl.sizes.empty()) {
    std::size_t pos = 0;
    while (pos <= fl.sizes.size()) {
      auto end = fl.sizes.find(',', pos);
      if (end == std::string::npos) end = fl.sizes.size();
      auto v = measure::parse_size(fl.sizes.substr(pos, end - pos));
      if (!v) return usage("--sizes expects a comma-separated list of sizes, got '" + fl.sizes + "'");
      o.sizes.push_back(*v);
      pos = end + 1;
    }
    if (o.sizes.size() > 4096) return usage("--sizes: at most 4096 sizes");
  }

  auto be = measure::open_backend(fl.backend, fl.g);
  if (!be) {
    std::fprintf(stderr, "ncdx bench: %s\n", be.status().message().c_str());
    return core::to_int(be.status().code());
  }
  auto res = measure::run_bench(*be->harness, *be->engine, o);
  if (!res) {
    std::fprintf(stderr, "ncdx bench: %s\n", res.status().message().c_str());
    return core::to_int(res.status().code());
  }
  const int code = res->out_of_bounds ? 2 : 0;
  if (be->harness->rank() != 0) return code;

  report::BenchRenderOptions ro;
  ro.per_iter = fl.per_iter != 0;
  ro.timestamps = !g.no_timestamps;
  ro.argv = argv;
  if (!fl.json_file.empty()) {
    auto s = core::write_file_atomic(fl.json_file, core::dump_json(report::bench_nccl_tests_json(*res, ro)));
    if (!s) {
      std::fprintf(stderr, "ncdx bench: %s\n", s.message().c_str());
      return core::to_int(s.code());
    }
  }
  if (g.json) {
    nlohmann::json seen = nlohmann::json::object();
    if (res->backend == "nccl") seen["nccl"] = res->library;
    // Hook for the cost model (issue #15): expected busbw per row fills "pct_of_expected".
    std::cout << core::dump_json(report::bench_json(*res, report::make_context(seen, !g.no_timestamps)));
  } else {
    std::cout << report::render_bench_nccl_tests(*res, ro);
  }
  if (res->out_of_bounds) std::fprintf(stderr, "ncdx bench: %d data checks found wrong results\n", res->out_of_bounds);
  return code;
}

}  // namespace

CLI::App* add_bench(CLI::App& root, const GlobalOptions& g, int& exit_code) {
  auto* cmd = root.add_subcommand("bench", "nccl-tests-compatible collective benchmark (MPI on CPU, NCCL on GPU)");
  auto fl = std::make_shared<BenchFlags>();
  cmd->add_option("collective", fl->coll, "allreduce, allgather, reducescatter, broadcast, reduce, alltoall, sendrecv")
      ->capture_default_str();
  cmd->add_option("--backend", fl->backend, "mpi (CPU MPI collectives), nccl (GPU, dlopen), auto")->capture_default_str();
  cmd->add_option("-b,--minbytes", fl->b, "smallest size (K/M/G suffixes)")->capture_default_str();
  cmd->add_option("-e,--maxbytes", fl->e, "largest size")->capture_default_str();
  cmd->add_option("-i,--stepbytes", fl->i, "size increment when -f is 1")->capture_default_str();
  cmd->add_option("-f,--stepfactor", fl->f, "size multiplication factor")->capture_default_str();
  cmd->add_option("-n,--iters", fl->n, "iterations per size")->capture_default_str();
  cmd->add_option("-w,--warmup_iters", fl->w, "warm-up iterations per size")->capture_default_str();
  cmd->add_option("-c,--check", fl->c, "data-check iterations (0: none)")->capture_default_str();
  cmd->add_option("-d,--datatype", fl->type, "element type")->capture_default_str();
  cmd->add_option("-o,--op", fl->op, "reduction: sum, prod, max, min, avg")->capture_default_str();
  cmd->add_option("-r,--root", fl->r, "root rank of broadcast and reduce")->capture_default_str();
  cmd->add_option("-a,--average", fl->a, "time over ranks: 0 rank 0, 1 average, 2 min, 3 max")->capture_default_str();
  cmd->add_option("-I,--per_iter_timing", fl->per_iter, "1: per-iteration columns (i_min i_max i_p99 i_cv%)")->capture_default_str();
  cmd->add_option("-J,--output_file", fl->json_file, "also write nccl-tests' JSON to this file");
  cmd->add_option("--sizes", fl->sizes, "exact sizes, comma-separated (instead of -b/-e/-f/-i)");
  cmd->add_option("-g,--ngpus", fl->g, "GPUs driven by one process (nccl backend; 0: all)")->capture_default_str();
  cmd->callback([fl, &g, &exit_code, cmd] {
    // nccl-tests' args[0] is the test binary (all_gather_perf), which names the collective; ours
    // is ncdx, so the collective follows, where readers of -J (nccl_tests_parse.cc) look for it.
    std::vector<std::string> argv{"ncdx", "bench", fl->coll};
    for (const auto& r : cmd->remaining()) argv.push_back(r);
    exit_code = run(*fl, g, argv);
  });
  return cmd;
}

}  // namespace ncdx::cli
