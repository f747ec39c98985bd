#include "vendor/cuda.h"

#include "vendor/dynlib.h"

namespace ncdx::vendor::cuda {

DriverReport probe_driver(bool with_peer_matrix) {
  DriverReport r;
  static DynLib* lib = &keep_loaded(DynLib::open({"libcuda.so.1"}, {}, "NCDX_CUDA_LIB"));
  if (!lib->loaded()) {
    r.state = "absent";
    r.detail = "libcuda.so.1 not loadable: " + lib->error();
    return r;
  }
  r.library = lib->path();
  using InitFn = int (*)(unsigned);
  using IntFn = int (*)(int*);
  using GetFn = int (*)(int*, int);
  using PeerFn = int (*)(int*, int, int);
  auto init = lib->fn<InitFn>("cuInit");
  auto ver = lib->fn<IntFn>("cuDriverGetVersion");
  auto count = lib->fn<IntFn>("cuDeviceGetCount");
  auto get = lib->fn<GetFn>("cuDeviceGet");
  auto peer = lib->fn<PeerFn>("cuDeviceCanAccessPeer");
  if (!init || !ver) {
    r.state = "symbol_missing";
    r.detail = "cuInit/cuDriverGetVersion not exported by " + r.library;
    return r;
  }
  int v = 0;
  if (ver(&v) == 0) r.version = v;
  int rc = init(0);
  r.init_result = rc;
  if (rc != 0) {
    r.state = "failed";
    r.detail = rc == kCudaErrorStubLibrary ? "cuInit returned CUDA_ERROR_STUB_LIBRARY (34): a stub libcuda is on the search path"
               : rc == kCudaErrorNoDevice  ? "cuInit returned CUDA_ERROR_NO_DEVICE (100)"
                                           : "cuInit returned " + std::to_string(rc);
    return r;
  }
  int n = 0;
  if (count && count(&n) == 0) r.device_count = n;
  r.state = "ok";
  if (with_peer_matrix && get && peer && n > 1) {
    r.peer.assign(static_cast<std::size_t>(n), std::vector<std::optional<bool>>(static_cast<std::size_t>(n)));
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        if (i == j) continue;
        int di = 0, dj = 0, can = 0;
        if (get(&di, i) == 0 && get(&dj, j) == 0 && peer(&can, di, dj) == 0)
          r.peer[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)] = can != 0;
      }
  }
  return r;
}

RuntimeReport probe_runtime() {
  RuntimeReport r;
  static DynLib* lib = &keep_loaded(DynLib::open({"libcudart.so.13", "libcudart.so.12"}, {}, "NCDX_CUDART_LIB"));
  if (!lib->loaded()) {
    r.state = "absent";
    r.detail = "libcudart.so.13/.12 not loadable: " + lib->error();
    return r;
  }
  r.library = lib->path();
  auto fn = lib->fn<int (*)(int*)>("cudaRuntimeGetVersion");
  if (!fn) {
    r.state = "symbol_missing";
    r.detail = "cudaRuntimeGetVersion not exported";
    return r;
  }
  int v = 0;
  int rc = fn(&v);  // needs no device and no driver
  if (rc != 0) {
    r.state = "failed";
    r.detail = "cudaRuntimeGetVersion returned " + std::to_string(rc);
    return r;
  }
  r.version = v;
  r.state = "ok";
  return r;
}

}  // namespace ncdx::vendor::cuda
