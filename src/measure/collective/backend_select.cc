#include "cluster/rank_env.h"
#include "measure/collective/backend.h"
#include "vendor/cudart_api.h"
#include "vendor/nccl_api.h"

namespace ncdx::measure {

std::string nccl_unusable(int* devices) {
  if (devices) *devices = 0;
  const auto& nc = vendor::nccl();
  if (!nc.ok) return nc.detail;
  const auto& rt = vendor::cudart();
  if (!rt.ok) return rt.detail;
  int n = 0;
  if (int e = rt.api.GetDeviceCount(&n); e != 0 || n <= 0)
    return "no CUDA device (cudaGetDeviceCount: " + (e != 0 ? vendor::cuda_error_text(rt, e) : std::string("0 devices")) + ")";
  if (devices) *devices = n;
  return {};
}

core::Result<Backend> open_backend(const std::string& name, int ngpus) {
  std::string which = name;
  const auto info = cluster::detect_rank();
  if (which == "auto") which = nccl_unusable().empty() ? "nccl" : mpi_built() ? "mpi" : "nccl";
  Backend b;
  if (which == "mpi") {
    auto h = mpi_harness();
    if (!h) return h.status();
    auto e = mpi_engine();
    if (!e) return e.status();
    b.harness = std::move(*h);
    b.engine = std::move(*e);
    return b;
  }
  if (which == "nccl") {
    if (info.size > 1 && info.source == "openmpi" && mpi_built()) {
      auto h = mpi_harness();
      if (!h) return h.status();
      b.harness = std::move(*h);
    } else {
      b.harness = single_harness();
    }
    auto e = nccl_engine(*b.harness, ngpus);
    if (!e) return e.status();
    b.engine = std::move(*e);
    return b;
  }
  return core::Status::usage("--backend expects mpi, nccl or auto, got '" + name + "'");
}

}  // namespace ncdx::measure
