// Per-operation pick: ncclTopoGetAlgoTime for every enabled (algo, proto), argmin with ties to
// the lower index (enqueue.cc updateCollCostTable/topoGetAlgoInfo), then channels and threads.
#include <algorithm>
#include <cmath>

#include "knowledge/nccl_tuning.h"
#include "model/cost/collnet.h"
#include "model/cost/graph_estimate.h"
#include "model/cost/pick_filter.h"
#include "model/cost/pipeline.h"
#include "model/cost/predict.h"

namespace ncdx::model::cost {
namespace {

constexpr int TREE = 0, RING = 1, NVLS = 4, NVLST = 5, PAT = 6;
constexpr int LL = 0, LL128 = 1, SIMPLE = 2;

int log2i(unsigned long long x) {
  int l = -1;
  while (x > 0) { x >>= 1; ++l; }
  return l;
}

const knowledge::NcclTuningFamily* tables_for(const NcclVersion& v) {
  auto t = knowledge::nccl_tuning();
  return t.ok() ? &(**t)[static_cast<int>(v.family())] : nullptr;
}

// NCCL's estimate split into its two terms: latency x latCount and bytes / (1000 x bw)
// (ncclTopoGetAlgoTime, tuning.cc). bw_us < 0: the cell is unusable.
struct AlgoTerms {
  double lat_us = 0;
  double bw_us = -1;
  double total() const { return bw_us < 0 ? -1 : lat_us + bw_us; }
};

// bw_override > 0: that bandwidth instead of the table's (the Ring backup).
AlgoTerms algo_terms(const Model& m, const knowledge::NcclTuningFamily& t, int coll, int a, int p,
                     std::uint64_t bytes, int num_pipe_ops, double bw_override = 0) {
  auto C = static_cast<Collective>(coll);
  double bw = bw_override > 0 ? bw_override : m.bandwidth(C, static_cast<Algo>(a), static_cast<Proto>(p));
  double lat = m.latency(C, static_cast<Algo>(a), static_cast<Proto>(p));
  if (bw <= 0) return {};
  const Family fam = m.version().family();
  int logSize = log2i(bytes >> 6);
  const auto& corr = t.tree_correction[p];
  bool tree_corr = a == TREE && logSize >= 0 && logSize < 23 && (fam == Family::V2_14_18 || coll == 4);
  if (tree_corr && logSize < static_cast<int>(corr.size())) bw *= corr[logSize];
  if (fam == Family::V2_28_plus && m.version().code() >= 22900 && a == NVLST && coll == 4 && logSize >= 0 &&
      logSize < static_cast<int>(corr.size()) && m.spec().sm >= 100)
    bw *= corr[logSize];  // x86 assumed
  const int n = m.nranks();
  if (a == RING && p == SIMPLE && m.spec().nodes > 1 && coll == 4 &&
      bytes / (static_cast<std::uint64_t>(m.comm_channels()) * n) >= 64)
    lat *= m.spec().sm < 80 ? 1.9 : 1.4;  // "Plateau effect of ring"
  int latCount = a == RING ? num_pipe_ops : (num_pipe_ops + t.max_work_elements - 1) / t.max_work_elements;
  return {lat * latCount, static_cast<double>(bytes) / (1000.0 * bw)};
}

double algo_time(const Model& m, const knowledge::NcclTuningFamily& t, int coll, int a, int p,
                 std::uint64_t bytes, int num_pipe_ops) {
  return algo_terms(m, t, coll, a, p, bytes, num_pipe_ops).total();
}

double algo_time_backup(const Model& m, const knowledge::NcclTuningFamily& t, int coll, int p,
                        std::uint64_t bytes, int num_pipe_ops, double ring_bw) {
  return algo_terms(m, t, coll, RING, p, bytes, num_pipe_ops, ring_bw).total();
}

// Point-to-point collectives (nccl-tests alltoall_perf / sendrecv_perf): NCCL runs them as
// send/recv on p2p channels with no cost-model pick, so they are modelled by bandwidth: the
// intra-node share over the GPU's NVLink/PCIe and the inter-node share over the node's NICs
// divided among its GPUs, plus NCCL's per-step base latency.
Prediction p2p_prediction(const Model& m, Collective coll, std::uint64_t bytes) {
  Prediction p;
  p.coll = coll;
  p.bytes = bytes;
  const auto& s = m.spec();
  const auto& ring = m.graphs()[RING];
  const int n = s.nranks(), gpn = s.gpus_per_node;
  double intra = gpn > 1 ? ring.bw_intra * ring.nchannels : 0;  // GB/s per GPU within the node
  double nic = s.nic_gbit / 8.0;
  // One GPU's path to a NIC: PCIe and the NIC, and the inter-socket link when the NIC is on the
  // other socket (graph_estimate.h capacities()).
  const double net_path = capacities(s, 0).net_path;
  double per_gpu_net = s.nodes > 1 ? std::min(s.pcie_gbps, nic) * std::max(1, s.nics_per_node) / gpn : 0;
  if (s.nodes > 1) per_gpu_net = std::min(per_gpu_net, net_path);
  double t_us;
  if (coll == Collective::SendRecv) {
    // sendrecv_perf: rank r sends to r+1; with several nodes the boundary ranks cross the net
    // through one NIC each, and the slowest pair sets the time.
    double bw = s.nodes > 1 ? net_path : (gpn > 1 ? intra : 0);
    if (bw <= 0) { p.note = "one rank: no transfer"; return p; }
    t_us = (s.nodes > 1 ? 14.0 : 6.0) + static_cast<double>(bytes) / (1000.0 * bw);
  } else {
    double local = static_cast<double>(bytes) * (gpn - 1) / n, remote = static_cast<double>(bytes) * (n - gpn) / n;
    double tl = intra > 0 ? local / (1000.0 * intra) : 0, tr = per_gpu_net > 0 ? remote / (1000.0 * per_gpu_net) : 0;
    if (n <= 1) { p.note = "one rank: no transfer"; return p; }
    t_us = (s.nodes > 1 ? 14.0 : 6.0) + (n - 1) * 0.5 + std::max(tl, tr);
  }
  p.available = true;
  p.algo = Algo::Ring;
  p.proto = Proto::Simple;
  p.nchannels = m.comm_channels();
  p.nthreads = 512;
  p.time_us = t_us;
  p.algbw_gbps = static_cast<double>(bytes) / (1000.0 * t_us);
  p.busbw_gbps = p.algbw_gbps * busbw_factor(coll, n);
  p.note = "point-to-point: modelled by link bandwidth (no NCCL cost-model pick)";
  return p;
}

}  // namespace

double busbw_factor(Collective coll, int n) {
  if (n <= 0) return 0;
  switch (coll) {
    case Collective::AllReduce: return 2.0 * (n - 1) / n;
    case Collective::AllGather:
    case Collective::ReduceScatter:
    case Collective::AllToAll: return 1.0 * (n - 1) / n;
    default: return 1.0;
  }
}

std::array<long long, 8> Model::thread_thresholds() const {
  long long n = nranks();
  return {8, 8, 64, 8 * n, 8, 64, 512, 512};
}

std::vector<CostCell> Model::cost_table(Collective coll, std::uint64_t bytes) const {
  std::vector<CostCell> out;
  const auto* t = tables_for(version_);
  int c = static_cast<int>(coll);
  if (!t || c >= kNumNcclFuncs) return out;
  // Cells the cost loop leaves out keep their table values but no time (NCCL_ALGO_PROTO_IGNORE).
  const PickContext pc{version_.code(), spec_.nodes, nranks(), spec_.gpus_per_node,
                       collnet_state(spec_, graphs_, version_).enabled, graphs_[NVLS].nchannels > 0};
  for (int a = 0; a < kNumAlgos; ++a)
    for (int p = 0; p < kNumProtos; ++p) {
      CostCell cell{static_cast<Algo>(a), static_cast<Proto>(p), lat_[c][a][p], bw_[c][a][p], -1};
      if (nranks() > 1 && !pick_skips(pc, coll, static_cast<Algo>(a)))
        cell.time_us = algo_time(*this, *t, c, a, p, bytes, std::max(1, options_.num_pipe_ops));
      out.push_back(cell);
    }
  return out;
}

Prediction Model::predict(Collective coll, std::uint64_t bytes) const {
  if (coll == Collective::AllToAll || coll == Collective::SendRecv) return p2p_prediction(*this, coll, bytes);
  Prediction p;
  p.coll = coll;
  p.bytes = bytes;
  const int n = nranks();
  if (n <= 1) {
    // One rank: NCCL copies locally (or nothing in place); not a network collective.
    p.note = "single rank: NCCL runs the collective as a local copy";
    return p;
  }
  if (bytes == 0) { p.note = "0 bytes: NCCL returns without launching"; return p; }
  auto table = cost_table(coll, bytes);
  const CostCell* best = nullptr;
  for (const auto& cell : table)
    if (cell.time_us >= 0 && (!best || cell.time_us < best->time_us)) best = &cell;
  const int code = version_.code();
  bool backup = false;  // the pick is the Ring backup (2.19-2.23)
  if (!best && code >= 21900 && code < 22400) {
    // Ring backup (2.19-2.23): with no usable cell NCCL times Ring on comm->ringbdw
    // (ncclTopoGetAlgoTime's backup, tuning.cc:404-410 @v2.19.1-1; enqueue.cc backupAlgo).
    const auto* t = tables_for(version_);
    const int c = static_cast<int>(coll);
    table.reserve(table.size() + kNumProtos);  // best points into table
    for (int pr = 0; t && c < kNumNcclFuncs && pr < kNumProtos; ++pr) {
      if (ring_backup_[c][pr] <= 0) continue;
      CostCell cell{Algo::Ring, static_cast<Proto>(pr), lat_[c][RING][pr], ring_backup_[c][pr],
                    algo_time_backup(*this, *t, c, pr, bytes, std::max(1, options_.num_pipe_ops), ring_backup_[c][pr])};
      if (cell.time_us >= 0 && (!best || cell.time_us < best->time_us)) {
        table.push_back(cell);
        best = &table.back();
      }
    }
    backup = best != nullptr;
    if (best) p.note = "no algorithm left: NCCL " + version_.str() + " falls back to Ring (its backup bandwidth)";
  }
  if (!best) {
    p.note = std::string("no algorithm/protocol available for ") + std::string(nccl_name(coll)) +
             (options_.nccl_algo.empty() && options_.nccl_proto.empty() ? "" : " (NCCL_ALGO/NCCL_PROTO leave none)");
    return p;
  }
  if (backup) {
    // NCCL's estimate is the backup cell's; ncdx's time for the Ring it runs comes from the same
    // cluster without the NCCL_ALGO that left nothing (its channels, chunks and slot windows), and
    // is never below NCCL's estimate (predict_entry's rule).
    Options o = options_;
    o.nccl_algo.clear();
    auto ring = Model::build(spec_, version_, o);
    Prediction r = ring.ok() ? ring->predict_entry(coll, bytes, best->algo, best->proto) : Prediction{};
    if (!r.available) {
      r = p;
      r.available = true;
      r.algo = best->algo;
      r.proto = best->proto;
      r.time_us = best->time_us;
    }
    r.nccl_time_us = best->time_us;
    r.time_us = std::max(r.time_us, best->time_us);
    r.note = p.note;
    return r;
  }
  return predict_entry(coll, bytes, best->algo, best->proto);
}

Prediction Model::predict_entry(Collective coll, std::uint64_t bytes, Algo algo, Proto proto) const {
  Prediction p;
  p.coll = coll;
  p.bytes = bytes;
  p.algo = algo;
  p.proto = proto;
  const int n = nranks();
  const auto* t = tables_for(version_);
  const int c = static_cast<int>(coll);
  if (n <= 1 || bytes == 0 || !t || c >= kNumNcclFuncs) return p;
  const int a = static_cast<int>(algo), pr = static_cast<int>(proto);
  const AlgoTerms terms = algo_terms(*this, *t, c, a, pr, bytes, std::max(1, options_.num_pipe_ops));
  if (terms.bw_us < 0) {
    p.note = "disabled in NCCL's table";
    return p;
  }
  p.available = true;
  p.nccl_time_us = terms.total();
  const int code = version_.code();

  // Channels and threads (topoGetAlgoInfo, enqueue.cc @v2.27.7-1).
  int nc = (a == NVLS || a == NVLST) ? (spec_.nodes > 1 && a == NVLS ? std::min(nvls_channels_, comm_channels_) : nvls_channels_)
                                     : comm_channels_;
  int nt = max_threads_[a][pr];
  auto tt = thread_thresholds();
  long long thr = pr == SIMPLE ? 64 : 8;
  if (a == RING) thr = tt[3 + pr];
  if ((a == 2 || a == 3) && pr == SIMPLE) thr = tt[a == 2 ? 6 : 7];
  if (a != NVLS && a != NVLST && a != 2) {
    while (static_cast<long long>(bytes) < nc * nt * thr && nc >= 2) --nc;
    while (static_cast<long long>(bytes) < nc * nt * thr && nt % 128 == 0) nt /= 2;
  }
  if (pr == SIMPLE && a != NVLS && a != NVLST) nt += a == RING ? 32 : 128;
  nt = std::max(nt, 96);
  if (version_.family() != Family::V2_14_18 && code >= 22200 && (a == TREE || a == PAT)) nt = 640;
  p.nchannels = std::max(1, nc);
  p.nthreads = nt;

  // ncdx's time for the entry: NCCL's chunks and slot windows (pipeline.h); NCCL's own
  // estimate stays in nccl_time_us (it decides the pick).
  PipelineInput in{coll, algo, proto, bytes, n, spec_.nodes, p.nchannels,
                   std::max(1, graphs_[NVLS].nchannels), terms.lat_us, terms.bw_us, hop_latency(algo, proto),
                   bandwidth(Collective::AllReduce, Algo::Nvls, Proto::Simple)};
  const PipelineTime pt = pipeline_time(in);
  p.time_us = pt.time_us;
  p.chunk_bytes = pt.chunk_bytes;
  p.loops = pt.loops;
  p.slices = pt.slices;
  p.window = pt.window;
  p.hop_us = pt.modelled ? in.hop_us : 0;
  p.window_us = pt.window_us;
  p.bw_us = terms.bw_us;
  p.algbw_gbps = static_cast<double>(bytes) / (1000.0 * p.time_us);
  p.busbw_gbps = p.algbw_gbps * busbw_factor(coll, n);
  return p;
}

core::Result<Prediction> predict(const ClusterSpec& spec, Collective coll, std::uint64_t bytes,
                                 const NcclVersion& version, const Options& options) {
  auto m = Model::build(spec, version, options);
  if (!m.ok()) return m.status();
  return m->predict(coll, bytes);
}

}  // namespace ncdx::model::cost
