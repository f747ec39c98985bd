#include "model/cost/graph_estimate.h"

#include <algorithm>
#include <cmath>

namespace ncdx::model::cost {
namespace {

const std::vector<double>& speed_array(const std::map<int, std::vector<double>>& arrays, int sm) {
  // search.cc picks the sm100 / sm90 / default array by the minimum compute capability.
  const std::vector<double>* best = &arrays.begin()->second;
  for (const auto& [min_sm, arr] : arrays)
    if (sm >= min_sm) best = &arr;
  return *best;
}

int floor_div(double cap, double s) { return s <= 0 ? 0 : static_cast<int>(std::floor(cap / s + 1e-9)); }

struct Search {
  const ClusterSpec& spec;
  const Capacities& cap;
  int max_ch;
  double nic_gbps;  // one NIC, NCCL units (Gb/s / 8)

  // Ring channels that fit at per-channel speed s (every channel uses every GPU's links once;
  // across nodes a channel enters and leaves each node through one NIC).
  int ring_channels(double s) const {
    int gpn = spec.gpus_per_node;
    int c = max_ch;
    if (spec.nodes == 1) {
      if (gpn > 1) {
        if (s > cap.intra_path + 1e-9) return 0;
        c = std::min(c, floor_div(cap.intra_total, s));
      }
    } else {
      if (s > cap.net_path + 1e-9) return 0;
      c = std::min(c, cap.nics * floor_div(std::min(nic_gbps, cap.net_path), s));
      // The GPU that leaves the node sends over PCIe, not NVLink: a GPU carries (1 - 1/gpn)
      // of the channels on its intra-node links.
      if (gpn > 1) c = std::min(c, floor_div(cap.intra_total, s * (1.0 - 1.0 / gpn)));
    }
    return std::max(c, 0);
  }
};

}  // namespace

const char* name(PathType t) {
  static const char* names[] = {"LOC", "NVL", "NVB", "C2C", "PIX", "PXB", "P2C", "PXN", "PHB", "SYS", "NET", "DIS"};
  return names[static_cast<int>(t)];
}

bool parse_path_type(std::string_view s, PathType& out) {
  for (int i = 0; i <= static_cast<int>(PathType::DIS); ++i)
    if (s == name(static_cast<PathType>(i))) { out = static_cast<PathType>(i); return true; }
  return false;
}

Capacities capacities(const ClusterSpec& spec, double nvlink_gbps_per_link) {
  Capacities c;
  int gpn = spec.gpus_per_node;
  if (gpn <= 1) {
    // One GPU per node: its only link is PCIe, which is also NCCL's system->totalBw.
    c.intra_total = c.intra_path = spec.pcie_gbps;
    c.type_intra = PathType::LOC;
  } else if (spec.nvlink_links > 0) {
    double total = spec.nvlink_links * nvlink_gbps_per_link;
    c.type_intra = PathType::NVL;
    if (spec.nvswitch || gpn == 2) {
      c.intra_total = c.intra_path = total;
    } else {
      // NVLink without a switch (bridged pairs, hybrid cube mesh): a ring alternates NVLink
      // neighbours, so each GPU's links carry it in and out: half the links per direction.
      c.intra_total = total / 2;
      c.intra_path = total / 2;
    }
  } else {
    c.type_intra = spec.pcie_p2p ? PathType::PXB : PathType::SYS;
    // Without peer access the path crosses the CPU: SKL_QPI_BW 10 GB/s (src/graph/topo.h).
    c.intra_total = c.intra_path = spec.pcie_p2p ? spec.pcie_gbps : std::min(spec.pcie_gbps, 10.0);
  }
  c.nics = std::max(spec.nics_per_node, spec.nodes > 1 ? 1 : 0);
  double nic = spec.nic_gbit / 8.0;  // NCCL: speed (Mb/s) / 8000 -> GB/s
  c.net_path = std::min(spec.pcie_gbps, nic > 0 ? nic : spec.pcie_gbps);
  if (spec.nic_path == NicPath::Sys) {
    // The GPU->NIC path crosses the inter-socket link (ncclTopoGetInterCpuBw, src/graph/topo.cc
    // @v2.26.2-1): AMD_BW 16, Intel by model (BDW 6, SKL 10, SRP 22, ERP 40; we take SKL, the
    // CPU model is not in the spec), ARM_BW 6.
    double inter_cpu = spec.cpu == CpuVendor::Amd ? 16.0 : spec.cpu == CpuVendor::Intel ? 10.0 : 6.0;
    c.net_path = std::min(c.net_path, inter_cpu);
  }
  // Without GPUDirect RDMA NCCL routes GPU<->NIC through the GPU's local CPU (paths.cc, "gdr == 0":
  // addInterStep through the CPU), a PHB path at least.
  static constexpr PathType kByNicPath[] = {PathType::PIX, PathType::PXB, PathType::PHB, PathType::SYS};
  c.type_inter = kByNicPath[static_cast<int>(spec.nic_path)];
  if (!spec.gdr && c.type_inter < PathType::PHB) c.type_inter = PathType::PHB;
  if (spec.nic_kind == NicKind::Socket) c.type_inter = PathType::SYS;
  return c;
}

Graphs estimate_graphs(const ClusterSpec& spec, const Capacities& cap, const knowledge::NcclTuningFamily& tables,
                       int version_code, std::vector<std::string>& notes) {
  Graphs g{};
  const bool multi = spec.nodes > 1;
  const auto arrays = tables.speeds_for(multi, version_code);
  const auto& speeds = speed_array(arrays, spec.sm);
  const int n = static_cast<int>(speeds.size());
  Search s{spec, cap, tables.max_channels / 2, spec.nic_gbit / 8.0};
  if (s.nic_gbps <= 0) s.nic_gbps = cap.net_path;
  const double max_bw = multi ? cap.net_path : cap.intra_path;
  const double total_bw = std::max(cap.intra_total, multi ? cap.net_path : 0.0);

  // ---- Ring, pass 1: highest speed that fits, then lower ones while within 0.49 of the best.
  int idx = 0;
  while (idx < n - 1 && speeds[idx] > max_bw) ++idx;
  int best_c = 0;
  double best_s = 0;
  for (;;) {
    int c = s.ring_channels(speeds[idx]);
    if (c >= 1 && c * speeds[idx] > best_c * best_s + 1e-9) { best_c = c; best_s = speeds[idx]; }
    if (best_c == s.max_ch || (best_c > 0 && best_c * best_s >= total_bw - 1e-9)) break;
    if (idx < n - 1 && (best_c == 0 || speeds[idx + 1] / best_s > 0.49)) { ++idx; continue; }
    break;
  }
  Graph ring;
  ring.pattern = 4;
  if (best_c == 0) {  // "Could not find a path for pattern 4, falling back to simple order"
    ring.nchannels = 1; ring.bw_intra = ring.bw_inter = 0.1;
    ring.type_intra = ring.type_inter = PathType::SYS;
    notes.push_back("ring search found no path: NCCL falls back to 1 channel at 0.1 GB/s");
  } else {
    ring.nchannels = best_c;
    ring.bw_intra = ring.bw_inter = best_s;
    // ncclTopoDupChannels: fewer faster channels become twice as many at half the speed.
    if (best_s >= 25.0 && !(spec.sm > 80 && best_s < 50.0 && best_c > 4)) {
      int dup = std::min(best_c * 2, s.max_ch);
      int div = (dup + best_c - 1) / best_c;
      ring.nchannels = dup;
      ring.bw_intra = ring.bw_inter = best_s / div;
    }
    // Pass 2: raise the speed while the same channel count still fits.
    int k = 0;
    while (k < n && speeds[k] > ring.bw_intra + 1e-9) ++k;
    while (k > 0 && s.ring_channels(speeds[k - 1]) >= ring.nchannels) {
      --k;
      ring.bw_intra = ring.bw_inter = speeds[k];
    }
    ring.type_intra = cap.type_intra;
    ring.type_inter = multi ? cap.type_inter : PathType::LOC;
  }
  g[static_cast<int>(Algo::Ring)] = ring;

  // ---- Tree: same channel count as the ring (init.cc: treeGraph min/maxChannels = ring's).
  Graph tree = ring;
  tree.pattern = 1;  // BALANCED_TREE
  if (multi && spec.gpus_per_node > 1) {
    // Pass 2 for trees raises bwIntra while it stays below twice bwInter.
    double limit = cap.intra_total * spec.gpus_per_node / (spec.gpus_per_node - 1.0);
    for (int k = n - 1; k >= 0; --k) {
      double sp = speeds[k];
      if (sp <= tree.bw_intra) continue;
      if (sp * tree.nchannels > limit + 1e-9 || tree.bw_intra >= 2 * tree.bw_inter) break;
      tree.bw_intra = sp;
    }
  }
  g[static_cast<int>(Algo::Tree)] = tree;

  // ---- NVLS: one channel per GPU (head); each head pulls 2x its speed, the others 1x.
  bool nvls = spec.nvls.value_or(spec.sm >= 90 && spec.nvswitch) && spec.sm >= 90 && spec.nvswitch &&
              spec.gpus_per_node > 1;
  if (nvls) {
    Graph v;
    v.pattern = 5;
    v.same_channels = false;
    v.nchannels = std::min(32, spec.gpus_per_node);  // NCCL_MAX_NVLS_ARITY
    // Across nodes each NVLS head needs a GPU:NIC pair (search.cc "NVLS search only tries to
    // find NIC:GPU combinations to compute the heads"): fewer NICs, fewer heads.
    if (multi) v.nchannels = std::min(v.nchannels, std::max(1, cap.nics));
    double per = cap.intra_total / (spec.gpus_per_node + 1.0);
    int k = 0;
    while (k < n - 1 && (speeds[k] > per + 1e-9 || (multi && speeds[k] > cap.net_path + 1e-9))) ++k;
    v.bw_intra = v.bw_inter = speeds[k];
    // Pass 2 for NVLS raises bwInter (at fixed channels) while below twice bwIntra.
    while (k > 0 && v.bw_inter < 2 * v.bw_intra && (!multi || speeds[k - 1] <= cap.net_path + 1e-9)) v.bw_inter = speeds[--k];
    v.type_intra = PathType::NVL;
    v.type_inter = multi ? cap.type_inter : PathType::LOC;
    g[static_cast<int>(Algo::Nvls)] = v;
    g[static_cast<int>(Algo::NvlsTree)] = v;
  }

  // ---- CollNet (SHARP): only with the plugin; modelled as the ring's channels through the NICs.
  if (spec.collnet && multi) {
    Graph cc = ring;
    cc.pattern = 3;
    g[static_cast<int>(Algo::CollNetChain)] = cc;
    // Before 2.22 one CollNet graph (pattern TREE, the ring's channels) serves both algorithms
    // (init.cc:906 @v2.21.5-1); 2.22 searches a COLLNET_DIRECT graph of its own (init.cc:696
    // @v2.22.3-1).
    Graph cd = cc;
    if (version_code >= 22200) {
      cd.pattern = 6;
      cd.nchannels = std::max(1, std::min(cap.nics, 9));
      cd.bw_inter = std::min(cap.net_path, ring.bw_inter * ring.nchannels / cd.nchannels);
    }
    g[static_cast<int>(Algo::CollNetDirect)] = cd;
    notes.push_back("CollNet graphs are estimated from the NIC count (no search replay)");
  }
  g[static_cast<int>(Algo::Pat)] = tree;  // PAT runs on the tree graph (init.cc:687 @v2.27.7-1)
  return g;
}

}  // namespace ncdx::model::cost
