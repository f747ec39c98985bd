#pragma once
// One doctor run as data: the check outcomes, the topology/P2P matrices derived from the
// inventory, and the measurements, ready for any reporter (text, JSON, HTML, JUnit, Prometheus).
#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

#include "analyze/doctor/check.h"
#include "analyze/doctor/expect.h"
#include "measure/measurements.h"
#include "probe/topo_matrix.h"
#include "probe/inventory.h"

namespace ncdx::analyze {

// A GPU/NIC matrix like `nvidia-smi topo -m`: cells are X, NV#, PIX, PXB, PHB, NODE, SYS or
// "" (unknown). Our own struct until topo's probe/topo_matrix.h is merged (then adapt).
struct TopoView {
  std::vector<std::string> labels;           // GPU0.., NIC0..
  std::vector<std::string> devices;          // bus ids / RDMA device names, same order
  std::vector<std::vector<std::string>> cell;
  std::vector<std::string> cpu_affinity;     // per label ("" for unknown)
  std::vector<std::string> numa;             // per label
  std::vector<std::string> legend_nics;      // "NIC0: mlx5_0"
};

struct DoctorOptions {
  bool full = false;        // run the measure layer (live machine only)
  std::string storage_dir;  // --ckpt-dir for the fsync throughput test ("" = current directory)
  std::size_t io_bytes = std::size_t{1} << 30;  // --io-size of the storage test
  std::optional<double> model_params;           // --model-size: estimate the checkpoint write time
  double timeout_s = 600;                       // --timeout: the collective timeout it must fit in
  Expectations expect;                          // --expect-gpus/--expect-nics/--expect-driver/--expect-nccl
};

struct DoctorRun {
  probe::Inventory inventory;
  std::vector<CheckOutcome> outcomes;
  TopoView topo;
  probe::TopoMatrix matrix;                   // the same topology in topo's model (probe/topo_matrix.h)
  std::vector<std::vector<std::string>> p2p;  // P2P read status codes as text
  std::vector<measure::Measurement> measurements;
  // [src][dst] GPU copy bandwidth (GB/s) and latency (us) from measure_gpu_copies; empty if not run.
  std::vector<std::vector<std::optional<double>>> p2p_gbps, p2p_latency_us;
  int exit_code = 0;
};

TopoView build_topo_view(const probe::Inventory& inv);
std::vector<std::vector<std::string>> build_p2p_view(const probe::Inventory& inv);
// The TopoView as topo's TopoMatrix (source "nvml" when NVML filled it, else "sysfs").
probe::TopoMatrix to_topo_matrix(const TopoView& view, const probe::Inventory& inv);
// --full measurements (live machine only); SKIP entries with the reason otherwise.
void run_measurements(DoctorRun& run, const DoctorOptions& opt);
DoctorRun run_doctor(probe::Inventory inv, const DoctorOptions& opt = {});

}  // namespace ncdx::analyze
