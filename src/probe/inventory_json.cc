// JSON (de)serialisation of the inventory. Field names are the struct member names, so the
// snapshot schema follows the code; missing keys take their defaults so older snapshots load.
#include <nlohmann/json.hpp>

#include "probe/inventory.h"

namespace nlohmann {
// std::optional <-> null/value (nlohmann 3.11 has no built-in support).
template <class T>
struct adl_serializer<std::optional<T>> {
  static void to_json(json& j, const std::optional<T>& v) {
    if (v)
      j = *v;
    else
      j = nullptr;
  }
  static void from_json(const json& j, std::optional<T>& v) {
    if (j.is_null())
      v.reset();
    else
      v = j.get<T>();
  }
};
}  // namespace nlohmann

namespace ncdx::probe {

namespace {
constexpr std::pair<ProbeState, const char*> kProbeStates[] = {
    {ProbeState::skipped, "skipped"}, {ProbeState::ok, "ok"},         {ProbeState::loaded, "loaded"},
    {ProbeState::absent, "absent"},   {ProbeState::symbol_missing, "symbol_missing"}, {ProbeState::failed, "failed"}};
constexpr std::pair<AcsState, const char*> kAcsStates[] = {
    {AcsState::unreadable, "unreadable"}, {AcsState::enabled, "enabled"}, {AcsState::disabled, "disabled"},
    {AcsState::absent, "absent"}};

template <class E, std::size_t N>
const char* name_of(const std::pair<E, const char*> (&table)[N], E e) {
  for (const auto& [v, n] : table)
    if (v == e) return n;
  return table[0].second;
}
template <class E, std::size_t N>
E parse_json(const std::pair<E, const char*> (&table)[N], const nlohmann::json& j, const char* what) {
  const auto& s = j.get_ref<const std::string&>();
  for (const auto& [v, n] : table)
    if (s == n) return v;
  throw nlohmann::json::other_error::create(501, std::string("unknown ") + what + " '" + s + "'", &j);
}
}  // namespace

const char* to_string(ProbeState s) { return name_of(kProbeStates, s); }
const char* to_string(AcsState s) { return name_of(kAcsStates, s); }
std::optional<ProbeState> parse_probe_state(std::string_view s) {
  for (const auto& [v, n] : kProbeStates)
    if (s == n) return v;
  return std::nullopt;
}

void to_json(nlohmann::json& j, ProbeState s) { j = to_string(s); }
void from_json(const nlohmann::json& j, ProbeState& s) { s = parse_json(kProbeStates, j, "probe state"); }
void to_json(nlohmann::json& j, AcsState s) { j = to_string(s); }
void from_json(const nlohmann::json& j, AcsState& s) { s = parse_json(kAcsStates, j, "ACS state"); }

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(SourceState, state, detail)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(Limit, soft, hard)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(OsInfo, hostname, kernel, driver_version, driver_banner,
                                                shm_source, shm_size_bytes, shm_free_bytes,
                                                mem_total_bytes, memlock, nofile, cmdline, iommu_groups,
                                                iommu_passthrough, numa_nodes, governors,
                                                cpus_with_governor, container, cgroup_cpu_max,
                                                cgroup_memory_max, cgroup_memory_unlimited, modules,
                                                modules_known)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(PciDevice, bdf, path, root, vendor, device, klass, driver,
                                                numa_node, cur_speed_gts, max_speed_gts, cur_width,
                                                max_width)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(AcsBridge, bdf, state, ctrl, below)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(NvLink, link, active, version, remote_bus_id, remote_type,
                                                replay, recovery, crc_flit, crc_data)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(GpuProcess, pid, used_bytes)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(NvmlGpu, index, name, uuid, bus_id, arch, cc_major, cc_minor,
                                                mem_total, mem_used, processes, temp, temp_slowdown,
                                                temp_shutdown, power_mw, power_limit_mw, sm_clock,
                                                sm_clock_max, clock_event_reasons, ecc_current,
                                                ecc_pending, ecc_volatile_unc, ecc_aggregate_unc,
                                                retired_sbe, retired_dbe, retired_pending, remap_corr,
                                                remap_unc, remap_pending, remap_failure, pcie_gen,
                                                pcie_max_gen, pcie_width, pcie_max_width, pcie_replay,
                                                persistence, compute_mode, mig_current, mig_pending,
                                                nvlink_count, nvlinks, cpu_affinity, numa_node,
                                                fabric_state, fabric_status, errors)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(NvmlInfo, source, library, driver_version, nvml_version,
                                                cuda_driver_version, device_count, gpus, topology, p2p)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(CudaInfo, driver, runtime, driver_library, runtime_library,
                                                driver_version, runtime_version, device_count,
                                                init_result, peer_access)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(NcclLib, path, real_path, version, version_source, origin)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(PyPackage, name, version, site)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(NetIface, name, operstate, speed_mbps, mtu, type, pci_bdf)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(IbGid, index, gid, type, ndev)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(IbPort, port, state, phys_state, rate, link_layer,
                                                rate_gbps, gids, counters, unreadable)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(IbDevice, name, pci_bdf, fw_ver, hca_type, ports)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(XidEvent, pci, xid, text, time_s)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(KernelLog, source, xids, lines)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(Inventory, schema, live, origin, os, pci_gpus, pci_nics,
                                                acs_source, acs, nvml, cuda, libs_source, nccl_libs,
                                                python, net, ib, kmsg, env)

nlohmann::json to_json(const Inventory& inv) { return nlohmann::json(inv); }
nlohmann::json to_json(const NvmlInfo& n) { return nlohmann::json(n); }
nlohmann::json to_json(const CudaInfo& c) { return nlohmann::json(c); }
nlohmann::json nccl_libs_to_json(const std::vector<NcclLib>& libs) { return nlohmann::json(libs); }

namespace {
template <class T>
core::Result<T> load(const nlohmann::json& j, const std::string& source, const char* what) {
  if (!j.is_object() && !j.is_array())
    return core::Status::bad_input(source + ": expected a JSON " + what + " object");
  try {
    return j.get<T>();
  } catch (const nlohmann::json::exception& e) {
    return core::Status::bad_input(source + ": not a valid " + what + " (" + e.what() + ")");
  }
}
}  // namespace

core::Result<Inventory> inventory_from_json(const nlohmann::json& j, const std::string& source) {
  auto r = load<Inventory>(j, source, "inventory");
  if (r && r->schema != "ncdx.inventory/1")
    return core::Status::bad_input(source + ": inventory schema '" + r->schema +
                                   "' is not ncdx.inventory/1");
  return r;
}
core::Result<NvmlInfo> nvml_from_json(const nlohmann::json& j, const std::string& source) {
  return load<NvmlInfo>(j, source, "NVML capture");
}
core::Result<CudaInfo> cuda_from_json(const nlohmann::json& j, const std::string& source) {
  return load<CudaInfo>(j, source, "CUDA capture");
}
core::Result<std::vector<NcclLib>> nccl_libs_from_json(const nlohmann::json& j, const std::string& source) {
  if (!j.is_array()) return core::Status::bad_input(source + ": expected a JSON array of libraries");
  return load<std::vector<NcclLib>>(j, source, "library list");
}

}  // namespace ncdx::probe
