#pragma once
// Finds the versions of the GPU software stack on a machine (live or a --root tree) without loading
// anything: the driver from /proc/driver/nvidia/version, CUDA runtime and NCCL from library file
// names and CUDA's version.json, Python packages (torch, verl, vllm, sglang, nvidia-nccl-cu1x,
// nvidia-cuda-runtime-cu1x) from *.dist-info/METADATA in the interpreters' site directories.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/fs.h"

namespace ncdx::probe {

struct Sighting {
  std::string version;  // as written ("2.6.0+cu124", "570.124.06")
  std::string where;    // machine path it came from
};

struct PythonPackage {
  std::string name;     // normalised: lower case, '_' -> '-'
  std::string version;
  std::string where;    // the .dist-info directory
  std::map<std::string, std::string> pins;  // Requires-Dist name -> "==X" (only exact pins)
};

struct StackVersions {
  std::vector<Sighting> driver, cuda_runtime, nccl;  // every sighting, in search order
  std::vector<PythonPackage> packages;                // every dist-info found
  std::vector<std::string> gpu_models;                // /proc/driver/nvidia/gpus/*/information
  std::vector<std::string> site_dirs;                 // site directories searched that exist
};

// extra_prefixes: venv / conda prefixes (--python-prefix); their lib/python3*/site-packages are searched.
StackVersions detect_stack(const core::FileSystem& fs, const std::vector<std::string>& extra_prefixes);

// Parses a dist-info METADATA text (Name, Version, Requires-Dist exact pins).
PythonPackage parse_metadata(std::string_view text, std::string_view where);
// "NVRM version: NVIDIA UNIX x86_64 Kernel Module  570.124.06  ..." -> "570.124.06".
std::optional<std::string> parse_driver_version(std::string_view proc_text);

}  // namespace ncdx::probe
