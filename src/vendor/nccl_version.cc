#include "vendor/nccl_version.h"

#include "vendor/dynlib.h"

namespace ncdx::vendor {

std::string nccl_version_code_to_string(int code) {
  int major, minor, patch;
  if (code >= 20900) {
    major = code / 10000;
    minor = code / 100 % 100;
    patch = code % 100;
  } else {
    major = code / 1000;
    minor = code / 100 % 10;
    patch = code % 100;
  }
  return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
}

std::optional<std::string> nccl_library_version(const std::string& path) {
  // NCCL has no load-time side effects beyond static initialisers; RTLD_LOCAL keeps two
  // different versions from clashing in our process.
  // Kept loaded (never dlclose'd): unloading a library that may have started helper threads is
  // not worth the risk in a short-lived tool.
  auto* lib = &keep_loaded(DynLib::open({}, path));
  if (!lib->loaded()) return std::nullopt;
  auto fn = lib->fn<int (*)(int*)>("ncclGetVersion");
  if (!fn) return std::nullopt;
  int v = 0;
  if (fn(&v) != 0 || v <= 0) return std::nullopt;
  return nccl_version_code_to_string(v);
}

}  // namespace ncdx::vendor
