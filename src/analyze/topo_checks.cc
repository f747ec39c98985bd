#include "analyze/topo_checks.h"

#include <algorithm>
#include <map>

#include "core/strings.h"

namespace ncdx::analyze {

using probe::Link;
using probe::LinkType;

namespace {

constexpr const char* kFacts = "reference/nccl_facts.md §1.2";

core::Finding make(const char* id, core::Severity sev, std::string title, std::string summary) {
  core::Finding f;
  f.id = id;
  f.klass = "p2p-topology";
  f.severity = sev;
  f.title = std::move(title);
  f.summary = std::move(summary);
  f.culprit.component = "topology";
  return f;
}

bool beyond_pxb(const Link& l) { return l.known() && probe::rank(l) > probe::rank(Link{LinkType::pxb, 0}); }

}  // namespace

std::vector<core::Finding> topo_findings(const probe::TopoMatrix& m) {
  std::vector<core::Finding> out;
  const std::size_t n = m.gpus.size();
  std::vector<int> nv_peers(n, 0);
  int nv_pairs = 0, pairs = 0, max_links = 0;
  for (std::size_t a = 0; a < n; ++a)
    for (std::size_t b = a + 1; b < n; ++b) {
      ++pairs;
      const auto& l = m.gpu_gpu(a, b);
      if (l.is_nvlink()) ++nv_pairs, ++nv_peers[a], ++nv_peers[b], max_links = std::max(max_links, l.nvlinks);
    }

  // Without NVLink information (an NCCL XML that lists none) nothing below can be concluded
  // about GPU pairs: the PCIe path may be irrelevant because NVLink carries the traffic.
  const bool pairs_known = m.nvlink_known;
  // A GPU cut off from NVLink while most of the node is NVLinked.
  if (pairs_known && n >= 2 && nv_pairs * 2 >= pairs && nv_pairs > 0) {
    for (std::size_t g = 0; g < n; ++g) {
      if (nv_peers[g] != 0) continue;
      auto f = make("topo-nvlink-missing", core::Severity::error, m.label(g) + " has no NVLink to any other GPU",
                    m.label(g) + " reaches every other GPU over PCIe/CPU while the rest of the node is NVLinked: its "
                                 "NVLinks (or the NVSwitch ports / fabric manager serving them) are down. Collectives "
                                 "that include it run at PCIe speed or fail P2P setup.");
      f.culprit.devices.push_back(m.label(g));
      f.fixes.push_back({"Check `nvidia-smi nvlink --status -i " + std::to_string(m.gpus[g].index) +
                             "` and the fabric manager; until fixed, leave the GPU out with CUDA_VISIBLE_DEVICES "
                             "(ncdx topo --pick)",
                         std::nullopt, std::nullopt, std::nullopt, std::nullopt});
      out.push_back(f);
    }
  }

  // Degraded link counts on a full NVLink mesh (NVSwitch: every pair should show the same NV#).
  if (pairs_known && n >= 2 && nv_pairs == pairs) {
    std::vector<std::string> low;
    for (std::size_t a = 0; a < n; ++a)
      for (std::size_t b = a + 1; b < n; ++b)
        if (m.gpu_gpu(a, b).nvlinks < max_links)
          low.push_back(m.label(a) + "-" + m.label(b) + " " + probe::to_string(m.gpu_gpu(a, b)));
    if (!low.empty()) {
      auto f = make("topo-nvlink-degraded", core::Severity::warn,
                    std::to_string(low.size()) + " GPU pair(s) have fewer NVLinks than NV" + std::to_string(max_links),
                    "Every GPU pair is NVLinked but not with the same count: " +
                        core::join(std::vector<std::string>(low.begin(), low.begin() + std::min<std::size_t>(low.size(), 6)), ", ") +
                        (low.size() > 6 ? ", ..." : "") + ". Links are down; bandwidth drops in proportion.");
      f.fixes.push_back({"Check `nvidia-smi nvlink --status` on the GPUs named", std::nullopt, std::nullopt, std::nullopt, std::nullopt});
      out.push_back(f);
    }
  }

  // Pairs NCCL will not use P2P for by default.
  if (pairs_known) {
    std::vector<std::string> far;
    for (std::size_t a = 0; a < n; ++a)
      for (std::size_t b = a + 1; b < n; ++b)
        if (!m.gpu_gpu(a, b).is_nvlink() && beyond_pxb(m.gpu_gpu(a, b)))
          far.push_back(m.label(a) + "-" + m.label(b) + " " + probe::to_string(m.gpu_gpu(a, b)));
    if (!far.empty()) {
      auto f = make("topo-p2p-beyond-pxb", core::Severity::info,
                    std::to_string(far.size()) + " GPU pair(s) are farther apart than one PCIe switch tree (PXB)",
                    "NCCL's default NCCL_P2P_LEVEL is PXB, so these pairs exchange data through host shared memory, "
                    "not GPU peer-to-peer: " +
                        core::join(std::vector<std::string>(far.begin(), far.begin() + std::min<std::size_t>(far.size(), 6)), ", ") +
                        (far.size() > 6 ? ", ..." : "") + ". Prefer GPU sets that share NVLink or a PCIe switch (ncdx topo --pick).");
      f.fixes.push_back({"Choose GPUs that share NVLink or a PCIe switch", std::nullopt, "ncdx topo --pick K", std::nullopt, kFacts});
      out.push_back(f);
    }
  }

  // GPUDirect RDMA distance to the nearest NIC.
  if (!m.nics.empty()) {
    std::vector<std::string> far;
    for (std::size_t g = 0; g < n; ++g) {
      Link best;
      for (std::size_t k = 0; k < m.nics.size(); ++k) {
        const auto& l = m.gpu_nic(g, k);
        if (l.known() && (!best.known() || probe::rank(l) < probe::rank(best))) best = l;
      }
      if (beyond_pxb(best)) far.push_back(m.label(g) + " " + probe::to_string(best));
    }
    if (!far.empty()) {
      auto f = make("topo-gdr-beyond-pxb", core::Severity::info,
                    std::to_string(far.size()) + " GPU(s) have no NIC within PXB",
                    "NCCL uses GPUDirect RDMA only up to NCCL_NET_GDR_LEVEL (default PXB); for these GPUs network "
                    "traffic is staged through host memory: " + core::join(far, ", ") + ".");
      f.fixes.push_back({"Use GPUs next to the NICs for inter-node ranks, or accept the host-memory staging",
                         std::nullopt, std::nullopt, std::nullopt, kFacts});
      out.push_back(f);
    }
  }
  return out;
}

}  // namespace ncdx::analyze
