#pragma once
// The CUDA runtime functions ncdx's copy benchmarks call, resolved from libcudart.so.13/.12 by
// dlopen (never linked; CUDA 13.0 cuda_runtime_api.h). Only plain names are resolved (our own streams
// are always passed, never stream 0, so the _ptsz variants are not needed), and
// cudaGetDeviceProperties is not used (its struct changed in CUDA 13). The library stays loaded
// for the life of the process (unloading CUDA while its threads live is risky).
#include <cstddef>
#include <string>

namespace ncdx::vendor {

using cudaError = int;            // cudaError_t: a 4-byte enum
using cudaStreamPtr = void*;      // cudaStream_t
using cudaEventPtr = void*;       // cudaEvent_t

inline constexpr int kCudaMemcpyHostToDevice = 1;
inline constexpr int kCudaMemcpyDeviceToHost = 2;
inline constexpr int kCudaMemcpyDeviceToDevice = 3;
inline constexpr unsigned kCudaStreamNonBlocking = 1;
inline constexpr cudaError kCudaErrorInsufficientDriver = 35;
inline constexpr cudaError kCudaErrorNoDevice = 100;
inline constexpr cudaError kCudaErrorPeerAccessAlreadyEnabled = 704;

struct CudartApi {
  cudaError (*GetDeviceCount)(int*) = nullptr;
  cudaError (*SetDevice)(int) = nullptr;
  cudaError (*DeviceGetPCIBusId)(char*, int, int) = nullptr;
  cudaError (*DeviceSynchronize)() = nullptr;
  cudaError (*Malloc)(void**, std::size_t) = nullptr;
  cudaError (*Free)(void*) = nullptr;
  cudaError (*MallocHost)(void**, std::size_t) = nullptr;
  cudaError (*FreeHost)(void*) = nullptr;
  cudaError (*Memset)(void*, int, std::size_t) = nullptr;
  cudaError (*MemcpyAsync)(void*, const void*, std::size_t, int, cudaStreamPtr) = nullptr;
  cudaError (*MemcpyPeerAsync)(void*, int, const void*, int, std::size_t, cudaStreamPtr) = nullptr;
  cudaError (*DeviceCanAccessPeer)(int*, int, int) = nullptr;
  cudaError (*DeviceEnablePeerAccess)(int, unsigned) = nullptr;
  cudaError (*StreamCreateWithFlags)(cudaStreamPtr*, unsigned) = nullptr;
  cudaError (*StreamSynchronize)(cudaStreamPtr) = nullptr;
  cudaError (*StreamDestroy)(cudaStreamPtr) = nullptr;
  cudaError (*EventCreate)(cudaEventPtr*) = nullptr;
  cudaError (*EventRecord)(cudaEventPtr, cudaStreamPtr) = nullptr;
  cudaError (*EventSynchronize)(cudaEventPtr) = nullptr;
  cudaError (*EventElapsedTime)(float*, cudaEventPtr, cudaEventPtr) = nullptr;
  cudaError (*EventDestroy)(cudaEventPtr) = nullptr;
  cudaError (*GetLastError)() = nullptr;
  const char* (*GetErrorString)(cudaError) = nullptr;
};

struct CudartLoad {
  bool ok = false;         // every function above resolved
  std::string state;       // "loaded", "absent", "symbol_missing"
  std::string detail;      // why not, for SKIP reasons
  std::string library;     // path loaded
  CudartApi api;
};

// Loads once (NCDX_CUDART_LIB overrides the path; then libcudart.so.13, libcudart.so.12).
const CudartLoad& cudart();
// "cudaErrorNoDevice (100): no CUDA-capable device is detected"-style text for an error code.
std::string cuda_error_text(const CudartLoad& rt, cudaError e);

}  // namespace ncdx::vendor
