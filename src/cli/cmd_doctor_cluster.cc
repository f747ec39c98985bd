#include "cli/cmd_doctor_cluster.h"

#include <cstdio>
#include <iostream>

#include "analyze/cluster/cluster_plan.h"
#include "analyze/cluster/cluster_run.h"
#include "cluster/mpi/comm.h"
#include "core/json.h"
#include "core/strings.h"
#include "core/term.h"
#include "measure/collective/collective.h"
#include "measure/network/net_matrix.h"
#include "model/cost/spec_parse.h"
#include "probe/machine_probe.h"
#include "report/cluster/cluster_render.h"
#include "report/cluster/plan_render.h"

namespace ncdx::cli {
namespace {

int fail_with(const core::Status& s) {
  std::fprintf(stderr, "ncdx doctor: %s\n", s.message().c_str());
  return core::to_int(s.code());
}

std::optional<std::size_t> parse_bytes(std::string t) {
  if (t.empty()) return std::nullopt;
  double mult = 1;
  char c = static_cast<char>(std::toupper(static_cast<unsigned char>(t.back())));
  if (c == 'K') mult = 1024;
  if (c == 'M') mult = 1024.0 * 1024;
  if (mult > 1) t.pop_back();
  auto v = core::parse_double(t);
  if (!v || *v <= 0 || *v * mult > 1024.0 * 1024 * 1024) return std::nullopt;
  return static_cast<std::size_t>(*v * mult);
}

}  // namespace

void add_cluster_flags(CLI::App* cmd, ClusterFlags& f) {
  cmd->add_flag("--cluster", f.cluster,
                "cross-node preflight under mpirun/srun: consistency of all nodes, TCP latency/bandwidth matrix, "
                "the slow/lossy/unreachable node or link (needs an MPI build)");
  cmd->add_option("--plan", f.plan, "print the --cluster schedule and predicted time for N nodes without running");
  cmd->add_option("--plan-gbps", f.plan_gbps, "with --plan: the per-pair TCP rate (Gb/s) the prediction assumes")
      ->capture_default_str();
  cmd->add_option("--plan-rails", f.plan_rails, "with --plan --transport rdma: RDMA rails per node (--plan-gbps is per rail)")
      ->capture_default_str();
  cmd->add_option("--plan-rtt-us", f.plan_rtt_us, "with --plan: the small-message round trip (µs) the prediction assumes")
      ->capture_default_str();
  cmd->add_flag("--no-network", f.no_network, "with --cluster: skip the network matrix");
  cmd->add_option("--pair-budget", f.pair_budget_s, "with --cluster: seconds each node pair may take")
      ->capture_default_str();
  cmd->add_option("--ping-iters", f.ping_iters, "with --cluster: timed small-message round trips per pair")
      ->capture_default_str();
  cmd->add_option("--bw-bytes", f.bw_bytes, "with --cluster: bytes streamed per direction per pair (K/M suffix)")
      ->capture_default_str();
  cmd->add_option("--confirm-pairs", f.confirm_pairs,
                  "with --cluster: at most this many suspect and reference pairs re-measured alone after the matrix "
                  "(0 = no confirmation pass)")
      ->capture_default_str();
  cmd->add_flag("--nccl", f.nccl,
                "with --cluster: after the matrix, an NCCL all-reduce over every GPU of every node (libnccl by dlopen), "
                "busbw per size against the cost model's expectation");
  cmd->add_option("--nccl-spec", f.nccl_spec,
                  "with --nccl: judge against this cluster spec (ncdx model --spec grammar) instead of the one derived "
                  "from the node snapshots");
  cmd->add_option("--nccl-sizes", f.nccl_sizes, "with --nccl: per-rank sizes, comma-separated (default 16M,128M,1G)");
  cmd->add_option("--transport", f.transport,
                  "with --cluster: tcp (the interface NCCL's socket transport picks), rdma (RC queue pairs on the "
                  "RDMA ports NCCL_IB_HCA selects, rail against rail; not yet run on hardware by ncdx's tests) or auto "
                  "(rdma when every node has a usable port, else tcp)")
      ->check(CLI::IsMember({"tcp", "rdma", "auto"}))
      ->capture_default_str();
  cmd->add_option("--net-port", f.port, "with --cluster: TCP port to listen on (0 = any; open it in the firewall)")
      ->capture_default_str();
}

bool cluster_requested(const ClusterFlags& f) { return f.cluster || f.plan != 0; }

int run_cluster(const GlobalOptions& g, const ClusterFlags& f, bool quick) {
  analyze::ClusterOptions opt;
  auto bytes = parse_bytes(f.bw_bytes);
  if (!bytes) return fail_with(core::Status::usage("--bw-bytes '" + f.bw_bytes + "': expected a size like 1M (at most 1G)"));
  if (f.pair_budget_s <= 0 || f.pair_budget_s > 600)
    return fail_with(core::Status::usage("--pair-budget must be in (0, 600] seconds"));
  if (f.ping_iters < 1 || f.ping_iters > 100000)
    return fail_with(core::Status::usage("--ping-iters must be in [1, 100000]"));
  if (f.confirm_pairs < 0 || f.confirm_pairs > 1000)
    return fail_with(core::Status::usage("--confirm-pairs must be in [0, 1000]"));
  if (f.port < 0 || f.port > 65535) return fail_with(core::Status::usage("--net-port must be in [0, 65535]"));
  opt.net.bw_bytes = *bytes;
  opt.net.pair_budget_s = f.pair_budget_s;
  opt.net.ping_iters = f.ping_iters;
  opt.net.transport = f.transport;
  opt.net.port = f.port;
  opt.network = !f.no_network;
  opt.confirm.max_pairs = f.confirm_pairs;
  opt.nccl.enabled = f.nccl;
  if (!f.nccl && (!f.nccl_spec.empty() || !f.nccl_sizes.empty()))
    return fail_with(core::Status::usage("--nccl-spec and --nccl-sizes need --nccl"));
  if (!f.nccl_spec.empty()) {
    auto spec = model::cost::parse_spec(f.nccl_spec);
    if (!spec) return fail_with(core::Status::usage("--nccl-spec: " + spec.status().message()));
    opt.nccl.spec = *spec;
  }
  if (!f.nccl_sizes.empty()) {
    opt.nccl.sizes.clear();
    for (const auto& t : core::split(f.nccl_sizes, ',')) {
      auto v = measure::parse_size(t);
      if (!v || *v < 4 || *v > (std::size_t{8} << 30) || opt.nccl.sizes.size() >= 64)
        return fail_with(core::Status::usage("--nccl-sizes expects up to 64 sizes from 4 to 8G, comma-separated, got '" +
                                             f.nccl_sizes + "'"));
      opt.nccl.sizes.push_back(*v);
    }
  }
  if (f.plan != 0) {
    if (f.plan < 2 || f.plan > 100000) return fail_with(core::Status::usage("--plan N: N must be in [2, 100000]"));
    if (!(f.plan_gbps > 0 && f.plan_gbps <= 10000))
      return fail_with(core::Status::usage("--plan-gbps must be in (0, 10000] Gb/s"));
    if (!(f.plan_rtt_us > 0 && f.plan_rtt_us <= 1e6))
      return fail_with(core::Status::usage("--plan-rtt-us must be in (0, 1000000] µs"));
    analyze::PlanOptions po;
    po.nodes = f.plan;
    po.link_gbps = f.plan_gbps;
    po.rtt_us = f.plan_rtt_us;
    if (f.plan_rails < 1 || f.plan_rails > 64) return fail_with(core::Status::usage("--plan-rails must be in [1, 64]"));
    po.rails = f.plan_rails;
    po.net = opt.net;
    po.confirm_pairs = opt.confirm.max_pairs;
    auto p = analyze::plan_cluster(po);
    if (g.json) std::cout << core::dump_json(report::render_plan_json(p, !g.no_timestamps));
    else std::cout << report::render_plan_text(p);
    return 0;
  }
  auto comm = cluster::open_mpi_comm();
  if (!comm) return fail_with(comm.status());
  probe::ProbeOptions po;
  po.quick = quick;
  auto inv = probe::probe_machine(core::FileSystem(g.root), po);
  auto run = analyze::run_cluster_doctor(**comm, std::move(inv), opt);
  int code = run.exit_code;
  if (run.rank == 0) {
    if (!g.output.empty()) {
      if (auto s = report::write_report_dir(g.output, report::cluster_report_files(run, !g.no_timestamps), g.force); !s)
        code = fail_with(s);
    }
    if (g.json) std::cout << core::dump_json(report::render_cluster_json(run, !g.no_timestamps));
    else std::cout << report::render_cluster_text(run, core::color_enabled(stdout));
    std::cout.flush();
  }
  return code;
}

}  // namespace ncdx::cli
