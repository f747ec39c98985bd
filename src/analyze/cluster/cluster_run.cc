#include "analyze/cluster/cluster_run.h"

#include <algorithm>
#include <map>
#include <sstream>

#include "analyze/doctor/facts.h"
#include "cluster/mpi/comm.h"
#include "cluster/rank_env.h"
#include "cluster/schedule/round_robin.h"
#include "core/json.h"
#include "knowledge/doctor_fixes.h"

namespace ncdx::analyze {
namespace {

core::Finding consistency_finding(const ConsistencyResult& c) {
  core::Finding f;
  f.id = "cluster." + c.id;
  f.klass = "consistency";
  f.severity = c.status == core::Outcome::fail ? core::Severity::error : core::Severity::warn;
  f.title = c.title + ": " + std::to_string(c.deviating.size()) + " node(s) differ";
  f.summary = c.evidence;
  f.culprit.hosts = c.deviating;
  if (!c.fix.empty()) f.fixes.push_back({c.fix, {}, {}, {}, {}});
  return f;
}

// The class follows what carried the matrix: NCCL's socket transport (TCP) or its IB verbs one.
core::Finding outlier_finding(const NetOutlier& o, const std::string& transport) {
  core::Finding f;
  f.id = "cluster.network." + o.kind;
  f.klass = transport == "rdma" ? "network-ib" : "network-socket";
  f.severity = o.kind == "slow-link" || o.kind == "lossy-link" ? core::Severity::warn : core::Severity::error;
  std::string who;
  for (const auto& h : o.hosts) who += (who.empty() ? "" : " <-> ") + h;
  f.title = o.kind + " " + who;
  // Gone when measured alone: what the matrix saw was contention, worth knowing, not a fault.
  if (o.confirmed == false) {
    f.severity = core::Severity::info;
    f.title += " (not confirmed alone)";
  }
  f.summary = o.evidence;
  f.culprit.hosts = o.hosts;
  f.fixes.push_back({knowledge::doctor_fix("cluster.network." + o.kind), {}, {}, {}, {}});
  return f;
}

// "host\nslurmnode" keys → display names: the hostname, or "host@slurmnode" where several nodes
// share one hostname.
std::vector<std::string> node_labels(const std::vector<std::string>& keys) {
  std::map<std::string, int> count;
  auto host_of = [](const std::string& k) { return k.substr(0, k.find('\n')); };
  for (const auto& k : keys) ++count[host_of(k)];
  std::vector<std::string> out;
  for (const auto& k : keys) {
    auto h = host_of(k), node = k.substr(k.find('\n') + 1);
    out.push_back(count[h] > 1 && !node.empty() ? h + "@" + node : h);
  }
  return out;
}

}  // namespace

PickedIface pick_nccl_iface(const probe::Inventory& inv) {
  PickedIface p;
  auto names = nccl_socket_interfaces(inv.net, inv.env, &p.rule);
  for (const auto& n : names) {
    auto a = measure::iface_ipv4(n);
    if (!a.empty()) {
      p.name = n;
      p.addr = a;
      return p;
    }
  }
  if (!names.empty()) p.name = names.front();
  return p;
}

void analyze_cluster(ClusterRun& run, const ClusterOptions& opt) {
  std::vector<NodeSnapshot> snaps;
  for (auto& n : run.nodes) {
    n.checks = run_doctor_checks(n.snap.inventory);
    snaps.push_back(n.snap);
  }
  run.consistency = check_consistency(snaps);
  if (run.network_ran) {
    run.outliers = isolate_outliers(run.network, opt.isolation);
    if (!run.confirm_plan.empty()) apply_confirmation(run.outliers, run.confirm, run.confirm_plan, opt.confirm, opt.isolation);
  }
  judge_cluster_nccl(run.nccl, snaps, opt.nccl);
  run.findings.clear();
  for (const auto& c : run.consistency)
    if (c.status == core::Outcome::fail || c.status == core::Outcome::warn) run.findings.push_back(consistency_finding(c));
  for (const auto& o : run.outliers) run.findings.push_back(outlier_finding(o, run.network.transport));
  if (auto f = nccl_finding(run.nccl)) run.findings.push_back(std::move(*f));
  int code = core::exit_code_for(run.findings);
  for (const auto& n : run.nodes) code = std::max(code, core::exit_code_of(n.checks, [](const CheckOutcome& o) { return o.result.status; }));
  run.exit_code = code;
}

ClusterRun run_cluster_doctor(cluster::Comm& comm, probe::Inventory mine, const ClusterOptions& opt) {
  ClusterRun run;
  run.rank = comm.rank();
  run.size = comm.size();
  run.launcher = comm.launcher();
  if (run.rank == 0) {
    run.launched_by = cluster::detect_rank().source;
    run.slurm_step = cluster::slurm_step();
  }
  std::string host = mine.os.hostname.value_or("rank" + std::to_string(run.rank));
  // Nodes = distinct hostnames, in order of their lowest rank; that rank speaks for the node.
  // Under srun the node's Slurm name is part of the key: two nodes cloned with one hostname are
  // still two nodes (labelled host@slurmnode, and host.unique names them), not one node whose
  // network matrix is skipped.
  auto keys = comm.allgather(host + '\n' + cluster::slurm_node_name());
  std::vector<std::string> node_keys;
  std::map<std::string, int> node_of;
  std::vector<std::vector<int>> ranks_of;
  for (int r = 0; r < static_cast<int>(keys.size()); ++r) {
    auto [it, fresh] = node_of.emplace(keys[r], static_cast<int>(node_keys.size()));
    if (fresh) {
      node_keys.push_back(keys[r]);
      ranks_of.emplace_back();
    }
    ranks_of[it->second].push_back(r);
  }
  const auto node_hosts = node_labels(node_keys);
  const int my_node = node_of[keys[run.rank]];
  const bool leader = ranks_of[my_node].front() == run.rank;
  auto snaps = comm.gather(leader ? core::dump_json(probe::to_json(mine)) : std::string());
  auto offsets = comm.clock_offsets_us();
  if (opt.network && node_hosts.size() >= 2) {
    measure::NetParticipant me;
    if (leader) {
      auto pick = pick_nccl_iface(mine);
      me.node = my_node;
      me.iface = pick.name;
      me.addr = pick.addr;
      if (opt.net.transport != "tcp") {
        me.rails = measure::choose_rails(mine.ib, mine.env);
        me.env = mine.env;
      }
    }
    me.nodes = static_cast<int>(node_hosts.size());
    me.host = node_hosts[my_node];
    measure::NetSession session(comm, me, opt.net);
    run.network = session.run(cluster::round_robin(me.nodes));
    run.network_ran = true;
    // Root 0 picks the suspects to re-measure alone; every rank runs that schedule.
    std::string wire;
    if (run.rank == 0) {
      run.confirm_plan = plan_confirmation(run.network, isolate_outliers(run.network, opt.isolation), opt.confirm);
      for (const auto& p : run.confirm_plan) wire += std::to_string(p.a) + " " + std::to_string(p.b) + " ";
    }
    wire = comm.bcast(wire);
    std::vector<cluster::Round> rounds;
    std::istringstream in(wire);
    for (int a = 0, b = 0; in >> a >> b;) rounds.push_back({{a, b}});
    if (!rounds.empty()) run.confirm = session.run(rounds);
  } else {
    run.network_skip = opt.network ? "fewer than two nodes (hosts: " + std::to_string(node_hosts.size()) + ")"
                                   : "--no-network";
  }
  // After the matrix: the all-reduce's traffic would be the matrix's neighbour otherwise.
  if (opt.nccl.enabled) run.nccl = run_cluster_nccl(comm, ranks_of, node_hosts, opt.nccl);
  if (run.rank == 0) {
    for (std::size_t k = 0; k < node_hosts.size(); ++k) {
      ClusterNode node;
      node.ranks = ranks_of[k];
      int lr = node.ranks.front();
      node.snap.host = node_hosts[k];
      node.snap.rank = lr;
      if (lr < static_cast<int>(offsets.size())) node.snap.clock_offset_us = offsets[lr];
      auto j = nlohmann::json::parse(snaps[lr], nullptr, false);
      auto inv = probe::inventory_from_json(j, "snapshot of rank " + std::to_string(lr));
      if (inv) node.snap.inventory = std::move(*inv);
      else node.snap.inventory.origin = "unreadable: " + inv.status().message();
      run.nodes.push_back(std::move(node));
    }
    analyze_cluster(run, opt);
  }
  auto code = comm.bcast(std::to_string(run.exit_code));
  run.exit_code = std::atoi(code.c_str());
  return run;
}

}  // namespace ncdx::analyze
