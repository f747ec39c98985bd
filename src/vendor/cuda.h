#pragma once
// CUDA driver (libcuda.so.1) and runtime (libcudart.so.13/.12) gateway: just enough for versions
// and the peer-access matrix (CUDA 13.0 cuda.h, cuda_runtime_api.h). Never linked; loaded on first use and kept
// loaded (unloading libcuda while driver threads live is risky).
#include <optional>
#include <string>
#include <vector>

namespace ncdx::vendor::cuda {

inline constexpr int kCudaErrorStubLibrary = 34;
inline constexpr int kCudaErrorNoDevice = 100;

struct DriverReport {
  std::string state;   // "ok", "absent", "symbol_missing", "failed"
  std::string detail;
  std::string library;
  std::optional<int> version, init_result, device_count;
  std::vector<std::vector<std::optional<bool>>> peer;  // [i][j] cuDeviceCanAccessPeer
};

struct RuntimeReport {
  std::string state, detail, library;
  std::optional<int> version;
};

DriverReport probe_driver(bool with_peer_matrix);
RuntimeReport probe_runtime();

}  // namespace ncdx::vendor::cuda
