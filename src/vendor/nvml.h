#pragma once
// NVML gateway (libnvidia-ml.so.1, override NCDX_NVML_LIB). We declare the few types and
// functions we use ourselves, as NVIDIA's nvml.h declares them (NVIDIA/go-nvml vendors each
// version; no nvml.h is needed at build time) and pin
// every struct with static_assert. Each call outcome keeps "symbol missing", "not supported"
// and "failed" apart (as NCCL's src/misc/nvmlwrap.cc does).
#include <cstdint>
#include <string>

#include "vendor/dynlib.h"

namespace ncdx::vendor::nvml {

using Return = int;
using Device = struct nvmlDevice_st*;

enum : int {
  kSuccess = 0, kErrorUninitialized = 1, kErrorInvalidArgument = 2, kErrorNotSupported = 3,
  kErrorNoPermission = 4, kErrorNotFound = 6, kErrorInsufficientSize = 7, kErrorDriverNotLoaded = 9,
  kErrorFunctionNotFound = 13, kErrorGpuIsLost = 15, kErrorLibRmVersionMismatch = 18,
  kErrorArgumentVersionMismatch = 25, kErrorUnknown = 999,
};

struct PciInfo {  // nvmlPciInfo_t (v3), 68 bytes
  char busIdLegacy[16];
  unsigned domain, bus, device, pciDeviceId, pciSubSystemId;
  char busId[32];
};
static_assert(sizeof(PciInfo) == 68);

struct Memory {  // nvmlMemory_t
  unsigned long long total, free, used;
};
static_assert(sizeof(Memory) == 24);

struct ProcessInfo {  // nvmlProcessInfo_v2_t (used by _v2 and _v3)
  unsigned pid;
  unsigned long long usedGpuMemory;
  unsigned gpuInstanceId, computeInstanceId;
};
static_assert(sizeof(ProcessInfo) == 24);

struct GpuFabricInfo {  // nvmlGpuFabricInfo_t (unversioned)
  unsigned char clusterUuid[16];
  Return status;
  unsigned cliqueId;
  unsigned char state;
};
static_assert(sizeof(GpuFabricInfo) == 28);

struct GpuFabricInfoV2 {  // nvmlGpuFabricInfo_v2_t
  unsigned version;
  unsigned char clusterUuid[16];
  Return status;
  unsigned cliqueId;
  unsigned char state;
  unsigned healthMask;
};
static_assert(sizeof(GpuFabricInfoV2) == 36);
inline constexpr unsigned kFabricInfoV2 = 0x02000024;

// X(name, return, params) for every symbol we resolve.
#define NCDX_NVML_FUNCTIONS(X)                                                                 \
  X(nvmlInit_v2, (void))                                                                       \
  X(nvmlShutdown, (void))                                                                      \
  X(nvmlSystemGetDriverVersion, (char*, unsigned))                                             \
  X(nvmlSystemGetNVMLVersion, (char*, unsigned))                                               \
  X(nvmlSystemGetCudaDriverVersion_v2, (int*))                                                 \
  X(nvmlDeviceGetCount_v2, (unsigned*))                                                        \
  X(nvmlDeviceGetHandleByIndex_v2, (unsigned, Device*))                                        \
  X(nvmlDeviceGetName, (Device, char*, unsigned))                                              \
  X(nvmlDeviceGetUUID, (Device, char*, unsigned))                                              \
  X(nvmlDeviceGetPciInfo_v3, (Device, PciInfo*))                                               \
  X(nvmlDeviceGetArchitecture, (Device, unsigned*))                                            \
  X(nvmlDeviceGetCudaComputeCapability, (Device, int*, int*))                                  \
  X(nvmlDeviceGetMemoryInfo, (Device, Memory*))                                                \
  X(nvmlDeviceGetComputeRunningProcesses_v3, (Device, unsigned*, ProcessInfo*))                \
  X(nvmlDeviceGetTemperature, (Device, int, unsigned*))                                        \
  X(nvmlDeviceGetTemperatureThreshold, (Device, int, unsigned*))                               \
  X(nvmlDeviceGetPowerUsage, (Device, unsigned*))                                              \
  X(nvmlDeviceGetEnforcedPowerLimit, (Device, unsigned*))                                      \
  X(nvmlDeviceGetClockInfo, (Device, int, unsigned*))                                          \
  X(nvmlDeviceGetMaxClockInfo, (Device, int, unsigned*))                                       \
  X(nvmlDeviceGetCurrentClocksEventReasons, (Device, unsigned long long*))                     \
  X(nvmlDeviceGetCurrentClocksThrottleReasons, (Device, unsigned long long*))                  \
  X(nvmlDeviceGetEccMode, (Device, int*, int*))                                                \
  X(nvmlDeviceGetTotalEccErrors, (Device, int, int, unsigned long long*))                      \
  X(nvmlDeviceGetRetiredPages, (Device, int, unsigned*, unsigned long long*))                  \
  X(nvmlDeviceGetRetiredPagesPendingStatus, (Device, int*))                                    \
  X(nvmlDeviceGetRemappedRows, (Device, unsigned*, unsigned*, unsigned*, unsigned*))           \
  X(nvmlDeviceGetCurrPcieLinkGeneration, (Device, unsigned*))                                  \
  X(nvmlDeviceGetMaxPcieLinkGeneration, (Device, unsigned*))                                   \
  X(nvmlDeviceGetCurrPcieLinkWidth, (Device, unsigned*))                                       \
  X(nvmlDeviceGetMaxPcieLinkWidth, (Device, unsigned*))                                        \
  X(nvmlDeviceGetPcieReplayCounter, (Device, unsigned*))                                       \
  X(nvmlDeviceGetPersistenceMode, (Device, int*))                                              \
  X(nvmlDeviceGetComputeMode, (Device, int*))                                                  \
  X(nvmlDeviceGetMigMode, (Device, unsigned*, unsigned*))                                      \
  X(nvmlDeviceGetNvLinkState, (Device, unsigned, int*))                                        \
  X(nvmlDeviceGetNvLinkVersion, (Device, unsigned, unsigned*))                                 \
  X(nvmlDeviceGetNvLinkRemotePciInfo_v2, (Device, unsigned, PciInfo*))                         \
  X(nvmlDeviceGetNvLinkRemoteDeviceType, (Device, unsigned, int*))                             \
  X(nvmlDeviceGetNvLinkErrorCounter, (Device, unsigned, int, unsigned long long*))             \
  X(nvmlDeviceGetP2PStatus, (Device, Device, int, int*))                                       \
  X(nvmlDeviceGetTopologyCommonAncestor, (Device, Device, int*))                               \
  X(nvmlDeviceGetCpuAffinity, (Device, unsigned, unsigned long*))                              \
  X(nvmlDeviceGetGpuFabricInfo, (Device, GpuFabricInfo*))                                      \
  X(nvmlDeviceGetGpuFabricInfoV, (Device, GpuFabricInfoV2*))

using ErrorStringFn = const char* (*)(Return);

// Outcome of one call: ok, the symbol is missing, the device does not support it, or it failed.
struct Call {
  enum Kind { ok, symbol_missing, not_supported, failed } kind = ok;
  Return code = kSuccess;
  explicit operator bool() const { return kind == ok; }
};

class Api {
 public:
  // Loads NVML (NCDX_NVML_LIB first, then the soname) and resolves every symbol it can.
  static Api load();
  bool loaded() const { return lib_.loaded(); }
  const DynLib& lib() const { return lib_; }
  std::string error_string(Return r) const;

#define NCDX_NVML_MEMBER(name, params) Return(*name) params = nullptr;
  NCDX_NVML_FUNCTIONS(NCDX_NVML_MEMBER)
#undef NCDX_NVML_MEMBER

  template <class F, class... A>
  Call call(F fn, A... args) const {
    if (!fn) return {Call::symbol_missing, kErrorFunctionNotFound};
    Return r = fn(args...);
    if (r == kSuccess) return {Call::ok, r};
    if (r == kErrorNotSupported || r == kErrorFunctionNotFound) return {Call::not_supported, r};
    return {Call::failed, r};
  }

 private:
  Api() : lib_(DynLib::open({})) {}
  DynLib lib_;
  ErrorStringFn error_string_ = nullptr;
};

}  // namespace ncdx::vendor::nvml
