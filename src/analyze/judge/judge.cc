#include "analyze/judge/judge.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "analyze/judge/table_shape.h"
#include "knowledge/gpu_models.h"
#include "model/cost/predict.h"
#include "model/cost/spec_parse.h"

namespace ncdx::analyze::judge {
namespace mc = model::cost;
namespace {

std::string mb_text(std::uint64_t bytes) {
  char buf[32];
  if (bytes >= (1ull << 30) && bytes % (1ull << 30) == 0) std::snprintf(buf, sizeof buf, "%llu GB", static_cast<unsigned long long>(bytes >> 30));
  else if (bytes >= (1ull << 20)) std::snprintf(buf, sizeof buf, "%llu MB", static_cast<unsigned long long>(bytes >> 20));
  else if (bytes >= (1ull << 10)) std::snprintf(buf, sizeof buf, "%llu KB", static_cast<unsigned long long>(bytes >> 10));
  else std::snprintf(buf, sizeof buf, "%llu B", static_cast<unsigned long long>(bytes));
  return buf;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

void add_causes(Judgement& j, const NcclTestsRun& run, double measured_peak) {
  if (!j.spec) return;
  const auto& s = *j.spec;
  const auto& h = run.hints;
  double nic = s.nic_gbit / 8.0;
  char buf[256];
  if (s.nodes > 1) {
    if (h.net_socket || s.nic_kind == mc::NicKind::Socket)
      j.causes.push_back("NCCL uses the socket transport (NET/Socket): no RDMA; check NCCL_IB_DISABLE, NCCL_NET and the IB/RoCE devices");
    if (s.nics_per_node > 1 && nic > 0 && measured_peak <= 1.25 * nic * std::max(1, s.gpus_per_node) / s.nics_per_node * 1.0 &&
        measured_peak <= 1.25 * nic) {
      std::snprintf(buf, sizeof buf, "one NIC in use: peak busbw %.1f GB/s is about one %g Gb/s port (%.1f GB/s) of the %d per node%s%s",
                    measured_peak, s.nic_gbit, nic, s.nics_per_node, h.ib_hca.empty() ? "" : "; NCCL_IB_HCA=", h.ib_hca.c_str());
      j.causes.push_back(buf);
    }
    if (s.gpus_per_node > std::max(1, s.nics_per_node)) {
      std::snprintf(buf, sizeof buf, "%d GPUs per node share %d NIC%s: each rank gets 1/%d of the network bandwidth",
                    s.gpus_per_node, std::max(1, s.nics_per_node), s.nics_per_node > 1 ? "s" : "",
                    s.gpus_per_node / std::max(1, s.nics_per_node));
      j.causes.push_back(buf);
    }
    if ((h.via_net && !h.gdr && !h.net_socket) || !s.gdr)
      j.causes.push_back("no GPUDirect RDMA (no GDRDMA in the transport lines): traffic is staged through host memory; check nvidia-peermem / dma-buf and NCCL_NET_GDR_LEVEL");
    if (!h.nccl_algo.empty()) j.causes.push_back("NCCL_ALGO=" + h.nccl_algo + " set by environment: NCCL's own choice was overridden");
  } else {
    if (s.gpus_per_node > 1 && s.nvlink_links == 0)
      j.causes.push_back("PCIe only: a downtrained or shared PCIe link (check LnkSta width/speed with lspci -vv) or P2P disabled (ACS, NCCL_P2P_DISABLE)");
    if (s.gpus_per_node > 1 && s.nvlink_links > 0)
      j.causes.push_back("NVLink not used: P2P disabled (NCCL_P2P_DISABLE / NCCL_P2P_LEVEL), a failed NVLink (nvidia-smi nvlink -s), or NVLS/NVSwitch fabric manager down");
    if (h.shm) j.causes.push_back("transport lines show SHM: GPUs talk through host memory, not P2P");
  }
  j.causes.push_back("other jobs on the same GPUs or NICs, CPU/NUMA binding of the ranks, or a busy fabric (re-run to see if it repeats)");
}

}  // namespace

std::string_view name(VerdictKind k) {
  switch (k) {
    case VerdictKind::Ok: return "ok";
    case VerdictKind::Slow: return "slow";
    case VerdictKind::Wrong: return "wrong results";
    case VerdictKind::Unknown: return "unknown";
  }
  return "unknown";
}

core::Outcome outcome_of(VerdictKind k) {
  switch (k) {
    case VerdictKind::Ok: return core::Outcome::pass;
    case VerdictKind::Slow: return core::Outcome::warn;
    case VerdictKind::Wrong: return core::Outcome::fail;
    case VerdictKind::Unknown: return core::Outcome::skip;
  }
  return core::Outcome::skip;
}

bool set_gpu_model(mc::ClusterSpec& s, const std::string& device_name) {
  auto gm = knowledge::gpu_models();
  const knowledge::GpuModel* m = gm.ok() ? (*gm)->by_name(device_name) : nullptr;
  if (!m) return false;
  s.gpu = m->id;
  s.sm = m->sm.value_or(80);
  s.nvlink_links = m->nvlink_links.value_or(0);
  s.nvswitch = s.nvlink_links >= 12 && s.gpus_per_node > 2 && m->id.find("pcie") == std::string::npos;
  if (m->pcie_gts && m->pcie_width) s.pcie_gbps = (*m->pcie_gts >= 32 ? 48.0 : *m->pcie_gts >= 16 ? 24.0 : 12.0) * *m->pcie_width / 16.0;
  return true;
}

std::optional<mc::ClusterSpec> infer_spec(const NcclTestsRun& run, std::string& why_not) {
  mc::ClusterSpec s;
  int ranks = run.ranks_listed;
  if (ranks == 0 && run.nthreads && run.ngpus) ranks = *run.nthreads * *run.ngpus;
  if (ranks == 0) { why_not = "the output lists no ranks (\"#  Rank N ... on HOST device ...\" lines)"; return std::nullopt; }
  int nodes = std::max<int>(1, static_cast<int>(run.hosts.size()));
  if (ranks % nodes != 0) { why_not = "ranks are not spread evenly over the hosts"; return std::nullopt; }
  s.nodes = nodes;
  s.gpus_per_node = ranks / nodes;
  if (!set_gpu_model(s, run.device_name)) { why_not = "unknown GPU \"" + run.device_name + "\""; return std::nullopt; }
  if (nodes > 1) { why_not = "multi-node run: nccl-tests does not print the NICs; give --spec with nic=<count>x<rate>G"; return std::nullopt; }
  return s;
}

std::vector<Judgement> judge_runs(const std::vector<NcclTestsRun>& runs, const JudgeOptions& opt) {
  std::vector<Judgement> out;
  for (const auto& run : runs) {
    Judgement j;
    j.test_name = run.test_name;
    j.coll = run.coll ? run.coll : opt.coll;
    const TableShape shape = table_shape(run);
    if (!j.coll && shape.coll) {
      j.coll = shape.coll;
      j.notes.push_back("collective inferred from the table's columns (" + shape.evidence + ")");
    } else if (j.coll && shape.coll && *shape.coll != *j.coll) {
      j.notes.push_back("the table's columns fit " + std::string(mc::name(*shape.coll)) + ", not " +
                        std::string(mc::name(*j.coll)) + " (" + shape.evidence + ")");
    }
    j.avg_busbw = run.avg_busbw;
    j.first_line = run.first_line;
    // Wrong results first: they need no model.
    bool any_wrong = run.out_of_bounds && *run.out_of_bounds > 0;
    for (const auto& r : run.rows) {
      JudgedRow jr;
      jr.size = r.size;
      jr.measured_busbw = r.oop.busbw_gbps ? r.oop.busbw_gbps : r.ip.busbw_gbps;
      double tol = run.wrong_is_error_metric ? 1e-3 : 0.0;
      jr.wrong = (r.oop.wrong && *r.oop.wrong > tol) || (r.ip.wrong && *r.ip.wrong > tol);
      any_wrong = any_wrong || jr.wrong;
      j.rows.push_back(jr);
    }
    std::string why;
    if (opt.spec) { j.spec = opt.spec; j.spec_source = "--spec"; }
    else if (auto s = infer_spec(run, why)) { j.spec = s; j.spec_source = "inferred from the output"; }
    // A spec whose rank count the table contradicts is judged as given, and said: busbw would be
    // compared at the wrong scale (the p5 record of shared/data read as 16 ranks was 8, MODEL.md (b)).
    if (j.spec && shape.nranks && j.spec->nranks() != *shape.nranks)
      j.notes.push_back("the table's columns say " + std::to_string(*shape.nranks) + " ranks (" + shape.evidence +
                        "); the spec judged against has " + std::to_string(j.spec->nranks()));
    mc::NcclVersion ver = opt.version.value_or(mc::NcclVersion{2, 27, 7});
    if (!opt.version && run.nccl_version)
      if (auto v = mc::NcclVersion::parse(*run.nccl_version)) ver = *v;
    j.nccl_version = ver.str();
    std::vector<double> ratios;
    double peak = 0;
    if (j.spec && j.coll) {
      mc::Options mo;
      mo.nccl_algo = run.hints.nccl_algo.empty() ? opt.nccl_algo : run.hints.nccl_algo;
      mo.nccl_proto = run.hints.nccl_proto.empty() ? opt.nccl_proto : run.hints.nccl_proto;
      auto model = mc::Model::build(*j.spec, ver, mo);
      if (!model.ok()) { mo = {}; model = mc::Model::build(*j.spec, ver, mo); }
      if (model.ok()) {
        for (auto& jr : j.rows) {
          if (jr.measured_busbw) peak = std::max(peak, *jr.measured_busbw);
          auto p = model->predict(*j.coll, jr.size);
          if (!p.available) continue;
          jr.expected_busbw = p.busbw_gbps;
          jr.algo = std::string(mc::name(p.algo));
          jr.proto = std::string(mc::name(p.proto));
          jr.nchannels = p.nchannels;
          // Bandwidth-bound sizes only: NCCL's bandwidth term is at least three quarters of the
          // predicted time (latency and pipeline round trips at most a quarter, predict.h).
          bool bw_bound = p.time_us > 0 && (*j.coll == mc::Collective::AllToAll || *j.coll == mc::Collective::SendRecv ||
                                            p.bw_us >= 0.75 * p.time_us);
          if (jr.measured_busbw && p.busbw_gbps > 0) {
            jr.ratio = *jr.measured_busbw / p.busbw_gbps;
            if (bw_bound) { jr.counted = true; ratios.push_back(*jr.ratio); }
          }
        }
        // Too few bandwidth-bound sizes: take the largest quarter of the sizes instead.
        if (ratios.empty() && !j.rows.empty()) {
          std::size_t k = std::max<std::size_t>(1, j.rows.size() / 4);
          for (std::size_t i = j.rows.size() - k; i < j.rows.size(); ++i)
            if (j.rows[i].ratio) { j.rows[i].counted = true; ratios.push_back(*j.rows[i].ratio); }
        }
      }
    }
    for (const auto& jr : j.rows)
      if (jr.counted) { j.from_size = jr.size; break; }
    char buf[160];
    if (any_wrong) {
      j.kind = VerdictKind::Wrong;
      int n = static_cast<int>(std::count_if(j.rows.begin(), j.rows.end(), [](const JudgedRow& r) { return r.wrong; }));
      std::snprintf(buf, sizeof buf, "wrong results: %d size%s with #wrong > 0%s", n, n == 1 ? "" : "s",
                    run.out_of_bounds && *run.out_of_bounds > 0 ? " and out-of-bounds values" : "");
      j.verdict = buf;
      j.causes.push_back("data corruption: check GPU memory (ECC/Xid 48/63/94), NVLink errors, and NCCL_PROTO=LL128 on an unvalidated platform");
    } else if (!ratios.empty()) {
      double med = median(ratios);
      j.pct_of_expected = med * 100;
      if (med < opt.slow_below) {
        j.kind = VerdictKind::Slow;
        std::snprintf(buf, sizeof buf, "slow: %.0f %% of expected at >= %s", med * 100, mb_text(j.from_size).c_str());
        j.verdict = buf;
        add_causes(j, run, peak);
      } else {
        j.kind = VerdictKind::Ok;
        std::snprintf(buf, sizeof buf, "ok: %.0f %% of expected at >= %s", med * 100, mb_text(j.from_size).c_str());
        j.verdict = buf;
      }
    } else {
      j.kind = VerdictKind::Unknown;
      if (!j.coll) j.verdict = "unknown: the test (collective) is not named in the output";
      else if (!j.spec) j.verdict = "unknown: " + why;
      else j.verdict = "unknown: no size with a measured busbw";
    }
    out.push_back(std::move(j));
  }
  return out;
}

}  // namespace ncdx::analyze::judge
