#include "cluster/rank_env.h"
#include "measure/collective/backend.h"
#include "vendor/cudart_api.h"
#include "vendor/nccl_api.h"

namespace ncdx::measure {

core::Result<Backend> open_backend(const std::string& name, int ngpus) {
  std::string which = name;
  const auto info = cluster::detect_rank();
  if (which == "auto") {
    int n = 0;
    const auto& rt = vendor::cudart();
    bool gpus = rt.ok && rt.api.GetDeviceCount(&n) == 0 && n > 0;
    which = gpus && vendor::nccl().ok ? "nccl" : mpi_built() ? "mpi" : "nccl";
  }
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
