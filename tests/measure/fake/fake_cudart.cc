// A stand-in libcudart for machines without a GPU: N "devices" backed by host memory, events
// timed with steady_clock. It lets the test suite drive ncdx's real dlopen path and copy
// benchmark code end to end; its numbers mean nothing. Devices: FAKE_CUDART_DEVICES (default 2),
// or 0 / "nodriver" to imitate cudaErrorNoDevice / cudaErrorInsufficientDriver.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {
int devices() {
  const char* v = std::getenv("FAKE_CUDART_DEVICES");
  if (!v) return 2;
  if (std::string(v) == "nodriver") return -1;
  return std::atoi(v);
}
int current = 0;
struct Event {
  std::chrono::steady_clock::time_point t;
};
}  // namespace

extern "C" {
int cudaGetDeviceCount(int* n) {
  int d = devices();
  if (d < 0) return 35;
  *n = d;
  return d == 0 ? 100 : 0;
}
int cudaSetDevice(int d) { return d >= 0 && d < devices() ? (current = d, 0) : 101; }
int cudaDeviceGetPCIBusId(char* b, int len, int d) {
  std::snprintf(b, static_cast<size_t>(len), "00000000:%02X:00.0", d + 1);
  return 0;
}
int cudaDeviceSynchronize() { return 0; }
int cudaMalloc(void** p, size_t n) { return (*p = std::malloc(n)) ? 0 : 2; }
int cudaFree(void* p) { return std::free(p), 0; }
int cudaMallocHost(void** p, size_t n) { return cudaMalloc(p, n); }
int cudaFreeHost(void* p) { return cudaFree(p); }
int cudaMemset(void* p, int v, size_t n) { return std::memset(p, v, n), 0; }
int cudaMemcpyAsync(void* d, const void* s, size_t n, int, void*) { return std::memcpy(d, s, n), 0; }
int cudaMemcpyPeerAsync(void* d, int, const void* s, int, size_t n, void*) { return std::memcpy(d, s, n), 0; }
int cudaDeviceCanAccessPeer(int* can, int, int) { return *can = 1, 0; }
int cudaDeviceEnablePeerAccess(int, unsigned) { return 0; }
int cudaStreamCreateWithFlags(void** s, unsigned) { return *s = new int(0), 0; }
int cudaStreamSynchronize(void*) { return 0; }
int cudaStreamDestroy(void* s) { return delete static_cast<int*>(s), 0; }
int cudaEventCreate(void** e) { return *e = new Event, 0; }
int cudaEventRecord(void* e, void*) { return static_cast<Event*>(e)->t = std::chrono::steady_clock::now(), 0; }
int cudaEventSynchronize(void*) { return 0; }
int cudaEventElapsedTime(float* ms, void* a, void* b) {
  auto d = std::chrono::duration<float, std::milli>(static_cast<Event*>(b)->t - static_cast<Event*>(a)->t).count();
  *ms = d > 0 ? d : 0.001f;
  return 0;
}
int cudaEventDestroy(void* e) { return delete static_cast<Event*>(e), 0; }
int cudaGetLastError() { return 0; }
const char* cudaGetErrorString(int e) { return e == 100 ? "no CUDA-capable device is detected" : "fake error"; }
}
