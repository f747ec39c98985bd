#include "analyze/cluster/nccl_check.h"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "analyze/doctor/facts.h"
#include "cluster/mpi/comm.h"
#include "knowledge/doctor_fixes.h"
#include "measure/collective/backend.h"
#include "model/cost/spec_parse.h"

namespace ncdx::analyze {
namespace {

namespace mc = model::cost;

std::string join(const std::vector<std::string>& v, const char* sep) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : sep) + x;
  return s;
}

// One line per distinct value: "VALUE on h1, h2" (every node: just the value).
std::string by_value(const std::vector<std::string>& value_of_node, const std::vector<std::string>& hosts) {
  std::map<std::string, std::vector<std::string>> who;
  std::vector<std::string> order;
  for (std::size_t k = 0; k < value_of_node.size(); ++k) {
    if (value_of_node[k].empty()) continue;
    if (who[value_of_node[k]].empty()) order.push_back(value_of_node[k]);
    who[value_of_node[k]].push_back(k < hosts.size() ? hosts[k] : "node " + std::to_string(k));
  }
  std::vector<std::string> parts;
  for (const auto& v : order)
    parts.push_back(who[v].size() == value_of_node.size() ? v : v + " on " + join(who[v], ", "));
  return join(parts, "; ");
}

// Active RDMA ports of a node: count and slowest rate; link layer of the first.
struct Rdma {
  int ports = 0;
  double gbit = 0;
  std::string link_layer;
};
Rdma active_rdma(const probe::Inventory& inv) {
  Rdma r;
  for (const auto& d : inv.ib)
    for (const auto& p : d.ports) {
      if (!p.state || p.state->find("ACTIVE") == std::string::npos || !p.rate_gbps) continue;
      ++r.ports;
      r.gbit = r.gbit == 0 ? *p.rate_gbps : std::min(r.gbit, *p.rate_gbps);
      if (r.link_layer.empty()) r.link_layer = p.link_layer.value_or("");
    }
  return r;
}

bool ib_disabled(const probe::Inventory& inv) {
  auto it = inv.env.find("NCCL_IB_DISABLE");
  return it != inv.env.end() && it->second == "1";
}

// nccl-tests' table as the judge reads it (nccl_tests_parse.h), from the bench's own rows.
judge::NcclTestsRun as_nccl_tests(const measure::BenchResult& b) {
  judge::NcclTestsRun run;
  run.coll = mc::Collective::AllReduce;
  run.test_name = "all_reduce (doctor --cluster --nccl)";
  run.format = "ncdx.bench";
  // library(): "NCCL 2.23.4 (/usr/lib/...)"
  if (b.library.rfind("NCCL ", 0) == 0) run.nccl_version = b.library.substr(5, b.library.find(' ', 5) - 5);
  run.ranks_listed = b.nranks;
  for (const auto& r : b.ranks)
    if (std::find(run.hosts.begin(), run.hosts.end(), r.host) == run.hosts.end()) run.hosts.push_back(r.host);
  auto side = [](const measure::PlaceResult& p) {
    judge::NcclTestsSide s;
    s.time_us = p.time_us;
    s.algbw_gbps = p.algbw_gbps;
    s.busbw_gbps = p.busbw_gbps;
    if (p.wrong) s.wrong = static_cast<double>(*p.wrong);
    return s;
  };
  for (const auto& r : b.rows) {
    judge::NcclTestsRow row;
    row.size = r.bytes;
    row.count = r.count;
    row.type = "float";
    row.redop = "sum";
    row.oop = side(r.out_of_place);
    row.ip = side(r.in_place);
    run.rows.push_back(row);
  }
  run.avg_busbw = b.avg_busbw_gbps;
  run.out_of_bounds = b.out_of_bounds;
  return run;
}

}  // namespace

DerivedSpec spec_from_snapshots(const std::vector<NodeSnapshot>& nodes, const std::vector<int>& gpus_per_node,
                                const std::string& shape_from) {
  DerivedSpec d;
  if (nodes.empty() || gpus_per_node.size() != nodes.size()) {
    d.why_not = "no node snapshots";
    return d;
  }
  std::vector<std::string> hosts, counts;
  for (std::size_t k = 0; k < nodes.size(); ++k) {
    hosts.push_back(nodes[k].host);
    counts.push_back(std::to_string(gpus_per_node[k]) + " GPU(s)");
  }
  if (std::adjacent_find(gpus_per_node.begin(), gpus_per_node.end(), std::not_equal_to<>()) != gpus_per_node.end() ||
      gpus_per_node.front() < 1) {
    d.why_not = "the nodes ran different GPU counts (" + by_value(counts, hosts) + "): the model needs one shape";
    return d;
  }
  mc::ClusterSpec s;
  s.nodes = static_cast<int>(nodes.size());
  s.gpus_per_node = gpus_per_node.front();
  d.notes.push_back(fmt::format("nodes={} and gpus={} {}", s.nodes, s.gpus_per_node, shape_from));
  std::vector<std::string> names;
  for (const auto& n : nodes) {
    std::string name;
    for (const auto& g : n.inventory.nvml.gpus)
      if (g.name) {
        name = *g.name;
        break;
      }
    names.push_back(name);
  }
  if (names.front().empty()) {
    d.why_not = "no GPU model in the snapshot of " + nodes.front().host +
                " (NVML not read: --quick leaves it out, or no driver); give --nccl-spec";
    return d;
  }
  if (!judge::set_gpu_model(s, names.front())) {
    d.why_not = "GPU \"" + names.front() + "\" is not in knowledge/gpu_models; give --nccl-spec";
    return d;
  }
  d.notes.push_back("gpu=" + s.gpu + " from NVML's name \"" + names.front() + "\" on " + nodes.front().host +
                    (std::count(names.begin(), names.end(), names.front()) == static_cast<long>(names.size())
                         ? ""
                         : " (the nodes differ: " + by_value(names, hosts) + ")"));
  d.notes.push_back("NVLink/NVSwitch/PCIe: the GPU model's defaults");
  if (s.nodes > 1) {
    std::vector<Rdma> rdma;
    bool any_disabled = false;
    for (const auto& n : nodes) {
      rdma.push_back(active_rdma(n.inventory));
      any_disabled = any_disabled || ib_disabled(n.inventory);
    }
    auto fewest = std::min_element(rdma.begin(), rdma.end(), [](const Rdma& a, const Rdma& b) { return a.ports < b.ports; });
    if (fewest->ports > 0 && !any_disabled) {
      double slowest = fewest->gbit;
      for (const auto& r : rdma) slowest = std::min(slowest, r.gbit);
      s.nics_per_node = fewest->ports;
      s.nic_gbit = slowest;
      s.nic_kind = fewest->link_layer == "Ethernet" ? mc::NicKind::RoCE : mc::NicKind::IB;
      d.notes.push_back(fmt::format("nic={}x{:g}G: ACTIVE RDMA ports ({}), fewest per node and slowest rate; "
                                    "NCCL_IB_HCA not applied, GPUDirect RDMA assumed",
                                    s.nics_per_node, s.nic_gbit, fewest->link_layer.empty() ? "?" : fewest->link_layer));
    } else {
      // NCCL falls back to its socket transport (NET/Socket) over the interface it picks.
      double slowest = 0;
      std::string iface;
      for (const auto& n : nodes) {
        auto names_ = nccl_socket_interfaces(n.inventory.net, n.inventory.env);
        std::optional<int> mbps;
        for (const auto& i : n.inventory.net)
          if (!names_.empty() && i.name == names_.front()) mbps = i.speed_mbps;
        if (!mbps || *mbps <= 0) {
          d.why_not = "no active RDMA port and no link speed for " + (names_.empty() ? std::string("any interface") : names_.front()) +
                      " on " + n.host + "; give --nccl-spec with nic=<count>x<rate>G";
          d.spec.reset();
          return d;
        }
        if (iface.empty()) iface = names_.front();
        slowest = slowest == 0 ? *mbps / 1000.0 : std::min(slowest, *mbps / 1000.0);
      }
      s.nics_per_node = 1;
      s.nic_gbit = slowest;
      s.nic_kind = mc::NicKind::Socket;
      s.gdr = false;
      d.notes.push_back(fmt::format("nic=1x{:g}G-TCP: {} (NCCL's socket interface, e.g. {}), slowest link speed",
                                    slowest, any_disabled ? "NCCL_IB_DISABLE=1" : "no ACTIVE RDMA port", iface));
    }
  }
  d.spec = s;
  return d;
}

void judge_cluster_nccl(ClusterNccl& r, const std::vector<NodeSnapshot>& nodes, const ClusterNcclOptions& opt) {
  if (!r.ran) return;
  r.spec.reset();
  r.spec_notes.clear();
  r.spec_why_not.clear();
  if (opt.spec) {
    r.spec = opt.spec;
    r.spec_source = "--nccl-spec";
  } else {
    auto d = spec_from_snapshots(nodes, r.gpus_per_node);
    r.spec = d.spec;
    r.spec_notes = d.notes;
    r.spec_why_not = d.why_not;
    r.spec_source = d.spec ? "derived from the node snapshots" : "";
  }
  judge::JudgeOptions jo;
  jo.coll = mc::Collective::AllReduce;
  jo.spec = r.spec;
  auto js = judge::judge_runs({as_nccl_tests(r.bench)}, jo);
  r.judgement = js.empty() ? judge::Judgement{} : js.front();
  if (!r.spec && r.judgement.kind == judge::VerdictKind::Unknown) r.judgement.verdict = "unknown: " + r.spec_why_not;
  if (!r.spec) r.judgement.spec.reset();
}

std::optional<core::Finding> nccl_finding(const ClusterNccl& r) {
  core::Finding f;
  f.klass = "nccl";
  if (!r.error.empty()) {
    f.id = "cluster.nccl.failed";
    f.severity = core::Severity::warn;
    f.title = "NCCL all-reduce across the cluster did not complete";
    f.summary = r.error;
  } else if (r.ran && (r.judgement.kind == judge::VerdictKind::Slow || r.judgement.kind == judge::VerdictKind::Wrong)) {
    const bool slow = r.judgement.kind == judge::VerdictKind::Slow;
    f.id = slow ? "cluster.nccl.slow" : "cluster.nccl.wrong-results";
    // Slow: the judge's threshold (JudgeOptions::slow_below, 70 % of the model's busbw, the
    // same as `ncdx model --judge`, docs/MODEL.md "Judging"); the model's own error on healthy
    // clusters is within it. A WARN, as a slow nccl-tests run is in triage.
    f.severity = slow ? core::Severity::warn : core::Severity::error;
    f.title = "NCCL all-reduce over " + std::to_string(r.bench.nranks) + " GPUs: " + r.judgement.verdict;
    f.summary = r.judgement.verdict;
    if (!r.judgement.causes.empty()) f.summary += "; likely: " + join(r.judgement.causes, "; ");
    if (!kNcclVerifiedOnHardware) f.summary += " (ncdx's NCCL path is unverified on GPUs)";
  } else {
    return std::nullopt;
  }
  f.fixes.push_back({knowledge::doctor_fix(f.id), {}, {}, {}, {}});
  return f;
}

ClusterNccl run_cluster_nccl(cluster::Comm& comm, const std::vector<std::vector<int>>& ranks_of,
                             const std::vector<std::string>& hosts, const ClusterNcclOptions& opt) {
  ClusterNccl r;
  r.requested = true;
  const int me = comm.rank();
  std::size_t my_node = 0, my_index = 0;
  for (std::size_t k = 0; k < ranks_of.size(); ++k)
    for (std::size_t i = 0; i < ranks_of[k].size(); ++i)
      if (ranks_of[k][i] == me) {
        my_node = k;
        my_index = i;
      }
  int count = 0;
  std::string why = measure::nccl_unusable(&count);
  // The node's GPUs dealt over its ranks: one rank per node drives all of them, one rank per
  // GPU drives its own; ranks beyond the GPU count drive none.
  std::vector<int> devs;
  const std::size_t k = std::max<std::size_t>(1, ranks_of.empty() ? 1 : ranks_of[my_node].size());
  for (int d = 0; d < count; ++d)
    if (static_cast<std::size_t>(d) % k == my_index) devs.push_back(d);
  // Every rank must take the same branch: one rank without NCCL would leave the rest in
  // ncclCommInitRank. The node's leader speaks for it in the reason.
  auto reasons = comm.allgather(why);
  auto ndevs = comm.allgather(std::to_string(devs.size()));
  std::vector<std::string> node_reason(ranks_of.size());
  int total = 0;
  for (std::size_t n = 0; n < ranks_of.size(); ++n) {
    int gpus = 0;
    for (int rk : ranks_of[n]) {
      if (node_reason[n].empty()) node_reason[n] = reasons[static_cast<std::size_t>(rk)];
      gpus += std::atoi(ndevs[static_cast<std::size_t>(rk)].c_str());
    }
    r.gpus_per_node.push_back(gpus);
    total += gpus;
  }
  if (auto s = by_value(node_reason, hosts); !s.empty()) {
    r.skipped = "skipped: " + s;
    return r;
  }
  if (total == 0) {
    r.skipped = "skipped: no CUDA device";
    return r;
  }
  std::unique_ptr<measure::Harness> h;
  if (comm.launcher() == "mpi") {
    auto mh = measure::mpi_harness();
    if (mh) h = std::move(*mh);
    else why = mh.status().message();
  } else if (comm.size() == 1) {
    h = measure::single_harness();
  } else {
    why = "no harness for launcher " + comm.launcher();
  }
  for (const auto& w : comm.allgather(why))
    if (!w.empty()) {
      r.error = "failed: " + w;
      return r;
    }
  auto engine = measure::nccl_engine_on(*h, devs);
  std::string err = engine ? std::string() : engine.status().message();
  std::vector<std::string> errs = comm.allgather(err);
  std::vector<std::string> err_node(ranks_of.size());
  for (std::size_t n = 0; n < ranks_of.size(); ++n)
    for (int rk : ranks_of[n])
      if (err_node[n].empty()) err_node[n] = errs[static_cast<std::size_t>(rk)];
  if (auto s = by_value(err_node, hosts); !s.empty()) {
    r.error = "failed: " + s;
    return r;
  }
  measure::BenchOptions bo;
  bo.sizes = opt.sizes;
  bo.iters = opt.iters;
  bo.warmup = opt.warmup;
  bo.check = 1;  // nccl-tests' default: a corrupting fabric is a finding of its own
  auto res = measure::run_bench(*h, **engine, bo);
  if (!res) {
    r.error = "failed: " + res.status().message() + " (rank " + std::to_string(me) + ")";
    return r;
  }
  r.bench = std::move(*res);
  r.ran = true;
  return r;
}

}  // namespace ncdx::analyze
