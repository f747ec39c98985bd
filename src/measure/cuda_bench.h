#pragma once
// GPU copy bandwidth and latency through the CUDA runtime (dlopen, vendor/cudart_api.h), the way
// nvbandwidth's copy-engine tests do it: per GPU H2D and D2H from pinned host memory and D2D
// inside the GPU; for every ordered GPU pair a cudaMemcpyPeerAsync bandwidth matrix and a
// small-copy latency matrix (copy-engine latency, launch included, not load/store latency).
// Timing uses CUDA events on our own non-blocking stream, after one warm-up copy.
// Expected values come from measure/expected.h with the GPU names and links of `topo` (matched
// to CUDA ordinals by PCI bus id); without a topology every number is INFO.
// Without a driver or GPU everything is one SKIP with the reason; nothing here can crash a
// machine that has no NVIDIA software. UNVERIFIED ON HARDWARE: the development machine has no GPU.
#include <cstddef>
#include <optional>
#include <vector>

#include "measure/measurements.h"
#include "probe/topo_matrix.h"

namespace ncdx::measure {

struct GpuBenchOptions {
  std::size_t copy_bytes = std::size_t{256} << 20;
  int iterations = 10;
  int latency_iterations = 100;
  std::size_t latency_bytes = 4;
};

struct GpuBenchResult {
  std::vector<Measurement> measurements;  // gpu<i>.h2d, gpu<i>.d2h, gpu<i>.d2d, p2p.<i>-<j>.bw, p2p.<i>-<j>.latency
  // [src][dst] by CUDA ordinal; null on the diagonal and where not measured.
  std::vector<std::vector<std::optional<double>>> p2p_gbps, p2p_latency_us;
  bool ran = false;  // false: skipped (see measurements[0].detail)
};

GpuBenchResult measure_gpu_copies(const probe::TopoMatrix* topo, const GpuBenchOptions& opt = {});

// "0000:4F:00.0" / "00000000:4f:00.0" -> "0000:4f:00.0" (NVML and CUDA print the domain
// differently); empty when it is not a PCI bus id.
std::string canonical_bus_id(std::string_view s);
// CUDA ordinal -> position in topo->gpus (nullopt when not found or no topology).
std::optional<std::size_t> topo_gpu_for_bus(const probe::TopoMatrix* topo, const std::string& bus_id);

}  // namespace ncdx::measure
