#pragma once
// Every libnccl a job on this machine could load, with its version, and the Python packages of
// the training stack read from *.dist-info/METADATA (no Python is run).
#include <map>

#include "probe/inventory.h"
#include "probe/sys_reader.h"

namespace ncdx::probe {

struct LibsScan {
  std::vector<NcclLib> nccl;
  std::vector<PyPackage> python;
};

// `env` supplies LD_LIBRARY_PATH, VIRTUAL_ENV, CONDA_PREFIX (live runs only); `allow_dlopen`
// lets us ask ncclGetVersion (live machine only; bundle files are never loaded).
LibsScan probe_libs(const SysReader& r, const std::map<std::string, std::string>& env, bool allow_dlopen);
// "libnccl.so.2.21.5" -> "2.21.5"; nullopt without a full x.y.z suffix.
std::optional<std::string> version_from_soname(std::string_view file);
// Finds "NCCL version X.Y.Z" in a byte stream (the VERSION_STRING every libnccl embeds).
std::optional<std::string> version_from_banner(std::string_view bytes);

}  // namespace ncdx::probe
