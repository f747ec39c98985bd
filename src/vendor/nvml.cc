#include "vendor/nvml.h"

namespace ncdx::vendor::nvml {

Api Api::load() {
  Api api;
  // Only the versioned soname: the unversioned libnvidia-ml.so may be the toolkit's stub
  // (the CUDA toolkit ships one under lib64/stubs).
  api.lib_ = DynLib::open({"libnvidia-ml.so.1"}, {}, "NCDX_NVML_LIB");
  if (!api.lib_.loaded()) return api;
#define NCDX_NVML_RESOLVE(name, params) api.name = api.lib_.fn<decltype(api.name)>(#name);
  NCDX_NVML_FUNCTIONS(NCDX_NVML_RESOLVE)
#undef NCDX_NVML_RESOLVE
  api.error_string_ = api.lib_.fn<ErrorStringFn>("nvmlErrorString");
  return api;
}

std::string Api::error_string(Return r) const {
  const char* s = error_string_ ? error_string_(r) : nullptr;
  return std::string(s ? s : "NVML error") + " (" + std::to_string(r) + ")";
}

}  // namespace ncdx::vendor::nvml
