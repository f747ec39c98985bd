#include "probe/nvml_probe.h"

#include <cstdio>

#include "core/strings.h"
#include "vendor/nvml.h"

namespace ncdx::probe {
namespace nv = vendor::nvml;

std::string normalize_bus_id(std::string_view id) {
  auto parts = core::split(id, ':');
  if (parts.size() != 3) return core::to_lower(id);
  std::string dom(parts[0]);
  while (dom.size() > 4 && dom[0] == '0') dom.erase(0, 1);
  while (dom.size() < 4) dom.insert(0, "0");
  return core::to_lower(dom + ":" + std::string(parts[1]) + ":" + std::string(parts[2]));
}

std::string cpulist_from_mask(const std::vector<unsigned long>& words) {
  std::vector<std::string> ranges;
  int start = -1, n = static_cast<int>(words.size() * 64);
  for (int i = 0; i <= n; ++i) {
    bool set = i < n && (words[static_cast<std::size_t>(i / 64)] >> (i % 64) & 1UL);
    if (set && start < 0) start = i;
    if (!set && start >= 0) {
      ranges.push_back(start == i - 1 ? std::to_string(start) : std::to_string(start) + "-" + std::to_string(i - 1));
      start = -1;
    }
  }
  return core::join(ranges, ",");
}

namespace {

// Stores a value when the call succeeded, else records why not under `field`.
struct Recorder {
  const nv::Api& api;
  NvmlGpu& gpu;
  bool note(const char* field, nv::Call c) {
    if (c) return true;
    switch (c.kind) {
      case nv::Call::symbol_missing: gpu.errors[field] = "symbol_missing"; break;
      case nv::Call::not_supported: gpu.errors[field] = "not_supported"; break;
      default: gpu.errors[field] = "failed: " + api.error_string(c.code);
    }
    return false;
  }
};

void probe_links(const nv::Api& api, nv::Device d, NvmlGpu& g, Recorder& rec, bool quick) {
  // NVML_NVLINK_MAX_LINKS grew 12 -> 18 -> 36 (nvml.h across NVML headers 11.0-13.3); probe up to 36 and stop at the
  // first index the driver rejects as invalid.
  for (unsigned l = 0; l < 36; ++l) {
    int active = 0;
    auto c = api.call(api.nvmlDeviceGetNvLinkState, d, l, &active);
    if (!c) {
      if (l == 0) rec.note("nvlink", c);
      break;
    }
    NvLink link;
    link.link = static_cast<int>(l);
    link.active = active == 1;
    unsigned ver = 0;
    if (api.call(api.nvmlDeviceGetNvLinkVersion, d, l, &ver)) link.version = static_cast<int>(ver);
    nv::PciInfo pci{};
    if (api.call(api.nvmlDeviceGetNvLinkRemotePciInfo_v2, d, l, &pci)) link.remote_bus_id = normalize_bus_id(pci.busId);
    int type = 0;
    if (api.call(api.nvmlDeviceGetNvLinkRemoteDeviceType, d, l, &type)) link.remote_type = type;
    if (!quick) {
      unsigned long long v = 0;
      // DL_REPLAY 0, DL_RECOVERY 1, DL_CRC_FLIT 2, DL_CRC_DATA 3 (nvml.h nvmlNvLinkErrorCounter_t).
      if (api.call(api.nvmlDeviceGetNvLinkErrorCounter, d, l, 0, &v)) link.replay = v;
      if (api.call(api.nvmlDeviceGetNvLinkErrorCounter, d, l, 1, &v)) link.recovery = v;
      if (api.call(api.nvmlDeviceGetNvLinkErrorCounter, d, l, 2, &v)) link.crc_flit = v;
      if (api.call(api.nvmlDeviceGetNvLinkErrorCounter, d, l, 3, &v)) link.crc_data = v;
    }
    g.nvlinks.push_back(link);
  }
  if (!g.nvlinks.empty()) g.nvlink_count = static_cast<int>(g.nvlinks.size());
}

NvmlGpu probe_device(const nv::Api& api, const SysReader& sys, nv::Device d, int index, bool quick) {
  NvmlGpu g;
  g.index = index;
  Recorder rec{api, g};
  char buf[96] = {0};
  if (rec.note("name", api.call(api.nvmlDeviceGetName, d, buf, 96u))) g.name = buf;
  if (rec.note("uuid", api.call(api.nvmlDeviceGetUUID, d, buf, 96u))) g.uuid = buf;
  nv::PciInfo pci{};
  if (rec.note("pci", api.call(api.nvmlDeviceGetPciInfo_v3, d, &pci))) g.bus_id = normalize_bus_id(pci.busId);
  unsigned u = 0, u2 = 0;
  int i1 = 0, i2 = 0;
  if (rec.note("architecture", api.call(api.nvmlDeviceGetArchitecture, d, &u))) g.arch = static_cast<int>(u);
  if (rec.note("compute_capability", api.call(api.nvmlDeviceGetCudaComputeCapability, d, &i1, &i2))) {
    g.cc_major = i1;
    g.cc_minor = i2;
  }
  nv::Memory mem{};
  if (rec.note("memory", api.call(api.nvmlDeviceGetMemoryInfo, d, &mem))) {
    g.mem_total = mem.total;
    g.mem_used = mem.used;
  }
  {
    nv::ProcessInfo procs[64]{};
    unsigned n = 64;
    if (rec.note("processes", api.call(api.nvmlDeviceGetComputeRunningProcesses_v3, d, &n, procs)))
      for (unsigned k = 0; k < n && k < 64; ++k) {
        GpuProcess p;
        p.pid = procs[k].pid;
        if (procs[k].usedGpuMemory != ~0ULL) p.used_bytes = procs[k].usedGpuMemory;
        g.processes.push_back(p);
      }
  }
  if (rec.note("temperature", api.call(api.nvmlDeviceGetTemperature, d, 0, &u))) g.temp = static_cast<int>(u);
  if (rec.note("temp_shutdown", api.call(api.nvmlDeviceGetTemperatureThreshold, d, 0, &u))) g.temp_shutdown = static_cast<int>(u);
  if (rec.note("temp_slowdown", api.call(api.nvmlDeviceGetTemperatureThreshold, d, 1, &u))) g.temp_slowdown = static_cast<int>(u);
  if (rec.note("power", api.call(api.nvmlDeviceGetPowerUsage, d, &u))) g.power_mw = u;
  if (rec.note("power_limit", api.call(api.nvmlDeviceGetEnforcedPowerLimit, d, &u))) g.power_limit_mw = u;
  if (rec.note("sm_clock", api.call(api.nvmlDeviceGetClockInfo, d, 1, &u))) g.sm_clock = u;
  if (rec.note("sm_clock_max", api.call(api.nvmlDeviceGetMaxClockInfo, d, 1, &u))) g.sm_clock_max = u;
  unsigned long long ull = 0;
  auto ce = api.call(api.nvmlDeviceGetCurrentClocksEventReasons, d, &ull);
  if (ce.kind == nv::Call::symbol_missing) ce = api.call(api.nvmlDeviceGetCurrentClocksThrottleReasons, d, &ull);
  if (rec.note("clock_event_reasons", ce)) g.clock_event_reasons = ull;
  if (rec.note("ecc_mode", api.call(api.nvmlDeviceGetEccMode, d, &i1, &i2))) {
    g.ecc_current = i1 == 1;
    g.ecc_pending = i2 == 1;
  }
  if (rec.note("ecc_volatile", api.call(api.nvmlDeviceGetTotalEccErrors, d, 1, 0, &ull))) g.ecc_volatile_unc = ull;
  if (rec.note("ecc_aggregate", api.call(api.nvmlDeviceGetTotalEccErrors, d, 1, 1, &ull))) g.ecc_aggregate_unc = ull;
  // Two-call pattern: with a zero count the call returns INSUFFICIENT_SIZE and fills the count.
  for (int cause : {0, 1}) {
    unsigned cnt = 0;
    auto c = api.call(api.nvmlDeviceGetRetiredPages, d, cause, &cnt, static_cast<unsigned long long*>(nullptr));
    if (c || c.code == nv::kErrorInsufficientSize) (cause ? g.retired_dbe : g.retired_sbe) = cnt;
    else rec.note(cause ? "retired_dbe" : "retired_sbe", c);
  }
  if (rec.note("retired_pending", api.call(api.nvmlDeviceGetRetiredPagesPendingStatus, d, &i1))) g.retired_pending = i1 == 1;
  unsigned rc = 0, ru = 0, rp = 0, rf = 0;
  if (rec.note("remapped_rows", api.call(api.nvmlDeviceGetRemappedRows, d, &rc, &ru, &rp, &rf))) {
    g.remap_corr = rc;
    g.remap_unc = ru;
    g.remap_pending = rp != 0;
    g.remap_failure = rf != 0;
  }
  if (rec.note("pcie_gen", api.call(api.nvmlDeviceGetCurrPcieLinkGeneration, d, &u))) g.pcie_gen = static_cast<int>(u);
  if (rec.note("pcie_max_gen", api.call(api.nvmlDeviceGetMaxPcieLinkGeneration, d, &u))) g.pcie_max_gen = static_cast<int>(u);
  if (rec.note("pcie_width", api.call(api.nvmlDeviceGetCurrPcieLinkWidth, d, &u))) g.pcie_width = static_cast<int>(u);
  if (rec.note("pcie_max_width", api.call(api.nvmlDeviceGetMaxPcieLinkWidth, d, &u))) g.pcie_max_width = static_cast<int>(u);
  if (rec.note("pcie_replay", api.call(api.nvmlDeviceGetPcieReplayCounter, d, &u))) g.pcie_replay = u;
  if (rec.note("persistence", api.call(api.nvmlDeviceGetPersistenceMode, d, &i1))) g.persistence = i1 == 1;
  if (rec.note("compute_mode", api.call(api.nvmlDeviceGetComputeMode, d, &i1))) g.compute_mode = i1;
  if (rec.note("mig", api.call(api.nvmlDeviceGetMigMode, d, &u, &u2))) {
    g.mig_current = static_cast<int>(u);
    g.mig_pending = static_cast<int>(u2);
  }
  probe_links(api, d, g, rec, quick);
  std::vector<unsigned long> mask(16, 0);
  if (rec.note("cpu_affinity", api.call(api.nvmlDeviceGetCpuAffinity, d, 16u, mask.data()))) g.cpu_affinity = cpulist_from_mask(mask);
  // The CPU-side NUMA node comes from sysfs (NVML's NumaNodeId is the GPU memory's node).
  if (g.bus_id)
    if (auto n = sys.integer("/sys/bus/pci/devices/" + *g.bus_id + "/numa_node")) g.numa_node = static_cast<int>(*n);
  nv::GpuFabricInfoV2 fv{};
  fv.version = nv::kFabricInfoV2;
  auto fc = api.call(api.nvmlDeviceGetGpuFabricInfoV, d, &fv);
  if (fc) {
    g.fabric_state = fv.state;
    if (fv.state == 3) g.fabric_status = fv.status;  // status is valid only when COMPLETED
  } else {
    nv::GpuFabricInfo f{};
    auto fc1 = api.call(api.nvmlDeviceGetGpuFabricInfo, d, &f);
    if (rec.note("fabric", fc1)) {
      g.fabric_state = f.state;
      if (f.state == 3) g.fabric_status = f.status;
    }
  }
  return g;
}

}  // namespace

NvmlInfo probe_nvml(const SysReader& sys, bool quick) {
  NvmlInfo info;
  // NVML stays loaded until exit: unloading it while driver threads live is risky (NCCL never unloads NVML either).
  static nv::Api* api = new nv::Api(nv::Api::load());
  if (!api->loaded()) {
    info.source = {ProbeState::absent, "libnvidia-ml.so.1 not loadable: " + api->lib().error()};
    return info;
  }
  info.library = api->lib().path();
  if (!api->nvmlInit_v2) {
    info.source = {ProbeState::symbol_missing, "nvmlInit_v2 not exported by " + api->lib().path()};
    return info;
  }
  auto init = api->call(api->nvmlInit_v2);
  if (!init) {
    std::string why = api->error_string(init.code);
    if (init.code == nv::kErrorDriverNotLoaded) why += ": the NVIDIA kernel driver is not loaded";
    if (init.code == nv::kErrorLibRmVersionMismatch) why += ": user-space NVML differs from the kernel module (driver upgraded without reboot?)";
    info.source = {ProbeState::failed, "nvmlInit_v2: " + why};
    return info;
  }
  char buf[96] = {0};
  if (api->call(api->nvmlSystemGetDriverVersion, buf, 80u)) info.driver_version = buf;
  if (api->call(api->nvmlSystemGetNVMLVersion, buf, 80u)) info.nvml_version = buf;
  int cv = 0;
  if (api->call(api->nvmlSystemGetCudaDriverVersion_v2, &cv)) info.cuda_driver_version = cv;
  unsigned count = 0;
  auto cc = api->call(api->nvmlDeviceGetCount_v2, &count);
  if (!cc) {
    info.source = {ProbeState::failed, "nvmlDeviceGetCount_v2: " + api->error_string(cc.code)};
    api->call(api->nvmlShutdown);
    return info;
  }
  info.device_count = static_cast<int>(count);
  std::vector<nv::Device> handles;
  for (unsigned i = 0; i < count && i < 64; ++i) {
    nv::Device d = nullptr;
    auto hc = api->call(api->nvmlDeviceGetHandleByIndex_v2, i, &d);
    if (!hc) {
      NvmlGpu g;
      g.index = static_cast<int>(i);
      g.errors["handle"] = "failed: " + api->error_string(hc.code);
      info.gpus.push_back(g);
      handles.push_back(nullptr);
      continue;
    }
    handles.push_back(d);
    info.gpus.push_back(probe_device(*api, sys, d, static_cast<int>(i), quick));
  }
  std::size_t n = handles.size();
  info.topology.assign(n, std::vector<opt<int>>(n));
  info.p2p.assign(n, std::vector<opt<int>>(n));
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      if (i == j || !handles[i] || !handles[j]) continue;
      int v = 0;
      if (api->call(api->nvmlDeviceGetTopologyCommonAncestor, handles[i], handles[j], &v)) info.topology[i][j] = v;
      if (!quick && api->call(api->nvmlDeviceGetP2PStatus, handles[i], handles[j], 0, &v)) info.p2p[i][j] = v;
    }
  info.source = {ProbeState::ok, ""};
  api->call(api->nvmlShutdown);
  return info;
}

}  // namespace ncdx::probe
