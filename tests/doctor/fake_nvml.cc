// A FAKE libnvidia-ml.so.1 for tests: answers the NVML calls ncdx makes from a JSON description
// (the same shape as ncdx's NVML capture, `nvml.json` of a fixture or bundle) named by
// NCDX_FAKE_NVML_JSON. ncdx loads it through its real dlopen path via NCDX_NVML_LIB.
// A null field answers NVML_ERROR_NOT_SUPPORTED (3); errors[field] = "failed..." answers
// NVML_ERROR_UNKNOWN (999), so the "not supported" and "failed" paths are both exercised.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

using json = nlohmann::json;
using Device = void*;

namespace {
json g_doc;
bool g_loaded = false;

int load() {
  if (g_loaded) return 0;
  const char* path = std::getenv("NCDX_FAKE_NVML_JSON");
  if (!path) return 12;  // LIBRARY_NOT_FOUND: no description
  std::ifstream in(path);
  if (!in) return 12;
  try {
    g_doc = json::parse(in);
  } catch (...) {
    return 999;
  }
  g_loaded = true;
  return 0;
}

const json* gpu(Device d) {
  auto i = reinterpret_cast<std::uintptr_t>(d);
  if (i == 0 || !g_doc.contains("gpus") || i > g_doc["gpus"].size()) return nullptr;
  return &g_doc["gpus"][i - 1];
}
std::size_t idx(Device d) { return reinterpret_cast<std::uintptr_t>(d) - 1; }

// Status for a field: 0 present, 3 null/absent, 999 marked failed.
int status(const json* g, const char* field, const char* err_key = nullptr) {
  if (!g) return 2;
  const char* ek = err_key ? err_key : field;
  if (g->contains("errors") && (*g)["errors"].contains(ek)) {
    auto e = (*g)["errors"][ek].get<std::string>();
    return e.rfind("failed", 0) == 0 ? 999 : 3;
  }
  if (!g->contains(field) || (*g)[field].is_null()) return 3;
  return 0;
}

template <class T>
int get(Device d, const char* field, T* out, const char* err_key = nullptr) {
  const json* g = gpu(d);
  int s = status(g, field, err_key);
  if (s == 0 && out) *out = (*g)[field].get<T>();
  return s;
}

int copy_str(const std::string& s, char* buf, unsigned len) {
  if (s.size() + 1 > len) return 7;
  std::memcpy(buf, s.c_str(), s.size() + 1);
  return 0;
}

struct PciInfo {
  char busIdLegacy[16];
  unsigned domain, bus, device, pciDeviceId, pciSubSystemId;
  char busId[32];
};

void fill_pci(const std::string& bus_id, PciInfo* p) {
  std::memset(p, 0, sizeof *p);
  unsigned dom = 0, bus = 0, dev = 0, fn = 0;
  std::sscanf(bus_id.c_str(), "%x:%x:%x.%x", &dom, &bus, &dev, &fn);
  std::snprintf(p->busId, sizeof p->busId, "%08X:%02X:%02X.%X", dom, bus, dev, fn);
  std::snprintf(p->busIdLegacy, sizeof p->busIdLegacy, "%04X:%02X:%02X.%X", dom, bus, dev, fn);
  p->domain = dom;
  p->bus = bus;
  p->device = dev;
  p->pciDeviceId = 0x233010de;
}

const json* link(Device d, unsigned l, int* st) {
  const json* g = gpu(d);
  *st = status(g, "nvlinks", "nvlink");
  if (*st) return nullptr;
  if ((*g)["nvlinks"].empty()) {
    *st = 3;
    return nullptr;
  }
  if (l >= (*g)["nvlinks"].size()) {
    *st = 2;  // INVALID_ARGUMENT: past the last link
    return nullptr;
  }
  return &(*g)["nvlinks"][l];
}
}  // namespace

extern "C" {

int nvmlInit_v2() {
  int s = load();
  if (s) return s;
  return g_doc.value("fake_init_return", 0);
}
int nvmlShutdown() { return 0; }
const char* nvmlErrorString(int r) {
  switch (r) {
    case 0: return "Success";
    case 3: return "Not Supported";
    case 9: return "Driver Not Loaded";
    case 18: return "RM has detected an NVML/RM version mismatch.";
    default: return "Unknown Error";
  }
}
int nvmlSystemGetDriverVersion(char* v, unsigned n) { return g_doc.contains("driver_version") && !g_doc["driver_version"].is_null() ? copy_str(g_doc["driver_version"], v, n) : 3; }
int nvmlSystemGetNVMLVersion(char* v, unsigned n) { return g_doc.contains("nvml_version") && !g_doc["nvml_version"].is_null() ? copy_str(g_doc["nvml_version"], v, n) : 3; }
int nvmlSystemGetCudaDriverVersion_v2(int* v) {
  if (!g_doc.contains("cuda_driver_version") || g_doc["cuda_driver_version"].is_null()) return 3;
  *v = g_doc["cuda_driver_version"];
  return 0;
}
int nvmlDeviceGetCount_v2(unsigned* n) {
  *n = g_doc.contains("gpus") ? static_cast<unsigned>(g_doc["gpus"].size()) : 0;
  return 0;
}
int nvmlDeviceGetHandleByIndex_v2(unsigned i, Device* d) {
  if (!g_doc.contains("gpus") || i >= g_doc["gpus"].size()) return 2;
  *d = reinterpret_cast<Device>(static_cast<std::uintptr_t>(i + 1));
  return 0;
}
int nvmlDeviceGetName(Device d, char* b, unsigned n) {
  std::string s;
  int r = get(d, "name", &s);
  return r ? r : copy_str(s, b, n);
}
int nvmlDeviceGetUUID(Device d, char* b, unsigned n) {
  std::string s;
  int r = get(d, "uuid", &s);
  return r ? r : copy_str(s, b, n);
}
int nvmlDeviceGetPciInfo_v3(Device d, PciInfo* p) {
  std::string s;
  int r = get(d, "bus_id", &s, "pci");
  if (!r) fill_pci(s, p);
  return r;
}
int nvmlDeviceGetArchitecture(Device d, unsigned* a) { return get(d, "arch", a, "architecture"); }
int nvmlDeviceGetCudaComputeCapability(Device d, int* ma, int* mi) {
  int r = get(d, "cc_major", ma, "compute_capability");
  return r ? r : get(d, "cc_minor", mi, "compute_capability");
}
int nvmlDeviceGetMemoryInfo(Device d, unsigned long long* m) {  // total, free, used
  unsigned long long t = 0, u = 0;
  int r = get(d, "mem_total", &t, "memory");
  if (!r) r = get(d, "mem_used", &u, "memory");
  if (!r) {
    m[0] = t;
    m[1] = t - u;
    m[2] = u;
  }
  return r;
}
int nvmlDeviceGetComputeRunningProcesses_v3(Device d, unsigned* count, void* infos) {
  const json* g = gpu(d);
  int s = status(g, "processes");
  if (s) return s;
  const auto& p = (*g)["processes"];
  if (*count < p.size()) {
    *count = static_cast<unsigned>(p.size());
    return 7;
  }
  auto* out = static_cast<unsigned char*>(infos);
  for (std::size_t i = 0; i < p.size(); ++i) {
    unsigned pid = p[i]["pid"];
    unsigned long long used = p[i]["used_bytes"].is_null() ? ~0ULL : p[i]["used_bytes"].get<unsigned long long>();
    unsigned none = 0xFFFFFFFFu;
    std::memcpy(out + i * 24, &pid, 4);
    std::memcpy(out + i * 24 + 8, &used, 8);
    std::memcpy(out + i * 24 + 16, &none, 4);
    std::memcpy(out + i * 24 + 20, &none, 4);
  }
  *count = static_cast<unsigned>(p.size());
  return 0;
}
int nvmlDeviceGetTemperature(Device d, int sensor, unsigned* t) { return sensor == 0 ? get(d, "temp", t, "temperature") : 2; }
int nvmlDeviceGetTemperatureThreshold(Device d, int type, unsigned* t) {
  if (type == 0) return get(d, "temp_shutdown", t);
  if (type == 1) return get(d, "temp_slowdown", t);
  return 3;
}
int nvmlDeviceGetPowerUsage(Device d, unsigned* p) { return get(d, "power_mw", p, "power"); }
int nvmlDeviceGetEnforcedPowerLimit(Device d, unsigned* p) { return get(d, "power_limit_mw", p, "power_limit"); }
int nvmlDeviceGetClockInfo(Device d, int type, unsigned* c) { return type == 1 ? get(d, "sm_clock", c) : 3; }
int nvmlDeviceGetMaxClockInfo(Device d, int type, unsigned* c) { return type == 1 ? get(d, "sm_clock_max", c) : 3; }
int nvmlDeviceGetCurrentClocksEventReasons(Device d, unsigned long long* r) { return get(d, "clock_event_reasons", r); }
int nvmlDeviceGetCurrentClocksThrottleReasons(Device d, unsigned long long* r) { return get(d, "clock_event_reasons", r); }
int nvmlDeviceGetEccMode(Device d, int* cur, int* pend) {
  bool c = false, p = false;
  int r = get(d, "ecc_current", &c, "ecc_mode");
  if (!r) r = get(d, "ecc_pending", &p, "ecc_mode");
  if (!r) {
    *cur = c;
    *pend = p;
  }
  return r;
}
int nvmlDeviceGetTotalEccErrors(Device d, int type, int counter, unsigned long long* v) {
  if (type != 1) return 3;
  return get(d, counter == 0 ? "ecc_volatile_unc" : "ecc_aggregate_unc", v, counter == 0 ? "ecc_volatile" : "ecc_aggregate");
}
int nvmlDeviceGetRetiredPages(Device d, int cause, unsigned* count, unsigned long long*) {
  unsigned n = 0;
  int r = get(d, cause == 0 ? "retired_sbe" : "retired_dbe", &n);
  if (r) return r;
  if (*count < n) {
    *count = n;
    return 7;
  }
  *count = n;
  return 0;
}
int nvmlDeviceGetRetiredPagesPendingStatus(Device d, int* p) {
  bool b = false;
  int r = get(d, "retired_pending", &b);
  if (!r) *p = b;
  return r;
}
int nvmlDeviceGetRemappedRows(Device d, unsigned* c, unsigned* u, unsigned* p, unsigned* f) {
  bool pb = false, fb = false;
  int r = get(d, "remap_corr", c, "remapped_rows");
  if (!r) r = get(d, "remap_unc", u, "remapped_rows");
  if (!r) r = get(d, "remap_pending", &pb, "remapped_rows");
  if (!r) r = get(d, "remap_failure", &fb, "remapped_rows");
  if (!r) {
    *p = pb;
    *f = fb;
  }
  return r;
}
int nvmlDeviceGetCurrPcieLinkGeneration(Device d, unsigned* v) { return get(d, "pcie_gen", v); }
int nvmlDeviceGetMaxPcieLinkGeneration(Device d, unsigned* v) { return get(d, "pcie_max_gen", v); }
int nvmlDeviceGetCurrPcieLinkWidth(Device d, unsigned* v) { return get(d, "pcie_width", v); }
int nvmlDeviceGetMaxPcieLinkWidth(Device d, unsigned* v) { return get(d, "pcie_max_width", v); }
int nvmlDeviceGetPcieReplayCounter(Device d, unsigned* v) { return get(d, "pcie_replay", v); }
int nvmlDeviceGetPersistenceMode(Device d, int* m) {
  bool b = false;
  int r = get(d, "persistence", &b);
  if (!r) *m = b;
  return r;
}
int nvmlDeviceGetComputeMode(Device d, int* m) { return get(d, "compute_mode", m); }
int nvmlDeviceGetMigMode(Device d, unsigned* c, unsigned* p) {
  int r = get(d, "mig_current", c, "mig");
  return r ? r : get(d, "mig_pending", p, "mig");
}
int nvmlDeviceGetNvLinkState(Device d, unsigned l, int* a) {
  int st;
  const json* k = link(d, l, &st);
  if (k) *a = (*k)["active"].get<bool>() ? 1 : 0;
  return st;
}
int nvmlDeviceGetNvLinkVersion(Device d, unsigned l, unsigned* v) {
  int st;
  const json* k = link(d, l, &st);
  if (!k) return st;
  if ((*k)["version"].is_null()) return 3;
  *v = (*k)["version"];
  return 0;
}
int nvmlDeviceGetNvLinkRemotePciInfo_v2(Device d, unsigned l, PciInfo* p) {
  int st;
  const json* k = link(d, l, &st);
  if (!k) return st;
  if ((*k)["remote_bus_id"].is_null()) return 3;
  fill_pci((*k)["remote_bus_id"], p);
  return 0;
}
int nvmlDeviceGetNvLinkRemoteDeviceType(Device d, unsigned l, int* t) {
  int st;
  const json* k = link(d, l, &st);
  if (!k) return st;
  if ((*k)["remote_type"].is_null()) return 3;
  *t = (*k)["remote_type"];
  return 0;
}
int nvmlDeviceGetNvLinkErrorCounter(Device d, unsigned l, int counter, unsigned long long* v) {
  int st;
  const json* k = link(d, l, &st);
  if (!k) return st;
  static const char* names[] = {"replay", "recovery", "crc_flit", "crc_data"};
  if (counter < 0 || counter > 3 || (*k)[names[counter]].is_null()) return 3;
  *v = (*k)[names[counter]];
  return 0;
}
int nvmlDeviceGetP2PStatus(Device a, Device b, int, int* s) {
  const auto& m = g_doc["p2p"];
  auto i = idx(a), j = idx(b);
  if (!m.is_array() || i >= m.size() || j >= m[i].size() || m[i][j].is_null()) return 3;
  *s = m[i][j];
  return 0;
}
int nvmlDeviceGetTopologyCommonAncestor(Device a, Device b, int* lvl) {
  const auto& m = g_doc["topology"];
  auto i = idx(a), j = idx(b);
  if (!m.is_array() || i >= m.size() || j >= m[i].size() || m[i][j].is_null()) return 3;
  *lvl = m[i][j];
  return 0;
}
int nvmlDeviceGetCpuAffinity(Device d, unsigned size, unsigned long* set) {
  std::string s;
  int r = get(d, "cpu_affinity", &s);
  if (r) return r;
  std::memset(set, 0, size * sizeof(unsigned long));
  for (char* tok = std::strtok(s.data(), ","); tok; tok = std::strtok(nullptr, ",")) {
    unsigned lo = 0, hi = 0;
    if (std::sscanf(tok, "%u-%u", &lo, &hi) < 2) hi = lo;
    for (unsigned c = lo; c <= hi && c < size * 64; ++c) set[c / 64] |= 1UL << (c % 64);
  }
  return 0;
}
struct FabricV2 {
  unsigned version;
  unsigned char uuid[16];
  int status;
  unsigned clique;
  unsigned char state;
  unsigned health;
};
int nvmlDeviceGetGpuFabricInfoV(Device d, FabricV2* f) {
  int st = 0;
  int r = get(d, "fabric_state", &st, "fabric");
  if (r) return r;
  f->state = static_cast<unsigned char>(st);
  int status = 0;
  if (get(d, "fabric_status", &status) == 0) f->status = status;
  return 0;
}
int nvmlDeviceGetGpuFabricInfo(Device d, void*) { return 3; }
}
