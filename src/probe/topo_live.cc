#include "probe/topo_live.h"

#include "vendor/dynlib.h"

namespace ncdx::probe {

core::Result<TopoMatrix> live_topology() {
  auto nvml = vendor::DynLib::open({"libnvidia-ml.so.1"}, {}, "NCDX_NVML_LIB");
  if (!nvml.loaded())
    return core::Status::not_found("no NVIDIA driver (libnvidia-ml.so.1 not found); give --smi FILE or --xml FILE");
  return core::Status::not_found("reading the live topology through NVML is not available in this build; "
                                 "give --smi FILE or --xml FILE");
}

}  // namespace ncdx::probe
