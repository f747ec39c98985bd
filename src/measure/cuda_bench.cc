#include "measure/cuda_bench.h"

#include <cstdio>
#include <cstdlib>
#include <string>

#include "knowledge/gpu_models.h"
#include "measure/expected.h"
#include "vendor/cudart_api.h"

namespace ncdx::measure {

std::string canonical_bus_id(std::string_view s) {
  unsigned dom = 0, bus = 0, dev = 0, fn = 0;
  std::string t(s);
  if (std::sscanf(t.c_str(), "%x:%x:%x.%x", &dom, &bus, &dev, &fn) != 4) return {};
  char b[32];
  std::snprintf(b, sizeof b, "%04x:%02x:%02x.%x", dom, bus, dev, fn);
  return b;
}

std::optional<std::size_t> topo_gpu_for_bus(const probe::TopoMatrix* topo, const std::string& bus_id) {
  if (!topo || bus_id.empty()) return std::nullopt;
  for (std::size_t g = 0; g < topo->gpus.size(); ++g)
    if (canonical_bus_id(topo->gpus[g].bus_id) == bus_id) return g;
  return std::nullopt;
}

namespace {

using vendor::cudaError;

// Why CUDA cannot run, in words, from cudaGetDeviceCount's result.
std::string no_gpu_reason(const vendor::CudartLoad& rt, cudaError e) {
  if (e == vendor::kCudaErrorNoDevice) return "no NVIDIA GPU (cudaErrorNoDevice)";
  if (e == vendor::kCudaErrorInsufficientDriver)
    return "no usable NVIDIA driver: missing, or older than the CUDA runtime " + rt.library;
  return "CUDA unusable: " + vendor::cuda_error_text(rt, e);
}

struct Device {
  int ordinal = 0;
  std::string bus_id;
  std::optional<std::size_t> topo_gpu;
  void* a = nullptr;  // device buffers
  void* b = nullptr;
  void* host = nullptr;  // pinned
  vendor::cudaStreamPtr stream = nullptr;
  vendor::cudaEventPtr start = nullptr, stop = nullptr;
  std::string error;  // setup failure
};

class Bench {
 public:
  Bench(const vendor::CudartLoad& rt, const probe::TopoMatrix* topo, const GpuBenchOptions& opt)
      : rt_(rt), a_(rt.api), topo_(topo), opt_(opt) {
    auto t = knowledge::gpu_models();
    table_ = t.ok() ? *t : nullptr;
  }

  GpuBenchResult run(int n) {
    GpuBenchResult r;
    r.ran = true;
    devs_.resize(static_cast<std::size_t>(n));
    for (int d = 0; d < n; ++d) setup(devs_[static_cast<std::size_t>(d)], d);
    for (auto& d : devs_) local_copies(d, r.measurements);
    r.p2p_gbps.assign(devs_.size(), std::vector<std::optional<double>>(devs_.size()));
    r.p2p_latency_us = r.p2p_gbps;
    for (auto& s : devs_)
      for (auto& d : devs_)
        if (s.ordinal != d.ordinal) peer(s, d, r);
    for (auto& d : devs_) teardown(d);
    return r;
  }

 private:
  const vendor::CudartLoad& rt_;
  const vendor::CudartApi& a_;
  const probe::TopoMatrix* topo_;
  GpuBenchOptions opt_;
  const knowledge::GpuModelTable* table_ = nullptr;
  std::vector<Device> devs_;

  bool ok(cudaError e, std::string& err, const char* what) {
    if (e == 0) return true;
    if (err.empty()) err = std::string(what) + ": " + vendor::cuda_error_text(rt_, e);
    a_.GetLastError();  // clear the sticky-free error state of the runtime
    return false;
  }

  void setup(Device& d, int ordinal) {
    d.ordinal = ordinal;
    char bus[32] = {0};
    if (a_.DeviceGetPCIBusId(bus, sizeof bus, ordinal) == 0) d.bus_id = canonical_bus_id(bus);
    d.topo_gpu = topo_gpu_for_bus(topo_, d.bus_id);
    auto& e = d.error;
    ok(a_.SetDevice(ordinal), e, "cudaSetDevice") && ok(a_.Malloc(&d.a, opt_.copy_bytes), e, "cudaMalloc") &&
        ok(a_.Malloc(&d.b, opt_.copy_bytes), e, "cudaMalloc") &&
        ok(a_.MallocHost(&d.host, opt_.copy_bytes), e, "cudaMallocHost") &&
        ok(a_.Memset(d.a, 1, opt_.copy_bytes), e, "cudaMemset") &&
        ok(a_.StreamCreateWithFlags(&d.stream, vendor::kCudaStreamNonBlocking), e, "cudaStreamCreateWithFlags") &&
        ok(a_.EventCreate(&d.start), e, "cudaEventCreate") && ok(a_.EventCreate(&d.stop), e, "cudaEventCreate");
  }

  void teardown(Device& d) {
    a_.SetDevice(d.ordinal);
    if (d.stream) a_.StreamSynchronize(d.stream);
    if (d.start) a_.EventDestroy(d.start);
    if (d.stop) a_.EventDestroy(d.stop);
    if (d.stream) a_.StreamDestroy(d.stream);
    if (d.a) a_.Free(d.a);
    if (d.b) a_.Free(d.b);
    if (d.host) a_.FreeHost(d.host);
  }

  // Times `iters` calls of `copy` on d's stream; returns seconds, or nullopt with err set.
  template <class F>
  std::optional<double> timed(Device& d, int iters, F copy, std::string& err) {
    if (!ok(a_.SetDevice(d.ordinal), err, "cudaSetDevice") || !ok(copy(), err, "warm-up copy") ||
        !ok(a_.EventRecord(d.start, d.stream), err, "cudaEventRecord"))
      return std::nullopt;
    for (int i = 0; i < iters; ++i)
      if (!ok(copy(), err, "copy")) return std::nullopt;
    float ms = 0;
    if (!ok(a_.EventRecord(d.stop, d.stream), err, "cudaEventRecord") ||
        !ok(a_.EventSynchronize(d.stop), err, "cudaEventSynchronize") ||
        !ok(a_.EventElapsedTime(&ms, d.start, d.stop), err, "cudaEventElapsedTime"))
      return std::nullopt;
    if (ms <= 0) {
      err = "event timer returned " + std::to_string(ms) + " ms";
      return std::nullopt;
    }
    return ms / 1e3;
  }

  Measurement bandwidth(const std::string& id, const std::string& title, std::optional<double> seconds,
                        double bytes, const std::string& err, const Expectation& ex) {
    Measurement m;
    m.id = id, m.title = title, m.unit = "GB/s";
    if (!seconds) {
      m.status = core::Outcome::fail;
      m.detail = err;
      return m;
    }
    m.value = bytes / *seconds / 1e9;
    m.expected = ex.gbps;
    m.detail = "expected: " + ex.basis;
    judge(m);
    return m;
  }

  const probe::Gpu* gpu_of(const Device& d) const {
    return d.topo_gpu ? &topo_->gpus[*d.topo_gpu] : nullptr;
  }

  void local_copies(Device& d, std::vector<Measurement>& out) {
    std::string p = "gpu" + std::to_string(d.ordinal);
    if (!d.error.empty()) {
      out.push_back(skipped(p + ".copies", "copies on CUDA device " + std::to_string(d.ordinal), "GB/s", d.error));
      return;
    }
    const double bytes = static_cast<double>(opt_.copy_bytes) * opt_.iterations;
    const probe::Gpu* g = gpu_of(d);
    Expectation none{std::nullopt, "no topology/GPU model for CUDA device " + std::to_string(d.ordinal)};
    Expectation pcie = g && table_ ? host_copy(*table_, *g) : none;
    Expectation mem = g && table_ ? device_copy(*table_, *g) : none;
    const auto n = opt_.copy_bytes;
    std::string e1, e2, e3;
    auto h2d = timed(d, opt_.iterations, [&] { return a_.MemcpyAsync(d.a, d.host, n, vendor::kCudaMemcpyHostToDevice, d.stream); }, e1);
    out.push_back(bandwidth(p + ".h2d", "host to device, pinned", h2d, bytes, e1, pcie));
    auto d2h = timed(d, opt_.iterations, [&] { return a_.MemcpyAsync(d.host, d.a, n, vendor::kCudaMemcpyDeviceToHost, d.stream); }, e2);
    out.push_back(bandwidth(p + ".d2h", "device to host, pinned", d2h, bytes, e2, pcie));
    auto d2d = timed(d, opt_.iterations, [&] { return a_.MemcpyAsync(d.b, d.a, n, vendor::kCudaMemcpyDeviceToDevice, d.stream); }, e3);
    out.push_back(bandwidth(p + ".d2d", "device to device (same GPU)", d2d, bytes, e3, mem));
  }

  void peer(Device& s, Device& d, GpuBenchResult& r) {
    if (!s.error.empty() || !d.error.empty()) return;  // already reported as skipped
    std::string pair = std::to_string(s.ordinal) + "-" + std::to_string(d.ordinal);
    std::string err;
    int can = 0;
    a_.DeviceCanAccessPeer(&can, s.ordinal, d.ordinal);
    std::string how = can ? "peer access" : "no peer access: staged through host memory";
    if (can) {
      a_.SetDevice(s.ordinal);
      cudaError e = a_.DeviceEnablePeerAccess(d.ordinal, 0);
      if (e == vendor::kCudaErrorPeerAccessAlreadyEnabled) a_.GetLastError(), e = 0;
      if (e != 0) how = "enabling peer access failed (" + vendor::cuda_error_text(rt_, e) + ")", a_.GetLastError();
    }
    const auto n = opt_.copy_bytes;
    auto secs = timed(s, opt_.iterations, [&] { return a_.MemcpyPeerAsync(d.b, d.ordinal, s.a, s.ordinal, n, s.stream); }, err);
    Expectation ex{std::nullopt, "no topology for this pair"};
    if (s.topo_gpu && d.topo_gpu && table_) ex = p2p_copy(*table_, *topo_, *s.topo_gpu, *d.topo_gpu);
    auto m = bandwidth("p2p." + pair + ".bw", "GPU" + pair + " cudaMemcpyPeerAsync bandwidth", secs,
                       static_cast<double>(n) * opt_.iterations, err, ex);
    m.detail = how + "; " + m.detail;
    r.p2p_gbps[static_cast<std::size_t>(s.ordinal)][static_cast<std::size_t>(d.ordinal)] = m.value;
    r.measurements.push_back(m);

    std::string lerr;
    const auto small = opt_.latency_bytes;
    auto ls = timed(s, opt_.latency_iterations, [&] { return a_.MemcpyPeerAsync(d.b, d.ordinal, s.a, s.ordinal, small, s.stream); }, lerr);
    Measurement lat;
    lat.id = "p2p." + pair + ".latency";
    lat.title = "GPU" + pair + " " + std::to_string(small) + "-byte copy latency";
    lat.unit = "us";
    if (ls) {
      lat.value = *ls / opt_.latency_iterations * 1e6;
      lat.detail = how + "; copy-engine latency with launch, mean of " + std::to_string(opt_.latency_iterations) +
                   "; no expected value";
      judge(lat, true);
    } else {
      lat.status = core::Outcome::fail;
      lat.detail = lerr;
    }
    r.p2p_latency_us[static_cast<std::size_t>(s.ordinal)][static_cast<std::size_t>(d.ordinal)] = lat.value;
    r.measurements.push_back(lat);
  }
};

}  // namespace

GpuBenchResult measure_gpu_copies(const probe::TopoMatrix* topo, const GpuBenchOptions& opt) {
  GpuBenchResult r;
  const auto& rt = vendor::cudart();
  auto skip = [&](const std::string& why) {
    r.measurements.push_back(skipped("gpu.copies", "GPU copy bandwidth and latency", "GB/s", why));
    return r;
  };
  if (!rt.ok) return skip(rt.detail);
  if (opt.copy_bytes == 0 || opt.iterations < 1 || opt.latency_iterations < 1) return skip("bad options");
  int n = 0;
  cudaError e = rt.api.GetDeviceCount(&n);
  if (e != 0) return skip(no_gpu_reason(rt, e));
  if (n <= 0) return skip("no NVIDIA GPU");
  return Bench(rt, topo, opt).run(n);
}

}  // namespace ncdx::measure
