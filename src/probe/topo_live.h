// The live machine's GPU topology for `ncdx topo` with no input file: through NVML only (never
// nvidia-smi), the same library doctor's probe loads (libnvidia-ml.so.1, NCDX_NVML_LIB override).
#pragma once

#include "core/result.h"
#include "probe/topo_matrix.h"

namespace ncdx::probe {

// Not found (66) with the reason when the driver is absent; reading the matrix from NVML is not
// implemented yet, which is also said rather than guessed (give --smi or --xml instead).
core::Result<TopoMatrix> live_topology();

}  // namespace ncdx::probe
