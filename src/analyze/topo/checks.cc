#include "analyze/topo/checks.h"

#include <algorithm>
#include <map>

#include "core/strings.h"
#include "knowledge/findings.h"

namespace ncdx::analyze {

using probe::Link;
using probe::LinkType;

namespace {

// Texts, class and severity of each finding: knowledge/data/findings.yaml.
core::Finding make(const char* id, const knowledge::FindingVars& vars) {
  core::Finding f = knowledge::make_finding(id, vars);
  f.culprit.component = "topology";
  return f;
}

// The first six items, then ", ..." (a summary names examples, not every pair).
std::string first_six(const std::vector<std::string>& v) {
  return core::join(std::vector<std::string>(v.begin(), v.begin() + std::min<std::size_t>(v.size(), 6)), ", ") +
         (v.size() > 6 ? ", ..." : "");
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
      auto f = make("topo-nvlink-missing", {{"gpu", m.label(g)}, {"index", std::to_string(m.gpus[g].index)}});
      f.culprit.devices.push_back(m.label(g));
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
      out.push_back(make("topo-nvlink-degraded", {{"count", std::to_string(low.size())},
                                                  {"max_links", std::to_string(max_links)},
                                                  {"pairs", first_six(low)}}));
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
      out.push_back(make("topo-p2p-beyond-pxb", {{"count", std::to_string(far.size())}, {"pairs", first_six(far)}}));
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
      out.push_back(make("topo-gdr-beyond-pxb", {{"count", std::to_string(far.size())}, {"gpus", core::join(far, ", ")}}));
    }
  }
  return out;
}

}  // namespace ncdx::analyze
