#include "vendor/cudart_api.h"

#include "vendor/dynlib.h"

namespace ncdx::vendor {

const CudartLoad& cudart() {
  static const CudartLoad load = [] {
    CudartLoad r;
    // Kept loaded until exit (unloading it while CUDA threads live is risky).
    auto* lib = &keep_loaded(DynLib::open({"libcudart.so.13", "libcudart.so.12"}, {}, "NCDX_CUDART_LIB"));
    if (!lib->loaded()) {
      r.state = "absent";
      r.detail = "no CUDA runtime (libcudart.so.13/.12 not loadable: " + lib->error() + ")";
      return r;
    }
    r.library = lib->path();
    auto& a = r.api;
#define NCDX_CUDART(field, name) a.field = lib->fn<decltype(a.field)>(name)
    NCDX_CUDART(GetDeviceCount, "cudaGetDeviceCount");
    NCDX_CUDART(SetDevice, "cudaSetDevice");
    NCDX_CUDART(DeviceGetPCIBusId, "cudaDeviceGetPCIBusId");
    NCDX_CUDART(DeviceSynchronize, "cudaDeviceSynchronize");
    NCDX_CUDART(Malloc, "cudaMalloc");
    NCDX_CUDART(Free, "cudaFree");
    NCDX_CUDART(MallocHost, "cudaMallocHost");
    NCDX_CUDART(FreeHost, "cudaFreeHost");
    NCDX_CUDART(Memset, "cudaMemset");
    NCDX_CUDART(MemcpyAsync, "cudaMemcpyAsync");
    NCDX_CUDART(MemcpyPeerAsync, "cudaMemcpyPeerAsync");
    NCDX_CUDART(DeviceCanAccessPeer, "cudaDeviceCanAccessPeer");
    NCDX_CUDART(DeviceEnablePeerAccess, "cudaDeviceEnablePeerAccess");
    NCDX_CUDART(StreamCreateWithFlags, "cudaStreamCreateWithFlags");
    NCDX_CUDART(StreamSynchronize, "cudaStreamSynchronize");
    NCDX_CUDART(StreamDestroy, "cudaStreamDestroy");
    NCDX_CUDART(EventCreate, "cudaEventCreate");
    NCDX_CUDART(EventRecord, "cudaEventRecord");
    NCDX_CUDART(EventSynchronize, "cudaEventSynchronize");
    NCDX_CUDART(EventElapsedTime, "cudaEventElapsedTime");
    NCDX_CUDART(EventDestroy, "cudaEventDestroy");
    NCDX_CUDART(GetLastError, "cudaGetLastError");
    NCDX_CUDART(GetErrorString, "cudaGetErrorString");
#undef NCDX_CUDART
    if (!lib->missing().empty()) {
      r.state = "symbol_missing";
      r.detail = r.library + " lacks " + lib->missing().front();
      return r;
    }
    r.state = "loaded";
    r.ok = true;
    return r;
  }();
  return load;
}

std::string cuda_error_text(const CudartLoad& rt, cudaError e) {
  std::string s = "CUDA error " + std::to_string(e);
  if (rt.api.GetErrorString)
    if (const char* t = rt.api.GetErrorString(e)) s += " (" + std::string(t) + ")";
  return s;
}

}  // namespace ncdx::vendor
