// Model::build replays ncclTopoTuneModel (src/graph/tuning.cc) for one of three model
// generations; Model::predict replays the per-operation pick (ncclTopoGetAlgoTime, enqueue.cc
// topoGetAlgoInfo). Line references: v2.18.6-1 (family 2.14-2.18), v2.27.7-1 (2.19-2.27),
// v2.30.7-1 (2.28+); the constants are in knowledge/data/nccl_tuning.yaml.
#include <algorithm>
#include <cmath>
#include <limits>

#include "knowledge/gpu_models.h"
#include "knowledge/nccl_tuning.h"
#include "model/cost/algo_enable.h"
#include "model/cost/collnet.h"
#include "model/cost/graph_estimate.h"
#include "model/cost/predict.h"

namespace ncdx::model::cost {

namespace {

constexpr int kHwNvlink = 0, kHwPci = 1, kHwNet = 2;
constexpr int TREE = 0, RING = 1, CND = 2, CNC = 3, NVLS = 4, NVLST = 5, PAT = 6;
constexpr int LL = 0, LL128 = 1, SIMPLE = 2;
constexpr int BCAST = 0, REDUCE = 1, AG = 2, RS = 3, AR = 4;

int log2i(long long x) {
  int l = -1;
  while (x > 0) { x >>= 1; ++l; }
  return l;
}

int comp_cap_index(int sm, int code) {
  // Blackwell rows exist from 2.25.1 (tuning.cc); before, sm100 takes the Hopper row.
  if (sm >= 100 && code >= 22501) return 3;
  if (sm >= 90) return 2;
  if (sm >= 80) return 1;
  return 0;
}

}  // namespace

struct ModelBuilder {
  Model& m;
  const knowledge::NcclTuningFamily& t;

  void tune() {
    const auto& spec = m.spec_;
    const Family fam = m.version_.family();
    const int n = spec.nranks(), N = spec.nodes;
    const double ppn = static_cast<double>(n) / N;
    const int code = m.version_.code();
    const int cc = comp_cap_index(spec.sm, code);
    const int i2 = N <= 2 ? N - 1 : 2;
    const int i1 = N == 1 ? std::min<int>(cc, static_cast<int>(t.ll_max_bws.size()) - 1) : (spec.cpu == CpuVendor::Amd ? 1 : 0);
    const double llMaxBw = t.ll_max_bws[i1][i2];
    auto row = [&](const knowledge::NcclTuningFamily::ByCap& b) {
      return b.empty() ? 0.0 : b[std::min<std::size_t>(cc, b.size() - 1)][i2];
    };
    const double perChMaxTreeBw = row(t.per_ch_max_tree);
    const double perChMaxRingLL128Bw = row(t.per_ch_max_ring_ll128);
    const double perChMaxTreeLL128Bw = row(t.per_ch_max_tree_ll128);
    const double perChMaxNVLSTreeBw = row(t.per_ch_max_nvls_tree);
    const double nvlsEff = t.nvls_efficiency.empty() ? 0 : t.nvls_efficiency[std::min<std::size_t>(cc, t.nvls_efficiency.size() - 1)];
    // getNetOverhead: 1 us on Intel, 2 us on AMD (x86), 1 us elsewhere (NCCL_NET_OVERHEAD unset).
    const double netOverheadBase = spec.cpu == CpuVendor::Amd ? 2.0 : 1.0;
    const auto& G = m.graphs_;
    std::array<int, kNumAlgos> intraHw{}, hw{};
    for (int a = 0; a < kNumAlgos; ++a) {
      intraHw[a] = G[a].type_intra == PathType::NVL ? kHwNvlink : kHwPci;
      hw[a] = N == 1 ? intraHw[a] : kHwNet;
    }
    const bool pat_enable = spec.sm >= 60 && N == n && m.version_.code() >= 22300;  // ncclPatEnable (auto)
    const CollNetState cn = collnet_state(spec, G, m.version_);

    for (int coll = 0; coll < kNumNcclFuncs; ++coll) {
      const int nsteps = coll == AR ? 2 * (n - 1) : (coll == RS || coll == AG) ? n - 1 : n;
      for (int a = 0; a < kNumAlgos; ++a) {
        if (!algo_runs(static_cast<Collective>(coll), static_cast<Algo>(a), m.version_)) continue;
        for (int p = 0; p < kNumProtos; ++p) {
          if ((a == NVLS || a == NVLST) && p != SIMPLE) continue;
          if (a == PAT && (p != SIMPLE || !pat_enable)) continue;
          const Graph& g = G[a];
          const bool collnet = a == CND || a == CNC;
          double bw = (N <= 2 || collnet) ? g.bw_intra : g.bw_inter;
          if (fam == Family::V2_28_plus && (a == NVLS || a == NVLST)) {
            if (g.nchannels < 2) continue;
            double intraBw = g.bw_intra * nvlsEff * (g.nchannels - 1) / g.nchannels;
            intraBw *= coll == AR ? 2.0 : (ppn - 1) / ppn;
            double interBw = g.bw_inter * ((N <= 2 && a == NVLST) ? 2 : 1);
            bw = std::min({intraBw, interBw, a == NVLST ? perChMaxNVLSTreeBw : std::numeric_limits<double>::max()});
          } else if (fam == Family::V2_19_27 && a == NVLS) {
            // AllGather/ReduceScatter have their own NVLS rate from 2.27 (tuning.cc:267-273
            // @v2.27.3-1); before, every collective took min(bwIntra, bwInter) (tuning.cc:251 @v2.26.6-1).
            bw = (coll == AR || code < 22700) ? std::min(g.bw_intra, g.bw_inter)
                                              : std::min(g.bw_intra * (ppn - 1) / ppn, g.bw_inter * 0.9);
          } else if (fam == Family::V2_19_27 && a == NVLST) {
            bw = std::min(g.bw_intra, N <= 2 ? g.bw_inter : g.bw_inter / 2);
          }
          double busBw = g.nchannels * bw;

          // Model refinements (tuning.cc:170-190 @v2.18.6-1, :266-300 @v2.27.7-1, :325-360 @v2.30.7-1).
          if (a == RING && p == LL) {
            // 1/4 (1/3 for single-node Bcast/AG/RS) until 2.20, a flat 0.5 from 2.21.5 (tuning.cc:180 @v2.21.5-1).
            double f = code < 22100 ? ((N > 1 || coll == AR || coll == REDUCE) ? 0.25 : 1.0 / 3.0) : 0.5;
            busBw = std::min(llMaxBw, busBw * f);
          }
          if (a == RING && p == LL128) {
            // The ppn < 2 discount is gone from 2.23 (tuning.cc:179 @v2.22.3-1 still has it).
            double f = (code < 22300 && ppn < 2) ? 0.7 : 0.92;
            busBw = std::min(busBw * f, g.nchannels * perChMaxRingLL128Bw);
          }
          if (a == TREE && (coll == AR || fam == Family::V2_14_18)) busBw = std::min(busBw * .92, g.nchannels * perChMaxTreeBw);
          if (a == TREE && p == LL) busBw = std::min(busBw / 3.8, llMaxBw);
          if (a == TREE && p == LL128) busBw = std::min(busBw * (N == 1 ? 7.0 / 9.0 : 120.0 / 128.0), g.nchannels * perChMaxTreeLL128Bw);
          // The TREE-pattern discount exists from 2.18.3 (tuning.cc:183 @v2.18.3-1; absent @v2.18.1-1).
          if (a == TREE && g.pattern == 3 && code >= 21803) busBw *= .85;
          if (a == PAT) busBw *= m.version_.code() >= 22400 ? .75 : .85;
          if (collnet && p != SIMPLE) busBw = 0;
          if (a == CND && p == SIMPLE) {
            if ((coll == AG || coll == RS) && code < 22700) {
              // 2.20-2.26: the per-channel rate x ppn, off across nodes when a node has more
              // ranks than CollNet heads, and a measured 0.95 (1 ppn) to 0.85 (8 ppn)
              // (tuning.cc:189-203 @v2.20.3-1, :188-202 @v2.21.5-1).
              busBw = ppn * bw;
              if (N > 1 && ppn > cn.heads) busBw = 0;
              const double w = (ppn - 1) / (8 - 1);
              busBw *= w * 0.85 + (1 - w) * 0.95;
            } else if (coll == AG || coll == RS) {
              busBw = ppn * std::min(g.bw_intra, g.bw_inter * 0.9);
            } else {
              double factor = ppn / (1.0 * std::max(1, g.nchannels));
              factor -= (factor - 1) / 2;
              busBw /= factor;
              if (spec.sm >= 90) busBw *= .85;
            }
          }
          // NVLS/CollNetDirect AllGather/ReduceScatter across nodes need CollNet, the plugin's
          // iallgather/ireducescatter (assumed when collnet is set) and no node with more ranks
          // than CollNet heads (tuning.cc:299-318 @v2.27.7-1). Before 2.27 the cost loop drops
          // NVLS there (pick_filter.h) and CollNetDirect has its own rule above.
          if ((a == NVLS || a == CND) && (coll == AG || coll == RS) && N > 1 && code >= 22700 &&
              (!cn.enabled || spec.gpus_per_node > cn.heads))
            busBw = 0;

          // Bus bandwidth -> algorithm bandwidth.
          // AllGather/ReduceScatter keep the bus rate for every algorithm but Ring from 2.23
          // (tuning.cc:221 @v2.23.4-1); 2.19-2.22 exempt only CollNetDirect, so NVLS takes 5/6
          // (tuning.cc:213 @v2.21.5-1).
          bool convert = fam == Family::V2_14_18 ||
                         (code < 22300 ? !(a == CND && (coll == AG || coll == RS)) : !(a != RING && (coll == AG || coll == RS)));
          if (convert) {
            double ratio;
            if (a == RING) ratio = 1.0 * n / nsteps;
            else if (a == NVLS || a == NVLST) {
              if (fam == Family::V2_28_plus) ratio = 1.0 * n / nsteps;
              else if (fam == Family::V2_19_27) ratio = 5.0 / 6.0;
              // NVLS 3/4 until 2.18.1 (tuning.cc:187 @v2.18.1-1), 5/6 from 2.18.3 (:197 @v2.18.3-1).
              else ratio = a == NVLS ? (code < 21803 ? 0.75 : 5.0 / 6.0) : (N > 1 ? .70 * N / (2.0 * (N - 1)) : 0);
            } else ratio = .5;
            busBw *= ratio;
          }
          m.bw_[coll][a][p] = busBw;
          if (a == RING) m.ring_backup_[coll][p] = busBw;  // comm->ringbdw (2.19-2.23)

          // Latency.
          double lat = t.base_lat[a][p];
          double intraLat = t.hw_lat[intraHw[a]][a][p];
          double interLat = (fam != Family::V2_14_18 && ppn == 1 && m.version_.code() >= 22300) ? t.hw_lat[kHwNet][TREE][p] : t.hw_lat[kHwNet][a][p];
          interLat += g.latency_inter;
          if (p == SIMPLE) interLat += g.latency_inter;
          m.hop_[a][p] = N > 1 ? interLat : intraLat;  // pipeline.h: the slowest hop per step
          if (a == RING) {
            double l = t.hw_lat[hw[a]][a][p];
            if (coll == REDUCE || coll == BCAST) {
              if (g.same_channels) lat += l;
              else lat += nsteps * (p == SIMPLE ? t.hw_lat[hw[a]][TREE][p] : l);
            } else {
              double netOv = N > 1 ? netOverheadBase * (p == SIMPLE ? 3 : 1) : 0;
              intraLat = std::max(intraLat, netOv);
              int nInter;
              if (fam == Family::V2_14_18 || m.version_.code() < 22300)
                nInter = coll == AR ? (N > 1 ? 2 * N : 0) : (coll == RS || coll == AG) ? N - 1 : N;
              else
                nInter = N == 1 ? 0 : coll == AR ? 2 * (N - 1) : N - 1;
              lat += (nsteps - nInter) * intraLat + nInter * interLat;
            }
          } else if (a == TREE) {
            if (coll == AR) lat += 2 * ((n / N - 1) * intraLat + log2i(N) * interLat);
          } else if (a == CND) {
            double arity = fam == Family::V2_14_18 ? 0.5 : 0.4;
            lat += 2 * (std::min(1, n / N - 1) * intraLat + (n / N - 1) * arity) + interLat;
          } else if (a == CNC) {
            lat += 2 * (n / N - 1) * intraLat + interLat;
          } else if (a == NVLS) {
            if (fam == Family::V2_14_18) { if (N > 1) lat += t.hw_lat[kHwNet][a][p]; }
            else { lat = intraLat; if (N > 1) lat += interLat; }
          } else if (a == NVLST) {
            if (fam == Family::V2_14_18) lat += 2 * (N - 1) * t.hw_lat[kHwNet][a][p];
            else lat += intraLat + 2 * log2i(N) * interLat;
          } else if (a == PAT) {
            lat = (fam == Family::V2_28_plus ? lat : 8.0) + log2i(N) * (interLat / 3.5) + n * 2.8;
          }
          m.lat_[coll][a][p] = lat;
        }
      }
    }
  }

  core::Status enable_rules() {
    const auto& spec = m.spec_;
    auto em = parse_enable(m.options_.nccl_algo, m.options_.nccl_proto, m.version_);
    if (!em.ok()) return em.status();
    const Family fam = m.version_.family();
    const auto& G = m.graphs_;
    bool nvls_ok = G[NVLS].nchannels > 0;
    const CollNetState cn = collnet_state(spec, G, m.version_);
    const int code = m.version_.code();
    for (int c = 0; c < kNumNcclFuncs; ++c)
      for (int a = 0; a < kNumAlgos; ++a) {
        bool disable = !em->algo[c][a] || !algo_known(static_cast<Algo>(a), m.version_);
        if (spec.nodes == 1 && a == NVLST) disable = true;
        if (!cn.enabled && (a == CND || a == CNC || (a == NVLS && spec.nodes > 1))) disable = true;
        // 2.30.7: CollNetChain off when its heads are not all CollNet heads (tuning.cc:507 @v2.30.7-1).
        if (cn.enabled && a == CNC && !cn.chain_support) disable = true;
        if (!spec.nvswitch && a == CND) disable = true;
        if ((a == NVLS || a == NVLST) && !nvls_ok) disable = true;
        for (int p = 0; p < kNumProtos; ++p) {
          bool pen = em->proto[c][p];
          if (p == LL128 && !(em->proto_set && em->proto[c][p])) pen = pen && ll128_default(c, a);
          if (!pen || disable) m.bw_[c][a][p] = 0;
          // The Ring backup keeps the protocol rules from 2.22 (tuning.cc:318 @v2.22.3-1; none
          // in 2.19-2.21, tuning.cc:202-204 @v2.19.1-1).
          if (a == RING && !pen && code >= 22200) m.ring_backup_[c][p] = 0;
        }
      }
    // 2.19-2.23: a function left without any bandwidth gets the Ring backup back in the table
    // ("at least set ring algo available", tuning.cc:304-318 @v2.19.1-1, :343-356 @v2.23.4-1).
    if (code >= 21900 && code < 22400)
      for (int c = 0; c < kNumNcclFuncs; ++c) {
        bool any = false;
        for (const auto& row : m.bw_[c]) for (double v : row) any = any || v != 0;
        if (!any) for (int p = 0; p < kNumProtos; ++p) m.bw_[c][RING][p] = m.ring_backup_[c][p];
      }
    (void)fam;
    return core::Status::ok();
  }

  // LL128 on by default only where NVIDIA validated it (tuning.cc "Enable LL128 by default only
  // on Volta/Ampere/Hopper..."; :283 @v2.18.6-1, C2C/PXN rule from 2.27, mixed cc from 2.30.3).
  bool ll128_default(int c, int a) const {
    const auto& spec = m.spec_;
    const auto& g = m.graphs_[a];
    const int code = m.version_.code();
    bool on;
    if (code >= 22700 && spec.sm >= 90) on = g.type_inter <= PathType::PXN;
    else on = g.type_inter <= PathType::PXB || (code < 22700 && spec.sm >= 90 && g.type_inter <= PathType::PXN);
    // Intra-node paths up to NVB from 2.18.3 (tuning.cc:286 @v2.18.3-1), up to NVL before (:276 @v2.18.1-1).
    on = on && g.type_intra <= (code < 21803 ? PathType::NVL : PathType::NVB);
    if (spec.sm < 70) on = false;
    if (code < 22700) {
      bool validated = spec.sm == 70 || spec.sm == 80 || spec.sm == 90 || (code >= 22500 && (spec.sm == 100 || spec.sm == 120));
      on = on && validated;
    }
    (void)c;
    return on;
  }

  void channels_and_threads() {
    const auto& spec = m.spec_;
    const auto& ring = m.graphs_[RING];
    // ncclTopoPostset (src/graph/connect.cc:452,466 @v2.27.7-1): ring channels doubled; on
    // sm90+ multi-node with bwIntra > 45 and < 16 channels doubled again.
    int nc = std::min(t.max_channels, ring.nchannels * 2);
    if (m.version_.code() >= 21900 && spec.sm >= 90 && spec.nodes > 1 && ring.bw_intra > 45.0 && nc < 16)
      nc = std::min(t.max_channels, nc * 2);
    m.comm_channels_ = nc;
    m.nvls_channels_ = m.graphs_[NVLS].nchannels > 0 ? 16 : 0;  // NCCL_NVLS_NCHANNELS default 16 (sm90)
    // maxThreads (tuning.cc ncclTopoTuneModel head): Ring Simple 256 when the ring is no faster
    // than PCI_BW (12 GB/s), else 512; LL 512; LL128 640; CollNet/NVLS 640 (NCCL_MAX_NTHREADS).
    int ringSimple = ring.bw_intra * ring.nchannels <= 12.0 ? 256 : 512;
    for (auto& r : m.max_threads_) r = {512, 640, 512};
    m.max_threads_[RING][SIMPLE] = ringSimple;
    for (int a : {CND, CNC, NVLS, NVLST}) m.max_threads_[a][SIMPLE] = 640;
  }
};

core::Result<Model> Model::build(const ClusterSpec& spec, const NcclVersion& version, const Options& options) {
  if (spec.nodes < 1 || spec.gpus_per_node < 1) return core::Status::bad_input("spec: nodes and gpus must be >= 1");
  if (static_cast<long long>(spec.nodes) * spec.gpus_per_node > 1000000)
    return core::Status::bad_input("spec: more than 1,000,000 ranks");
  if (spec.sm < 30 || spec.sm > 200) return core::Status::bad_input("spec: compute capability " + std::to_string(spec.sm) + " out of range (expected 30..200, e.g. 90 for sm_90)");
  auto tables = knowledge::nccl_tuning();
  if (!tables.ok()) return tables.status();
  const auto fam = (**tables)[static_cast<int>(version.family())].for_release(version.code());
  Model m;
  m.spec_ = spec;
  m.version_ = version;
  m.options_ = options;
  double per_link = spec.nvlink_gbps_per_link;
  // NCCL's per-link rate of this release (nvlink_revisions in nccl_tuning.yaml: 22 before 2.18.1,
  // SM90 20.0 before 2.20.3, SM100 40.0 before 2.27.5), else the GPU table's current value.
  if (per_link <= 0) per_link = fam.nvlink_gbps(spec.sm, version.code());
  if (per_link <= 0) {
    auto gm = knowledge::gpu_models();
    if (gm.ok()) per_link = (*gm)->nccl_nvlink_gbps(spec.sm).value_or(20.0);
  }
  if (options.graphs) {
    m.graphs_ = *options.graphs;
  } else {
    auto cap = capacities(spec, per_link);
    m.graphs_ = estimate_graphs(spec, cap, fam, version.code(), m.notes_);
  }
  ModelBuilder b{m, fam};
  b.channels_and_threads();
  if (spec.nranks() > 1) {
    b.tune();
    if (auto st = b.enable_rules(); !st) return st;
    if (options.bw_scale > 0 && (options.bw_scale != 1.0 || options.lat_scale != 1.0))
    {
      for (auto& f : m.bw_) for (auto& a : f) for (auto& p : a) p *= options.bw_scale;
      for (auto& f : m.ring_backup_) for (auto& p : f) p *= options.bw_scale;
    }
    if (options.lat_scale > 0 && options.lat_scale != 1.0) {
      for (auto& f : m.lat_) for (auto& a : f) for (auto& p : a) p *= options.lat_scale;
      for (auto& a : m.hop_) for (auto& p : a) p *= options.lat_scale;
    }
  }
  return m;
}

double Model::latency(Collective c, Algo a, Proto p) const {
  int ci = static_cast<int>(c);
  return ci < kNumNcclFuncs ? lat_[ci][static_cast<int>(a)][static_cast<int>(p)] : 0;
}
double Model::bandwidth(Collective c, Algo a, Proto p) const {
  int ci = static_cast<int>(c);
  return ci < kNumNcclFuncs ? bw_[ci][static_cast<int>(a)][static_cast<int>(p)] : 0;
}

}  // namespace ncdx::model::cost
