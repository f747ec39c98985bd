#include "probe/machine_probe.h"

#include <cstdlib>

#include "core/json.h"
#include "core/redact.h"
#include "probe/kmsg_probe.h"
#include "probe/libs_probe.h"
#include "probe/net_probe.h"
#include "probe/nvml_probe.h"
#include "probe/os_probe.h"
#include "probe/pci_probe.h"
#include "vendor/cuda.h"

namespace ncdx::probe {
namespace {

std::map<std::string, std::string> live_env() {
  auto env = core::relevant_env();
  for (const char* v : {"VIRTUAL_ENV", "CONDA_PREFIX"})
    if (const char* s = std::getenv(v)) env[v] = s;
  return env;
}

CudaInfo probe_cuda(bool quick) {
  CudaInfo c;
  auto d = vendor::cuda::probe_driver(!quick);
  c.driver = {parse_probe_state(d.state).value_or(ProbeState::failed), d.detail};
  if (!d.library.empty()) c.driver_library = d.library;
  c.driver_version = d.version;
  c.init_result = d.init_result;
  c.device_count = d.device_count;
  c.peer_access = d.peer;
  auto r = vendor::cuda::probe_runtime();
  c.runtime = {parse_probe_state(r.state).value_or(ProbeState::failed), r.detail};
  if (!r.library.empty()) c.runtime_library = r.library;
  c.runtime_version = r.version;
  return c;
}

}  // namespace

Inventory probe_machine(const core::FileSystem& fs, const ProbeOptions& opt, const Captured& cap) {
  Inventory inv;
  SysReader r(fs, opt.trace);
  SysReader untraced(fs);
  inv.live = fs.is_live();
  inv.origin = inv.live ? "live" : "root:" + fs.root().string();
  if (cap.env) inv.env = *cap.env;
  else if (inv.live) inv.env = live_env();
  else if (auto t = untraced.raw("/ncdx/env.json"); t) {
    // A fixture tree may carry its env; a bad one is ignored here and rejected by --from.
    if (auto j = core::parse_json(*t, "env.json"); j && j->is_object())
      for (auto& [k, v] : j->items())
        if (v.is_string()) inv.env[k] = core::redact_value(k, v.get<std::string>());
  }
  inv.os = probe_os(r);
  if (cap.shm_free) inv.os.shm_free_bytes = cap.shm_free;
  auto pci = probe_pci(r);
  inv.pci_gpus = std::move(pci.gpus);
  inv.pci_nics = std::move(pci.nics);
  std::vector<PciDevice> both = inv.pci_gpus;
  both.insert(both.end(), inv.pci_nics.begin(), inv.pci_nics.end());
  if (!inv.pci_gpus.empty()) inv.acs = probe_acs(r, both, inv.acs_source);
  else inv.acs_source = {ProbeState::skipped, "no NVIDIA GPU on PCI"};
  inv.net = probe_net(r);
  inv.ib = probe_ib(r);

  if (cap.nvml) inv.nvml = *cap.nvml;
  else if (inv.live || std::getenv("NCDX_NVML_LIB")) inv.nvml = probe_nvml(r, opt.quick);
  else inv.nvml.source = {ProbeState::skipped, "replayed tree: NVML is not probed (use a bundle from `ncdx gather`, or NCDX_NVML_LIB)"};

  if (cap.cuda) inv.cuda = *cap.cuda;
  else if (inv.live) inv.cuda = probe_cuda(opt.quick);
  else inv.cuda.driver = inv.cuda.runtime = {ProbeState::skipped, "replayed tree: CUDA is probed only on the live machine"};

  if (cap.nccl) {
    inv.nccl_libs = *cap.nccl;
    inv.python = cap.python.value_or(std::vector<PyPackage>{});
    inv.libs_source = {ProbeState::ok, "from bundle"};
  } else {
    auto libs = probe_libs(untraced, inv.env, inv.live && !opt.quick);
    inv.nccl_libs = std::move(libs.nccl);
    inv.python = std::move(libs.python);
    inv.libs_source = {ProbeState::ok, inv.live && !opt.quick ? "" : "versions from file names and version strings (no dlopen)"};
  }

  if (cap.kmsg) {
    inv.kmsg = parse_kernel_log(*cap.kmsg);
    inv.kmsg.source.detail = "bundle kmsg.txt";
  } else {
    inv.kmsg = probe_kmsg(untraced, opt.kmsg_raw);
  }
  return inv;
}

}  // namespace ncdx::probe
