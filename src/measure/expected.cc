#include "measure/expected.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

namespace ncdx::measure {

using probe::LinkType;

namespace {

std::string fmt(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.4g", v);
  return b;
}

// The model's PCIe link when the topology does not say (the GPU's native generation/width).
std::pair<std::optional<double>, std::optional<int>> pcie_of(const knowledge::GpuModelTable& t, const probe::Gpu& g) {
  if (g.pcie_gts && g.pcie_width) return {g.pcie_gts, g.pcie_width};
  if (const auto* m = model_for(t, g)) return {m->pcie_gts, m->pcie_width};
  return {std::nullopt, std::nullopt};
}

std::optional<double> lookup(const std::map<double, double>& table, double gts) {
  for (const auto& [k, v] : table)
    if (std::fabs(k - gts) < 0.01) return v;
  return std::nullopt;
}

}  // namespace

const knowledge::GpuModel* model_for(const knowledge::GpuModelTable& t, const probe::Gpu& gpu) {
  if (!gpu.name.empty()) return t.by_name(gpu.name);
  return nullptr;  // a bare sm is not enough to tell an A100 from an A30, or H100 SXM from PCIe
}

Expectation pcie_copy(const knowledge::GpuModelTable& t, std::optional<double> gts, std::optional<int> width) {
  if (!gts || !width) return {std::nullopt, "PCIe link speed/width unknown"};
  auto lane = lookup(t.pcie_lane_gbps, *gts);
  if (!lane) return {std::nullopt, "unknown PCIe rate " + fmt(*gts) + " GT/s"};
  double v = *lane * *width * t.pcie_efficiency;
  return {v, "PCIe " + fmt(*gts) + " GT/s x" + std::to_string(*width) + ": " + fmt(*lane) + " GB/s/lane x " +
                 std::to_string(*width) + " x " + fmt(t.pcie_efficiency) + " efficiency"};
}

Expectation host_copy(const knowledge::GpuModelTable& t, const probe::Gpu& gpu) {
  auto [gts, width] = pcie_of(t, gpu);
  return pcie_copy(t, gts, width);
}

Expectation device_copy(const knowledge::GpuModelTable& t, const probe::Gpu& gpu) {
  const auto* m = model_for(t, gpu);
  if (!m || !m->memory_gbps) return {std::nullopt, "GPU model '" + gpu.name + "' not in gpu_models.yaml"};
  return {*m->memory_gbps / 2, m->id + " memory " + fmt(*m->memory_gbps) + " GB/s / 2 (read + write)"};
}

Expectation p2p_copy(const knowledge::GpuModelTable& t, const probe::TopoMatrix& tm, std::size_t a, std::size_t b) {
  const auto& l = tm.gpu_gpu(a, b);
  if (l.is_nvlink()) {
    const auto* m = model_for(t, tm.gpus[a]);
    if (!m || !m->nvlink_gbps_per_link) return {std::nullopt, "NVLink rate of '" + tm.gpus[a].name + "' unknown"};
    return {l.nvlinks * *m->nvlink_gbps_per_link,
            "NV" + std::to_string(l.nvlinks) + " x " + fmt(*m->nvlink_gbps_per_link) + " GB/s per link (" + m->id + ")"};
  }
  if (l.type == LinkType::sys || l.type == LinkType::soc || !l.known())
    return {std::nullopt, "path " + probe::to_string(l) + " crosses the CPU interconnect or is unknown; no expectation"};
  auto ea = host_copy(t, tm.gpus[a]);
  auto eb = host_copy(t, tm.gpus[b]);
  if (!ea.gbps || !eb.gbps) return {std::nullopt, "PCIe link of one GPU unknown"};
  return *ea.gbps <= *eb.gbps ? ea : eb;
}

Expectation nccl_pair(const knowledge::GpuModelTable& t, const probe::TopoMatrix& tm, std::size_t a, std::size_t b) {
  const auto& l = tm.gpu_gpu(a, b);
  if (l.is_nvlink()) {
    std::optional<int> sm = tm.gpus[a].sm;
    if (!sm)
      if (const auto* m = model_for(t, tm.gpus[a])) sm = m->sm;
    auto per = sm ? t.nccl_nvlink_gbps(*sm) : std::nullopt;
    if (!per) return {std::nullopt, "compute capability unknown: NCCL's NVLink rate cannot be chosen"};
    return {l.nvlinks * *per, "NV" + std::to_string(l.nvlinks) + " x NCCL " + fmt(*per) + " GB/s per link (sm" +
                                  std::to_string(*sm) + ")"};
  }
  if (l.type == LinkType::sys || l.type == LinkType::soc || !l.known())
    return {std::nullopt, "path " + probe::to_string(l) + " crosses the CPU interconnect or is unknown; no expectation"};
  std::optional<double> best;
  std::string basis;
  for (auto g : {a, b}) {
    auto [gts, width] = pcie_of(t, tm.gpus[g]);
    if (!gts || !width) return {std::nullopt, "PCIe link of " + tm.label(g) + " unknown"};
    auto f = lookup(t.nccl_pcie_by_gts, *gts);
    if (!f) return {std::nullopt, "unknown PCIe rate"};
    double v = *width * *f / 80.0;
    if (!best || v < *best)
      best = v, basis = "PCIe " + fmt(*gts) + " GT/s x" + std::to_string(*width) + " = NCCL " + fmt(v) + " GB/s";
  }
  return {best, basis};
}

Expectation nccl_ring_busbw(const knowledge::GpuModelTable& t, const probe::TopoMatrix& tm,
                            const std::vector<std::size_t>& gpus) {
  if (gpus.size() < 2) return {std::nullopt, "a collective needs two GPUs"};
  // Bottleneck ring: maximise the slowest edge over all orders (GPU gpus[0] fixed first).
  const std::size_t n = gpus.size();
  std::vector<std::vector<Expectation>> e(n, std::vector<Expectation>(n));
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j)
      if (i != j) e[i][j] = nccl_pair(t, tm, gpus[i], gpus[j]);
  auto ring_min = [&](const std::vector<std::size_t>& order) -> std::optional<std::pair<double, std::string>> {
    std::optional<std::pair<double, std::string>> worst;
    for (std::size_t k = 0; k < n; ++k) {
      const auto& x = e[order[k]][order[(k + 1) % n]];
      if (!x.gbps) return std::nullopt;
      if (!worst || *x.gbps < worst->first) worst = std::make_pair(*x.gbps, x.basis);
    }
    return worst;
  };
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::optional<std::pair<double, std::string>> best;
  if (n <= 9) {
    do {
      auto r = ring_min(order);
      if (r && (!best || r->first > best->first)) best = r;
    } while (std::next_permutation(order.begin() + 1, order.end()));
  } else {
    // Too many orders: the slowest pair bounds every ring from below; report that bound.
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = i + 1; j < n; ++j) {
        if (!e[i][j].gbps) return {std::nullopt, "some GPU pairs have no expectation"};
        if (!best || *e[i][j].gbps < best->first) best = std::make_pair(*e[i][j].gbps, e[i][j].basis);
      }
  }
  if (!best) return {std::nullopt, "every ring crosses a path without expectation (SYS/unknown)"};
  return {best->first, "ring bottleneck " + best->second};
}

Expectation network_busbw(double node_nic_gbit, int ranks_sharing) {
  if (node_nic_gbit <= 0 || ranks_sharing < 1) return {std::nullopt, "NIC speed unknown"};
  double v = node_nic_gbit / 8.0 / ranks_sharing;
  return {v, fmt(node_nic_gbit) + " Gb/s of NICs / 8" + (ranks_sharing > 1 ? " / " + std::to_string(ranks_sharing) + " ranks sharing them" : std::string())};
}

}  // namespace ncdx::measure
