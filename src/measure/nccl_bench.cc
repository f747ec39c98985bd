#include "measure/nccl_bench.h"

#include <algorithm>
#include <chrono>

#include "core/strings.h"
#include "knowledge/gpu_models.h"
#include "measure/cuda_bench.h"
#include "measure/expected.h"
#include "vendor/cudart_api.h"
#include "vendor/nccl_api.h"

namespace ncdx::measure {

double allreduce_busbw_factor(int n) { return n > 0 ? 2.0 * (n - 1) / n : 0.0; }

namespace {

struct Rank {
  int dev = 0;
  void* send = nullptr;
  void* recv = nullptr;
  vendor::cudaStreamPtr stream = nullptr;
  vendor::ncclCommPtr comm = nullptr;
};

}  // namespace

std::vector<Measurement> measure_nccl_allreduce(const probe::TopoMatrix* topo, const NcclBenchOptions& opt) {
  const char* id = "nccl.allreduce";
  const char* title = "local NCCL all-reduce bus bandwidth";
  auto skip = [&](const std::string& why) { return std::vector<Measurement>{skipped(id, title, "GB/s", why)}; };
  const auto& rt = vendor::cudart();
  if (!rt.ok) return skip(rt.detail);
  const auto& nc = vendor::nccl();
  if (!nc.ok) return skip(nc.detail);
  if (opt.sizes.empty() || opt.iterations < 1 || opt.warmup < 0) return skip("bad options");
  const auto& a = rt.api;
  int n = 0;
  if (int e = a.GetDeviceCount(&n); e != 0) return skip("CUDA unusable: " + vendor::cuda_error_text(rt, e));
  if (n < 2) return skip("needs at least 2 GPUs, found " + std::to_string(n));

  std::vector<Rank> ranks(static_cast<std::size_t>(n));
  std::vector<int> devlist(static_cast<std::size_t>(n));
  const std::size_t max_bytes = *std::max_element(opt.sizes.begin(), opt.sizes.end());
  std::string err;
  for (int d = 0; d < n && err.empty(); ++d) {
    auto& r = ranks[static_cast<std::size_t>(d)];
    r.dev = devlist[static_cast<std::size_t>(d)] = d;
    int e = a.SetDevice(d);
    if (e == 0) e = a.Malloc(&r.send, max_bytes);
    if (e == 0) e = a.Malloc(&r.recv, max_bytes);
    if (e == 0) e = a.Memset(r.send, 0, max_bytes);
    if (e == 0) e = a.StreamCreateWithFlags(&r.stream, vendor::kCudaStreamNonBlocking);
    if (e != 0) err = "GPU " + std::to_string(d) + ": " + vendor::cuda_error_text(rt, e);
  }
  std::vector<vendor::ncclCommPtr> comms(static_cast<std::size_t>(n), nullptr);
  if (err.empty()) {
    if (int e = nc.api.CommInitAll(comms.data(), n, devlist.data()); e != 0)
      err = "ncclCommInitAll: " + vendor::nccl_error_text(nc, e);
    else
      for (int d = 0; d < n; ++d) ranks[static_cast<std::size_t>(d)].comm = comms[static_cast<std::size_t>(d)];
  }
  auto launch = [&](std::size_t bytes) -> int {
    if (int e = nc.api.GroupStart(); e != 0) return e;
    for (auto& r : ranks) {
      a.SetDevice(r.dev);
      if (int e = nc.api.AllReduce(r.send, r.recv, bytes / 4, vendor::kNcclFloat32, vendor::kNcclSum, r.comm, r.stream); e != 0) {
        nc.api.GroupEnd();
        return e;
      }
    }
    return nc.api.GroupEnd();
  };
  auto sync = [&]() -> int {
    for (auto& r : ranks) {
      a.SetDevice(r.dev);
      if (int e = a.StreamSynchronize(r.stream); e != 0) return e;
    }
    return 0;
  };

  std::vector<Measurement> out;
  Expectation ex{std::nullopt, "no topology"};
  if (topo && topo->gpus.size() == static_cast<std::size_t>(n)) {
    std::vector<std::size_t> gpus;
    for (int d = 0; d < n; ++d) {
      char bus[32] = {0};
      std::optional<std::size_t> g;
      if (a.DeviceGetPCIBusId(bus, sizeof bus, d) == 0) g = topo_gpu_for_bus(topo, canonical_bus_id(bus));
      if (g) gpus.push_back(*g);
    }
    auto t = knowledge::gpu_models();
    if (gpus.size() == static_cast<std::size_t>(n) && t.ok()) ex = nccl_ring_busbw(**t, *topo, gpus);
  }
  for (std::size_t bytes : opt.sizes) {
    bytes -= bytes % 4;
    Measurement m;
    m.id = std::string(id) + "." + std::to_string(bytes);
    m.title = "all-reduce busbw, " + core::human_bytes(static_cast<double>(bytes)) + ", " + std::to_string(n) + " GPUs";
    m.unit = "GB/s";
    if (!err.empty()) {
      m.status = core::Outcome::fail;
      m.detail = err;
      out.push_back(m);
      continue;
    }
    int e = 0;
    for (int i = 0; i < opt.warmup && e == 0; ++i) e = launch(bytes);
    if (e == 0) e = sync();
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < opt.iterations && e == 0; ++i) e = launch(bytes);
    if (e == 0) e = sync();
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / opt.iterations;
    if (e != 0 || s <= 0) {
      m.status = core::Outcome::fail;
      m.detail = "all-reduce failed: error " + std::to_string(e);
      out.push_back(m);
      continue;
    }
    double algbw = static_cast<double>(bytes) / s / 1e9;
    m.value = algbw * allreduce_busbw_factor(n);
    const bool judged = bytes == max_bytes - max_bytes % 4;
    if (judged) m.expected = ex.gbps;
    m.detail = "algbw " + std::to_string(algbw) + " GB/s x 2(n-1)/n; " +
               (judged ? "expected: " + ex.basis : std::string("latency-bound size, not judged"));
    judge(m);
    out.push_back(m);
  }
  for (auto& r : ranks) {
    a.SetDevice(r.dev);
    if (r.comm) nc.api.CommDestroy(r.comm);
    if (r.stream) a.StreamDestroy(r.stream);
    if (r.send) a.Free(r.send);
    if (r.recv) a.Free(r.recv);
  }
  return out;
}

}  // namespace ncdx::measure
