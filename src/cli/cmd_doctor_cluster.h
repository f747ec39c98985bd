#pragma once
// `ncdx doctor --cluster` and `--plan N` (issue #14): flags added to the doctor subcommand.
#include <CLI/CLI.hpp>

#include "cli/command.h"

namespace ncdx::cli {

struct ClusterFlags {
  bool cluster = false, no_network = false;
  int plan = 0;
  double plan_gbps = 100, plan_rtt_us = 20;  // analyze::PlanOptions' assumed link
  int plan_rails = 1;                        // with --transport rdma: rails per node
  double pair_budget_s = 4.0;
  int ping_iters = 100;
  int confirm_pairs = 12;  // analyze::ConfirmOptions::max_pairs
  std::string bw_bytes = "1M";
  int port = 0;
  std::string transport = "tcp";  // --transport tcp|rdma|auto (measure::NetOptions::transport)
  bool nccl = false;       // --nccl: all-reduce over every GPU after the matrix
  std::string nccl_spec;   // --nccl-spec: the model's --spec grammar, instead of the derived spec
  std::string nccl_sizes;  // --nccl-sizes: comma-separated, instead of 16M,128M,1G
};

void add_cluster_flags(CLI::App* doctor, ClusterFlags& f);
// True when the flags ask for cluster mode or a plan (then `run_cluster` owns the run).
bool cluster_requested(const ClusterFlags& f);
int run_cluster(const GlobalOptions& g, const ClusterFlags& f, bool quick);

}  // namespace ncdx::cli
