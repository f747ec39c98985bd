#pragma once
// Probes a whole machine into an Inventory: live (root "/"), a rooted tree (--root, fixtures),
// or a gathered bundle (--from). The bundle layout is a rooted tree plus an `ncdx/` folder with
// what cannot be replayed from files: NVML/CUDA captures, the library scan, kernel messages, env.
#include <filesystem>
#include <map>
#include <string>

#include "core/fs.h"
#include "core/result.h"
#include "probe/inventory.h"
#include "probe/sys_reader.h"

namespace ncdx::probe {

struct ProbeOptions {
  bool quick = false;             // skip per-link counters, P2P matrices, library dlopen
  ReadTrace* trace = nullptr;     // records sysfs/procfs reads (ncdx gather)
  std::string* kmsg_raw = nullptr;
};

// The replay sources of a bundle (null members = probe them instead).
struct Captured {
  std::optional<NvmlInfo> nvml;
  std::optional<CudaInfo> cuda;
  std::optional<std::vector<NcclLib>> nccl;
  std::optional<std::vector<PyPackage>> python;
  std::optional<std::string> kmsg;
  std::optional<std::map<std::string, std::string>> env;
  std::optional<std::uint64_t> shm_free;
};

Inventory probe_machine(const core::FileSystem& fs, const ProbeOptions& opt, const Captured& cap = {});

// `--from PATH`: a snapshot JSON file (`--save`) or a bundle directory (`ncdx gather`).
// Bad input -> bad_input (65) naming the file and offset; missing -> not_found (66).
core::Result<Inventory> load_from(const std::filesystem::path& path, bool quick);

// Writes a bundle of what the probes read into `dir` (which must not exist or be empty).
core::Status write_bundle(const std::filesystem::path& dir, const core::FileSystem& fs, bool quick, bool force = false);

}  // namespace ncdx::probe
