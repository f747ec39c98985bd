// The NCCL backend: NCCL's collectives on GPU buffers, through vendor/ only (libnccl.so.2 and
// libcudart by dlopen; never linked). One process drives every local GPU with ncclCommInitAll,
// or, under mpirun, each process drives one GPU of a communicator made with ncclCommInitRank and
// a unique id broadcast by the MPI harness. Call layout as nccl-tests' startColl (common.cu @
// a0b82b2): in place, the send buffer is recvbuff + sendInplaceOffset*rank and the receive buffer
// recvbuff + recvInplaceOffset*rank; alltoall is grouped ncclSend/ncclRecv (alltoall.cu).
// UNVERIFIED ON HARDWARE here: the development machine has no GPU; the code path runs against
// the stand-in libraries of tests/measure/fake/.
#include <cstdlib>
#include <string>

#include "cluster/rank_env.h"
#include "measure/collective/backend.h"
#include "vendor/cudart_api.h"
#include "vendor/nccl_api.h"

namespace ncdx::measure {

namespace {

using core::Status;

int nccl_type(DataType t) {
  switch (t) {
    case DataType::int8: return 0;
    case DataType::uint8: return 1;
    case DataType::int32: return 2;
    case DataType::uint32: return 3;
    case DataType::int64: return 4;
    case DataType::uint64: return 5;
    case DataType::half: return 6;
    case DataType::float32: return 7;
    case DataType::float64: return 8;
    case DataType::bfloat16: return 9;
  }
  return 7;
}

struct LocalRank {
  int dev = 0, rank = 0;
  unsigned char* send = nullptr;
  unsigned char* recv = nullptr;
  std::size_t send_bytes = 0, recv_bytes = 0;
  vendor::cudaStreamPtr stream = nullptr;
  vendor::ncclCommPtr comm = nullptr;
};

class NcclEngine final : public Engine {
 public:
  NcclEngine(const vendor::CudartLoad& rt, const vendor::NcclLoad& nc) : rt_(rt), nc_(nc) {}
  ~NcclEngine() override {
    for (auto& r : ranks_) {
      rt_.api.SetDevice(r.dev);
      if (r.comm) nc_.api.CommDestroy(r.comm);
      if (r.stream) rt_.api.StreamDestroy(r.stream);
      if (r.send) rt_.api.Free(r.send);
      if (r.recv) rt_.api.Free(r.recv);
    }
  }

  Status init(Harness& h, int ngpus) {
    int count = 0;
    if (int e = rt_.api.GetDeviceCount(&count); e != 0) return fail("CUDA unusable: " + vendor::cuda_error_text(rt_, e));
    if (h.size() == 1) {
      int n = ngpus > 0 ? ngpus : count;
      if (n > count) return Status::usage("-g " + std::to_string(n) + " GPUs requested, " + std::to_string(count) + " present");
      std::vector<int> devs(static_cast<std::size_t>(n));
      for (int d = 0; d < n; ++d) devs[static_cast<std::size_t>(d)] = d;
      return init_on(h, devs);
    }
    // One GPU per process: the local rank picks it, as nccl-tests does with one GPU per rank.
    auto info = cluster::detect_rank();
    int local = info.local_rank.value_or(h.rank());
    return init_on(h, {count > 0 ? local % count : 0});
  }

  // These local devices, one communicator rank each. One process: ncclCommInitAll. Several:
  // the ranks are numbered in process order (this process's first = the devices of the processes
  // before it), and one process creates its communicators with ncclCommInitRank inside
  // ncclGroupStart/End, as NCCL requires when a thread initialises several ranks
  // (docs.nvidia.com/deeplearning/nccl/user-guide/docs/examples.html, "Example 3: Multiple
  // Devices per Thread"). A process may drive none (more processes on a node than GPUs).
  Status init_on(Harness& h, const std::vector<int>& devs) {
    const int n = static_cast<int>(devs.size());
    ranks_.resize(devs.size());
    if (h.size() == 1) {
      if (n == 0) return fail("no CUDA device to run on");
      nranks_ = n;
      first_ = 0;
      for (int d = 0; d < n; ++d) {
        ranks_[static_cast<std::size_t>(d)].dev = devs[static_cast<std::size_t>(d)];
        ranks_[static_cast<std::size_t>(d)].rank = d;
      }
      if (auto s = make_streams(); !s) return s;
      std::vector<vendor::ncclCommPtr> comms(static_cast<std::size_t>(n), nullptr);
      if (int e = nc_.api.CommInitAll(comms.data(), n, devs.data()); e != 0)
        return fail("ncclCommInitAll: " + vendor::nccl_error_text(nc_, e));
      for (int d = 0; d < n; ++d) ranks_[static_cast<std::size_t>(d)].comm = comms[static_cast<std::size_t>(d)];
      return Status::ok();
    }
    auto counts = h.gather0(std::vector<double>{static_cast<double>(n)});
    std::vector<int> first(static_cast<std::size_t>(h.size()) + 1, 0);
    for (std::size_t p = 0; p < counts.size(); ++p) first[p + 1] = first[p] + static_cast<int>(counts[p]);
    h.bcast_bytes(first.data(), first.size() * sizeof(int));
    first_ = first[static_cast<std::size_t>(h.rank())];
    nranks_ = first.back();
    for (int l = 0; l < n; ++l) {
      ranks_[static_cast<std::size_t>(l)].dev = devs[static_cast<std::size_t>(l)];
      ranks_[static_cast<std::size_t>(l)].rank = first_ + l;
    }
    Status local = make_streams();
    vendor::NcclUniqueId id{};
    int e = 0;
    if (h.rank() == 0) e = nc_.api.GetUniqueId(&id);
    // Every process must take the same branch: a process that returned alone would leave the
    // others waiting in ncclCommInitRank.
    if (h.max(local ? 0.0 : 1.0) > 0) return local ? fail("CUDA setup failed on another process") : local;
    if (h.max(e != 0 ? 1.0 : 0.0) > 0) return fail("ncclGetUniqueId failed on rank 0");
    h.bcast_bytes(&id, sizeof id);
    if (n == 1) {
      if (int r = nc_.api.CommInitRank(&ranks_[0].comm, nranks_, id, first_); r != 0)
        return fail("ncclCommInitRank: " + vendor::nccl_error_text(nc_, r));
      return Status::ok();
    }
    int r = nc_.api.GroupStart();
    for (int l = 0; l < n && r == 0; ++l) {
      rt_.api.SetDevice(devs[static_cast<std::size_t>(l)]);
      r = nc_.api.CommInitRank(&ranks_[static_cast<std::size_t>(l)].comm, nranks_, id, first_ + l);
    }
    int g = nc_.api.GroupEnd();
    if (r != 0) return fail("ncclCommInitRank: " + vendor::nccl_error_text(nc_, r));
    if (g != 0) return fail("ncclGroupEnd (ncclCommInitRank): " + vendor::nccl_error_text(nc_, g));
    return Status::ok();
  }

  std::string name() const override { return "nccl"; }
  std::string library() const override {
    int v = 0;
    if (nc_.api.GetVersion) nc_.api.GetVersion(&v);
    std::string s = "NCCL " + std::to_string(v / 10000) + "." + std::to_string(v / 100 % 100) + "." + std::to_string(v % 100);
    return s + " (" + nc_.library + ")";
  }
  int nranks() const override { return nranks_; }
  int local_count() const override { return static_cast<int>(ranks_.size()); }
  int first_rank() const override { return first_; }
  std::vector<Device> devices() const override {
    std::vector<Device> out;
    for (const auto& r : ranks_) {
      char bus[64] = {0};
      Device d;
      d.device = r.dev;
      d.bus = rt_.api.DeviceGetPCIBusId(bus, sizeof bus, r.dev) == 0 ? std::string(bus) : "?";
      d.name = "GPU";
      out.push_back(d);
    }
    return out;
  }
  std::string unsupported(DataType, RedOp) const override { return {}; }

  Status setup(std::size_t send_bytes, std::size_t recv_bytes) override {
    for (auto& r : ranks_) {
      rt_.api.SetDevice(r.dev);
      if (r.send_bytes < send_bytes) {
        if (r.send) rt_.api.Free(r.send);
        void* p = nullptr;
        if (int e = rt_.api.Malloc(&p, send_bytes); e != 0) return fail("cudaMalloc: " + vendor::cuda_error_text(rt_, e));
        r.send = static_cast<unsigned char*>(p);
        r.send_bytes = send_bytes;
      }
      if (r.recv_bytes < recv_bytes) {
        if (r.recv) rt_.api.Free(r.recv);
        void* p = nullptr;
        if (int e = rt_.api.Malloc(&p, recv_bytes); e != 0) return fail("cudaMalloc: " + vendor::cuda_error_text(rt_, e));
        r.recv = static_cast<unsigned char*>(p);
        r.recv_bytes = recv_bytes;
      }
    }
    return Status::ok();
  }

  Status write(int local, bool recv_buffer, std::size_t off, const void* host, std::size_t n) override {
    auto& r = ranks_[static_cast<std::size_t>(local)];
    if (off + n > (recv_buffer ? r.recv_bytes : r.send_bytes)) return Status::internal("buffer write out of range");
    rt_.api.SetDevice(r.dev);
    int e = rt_.api.MemcpyAsync((recv_buffer ? r.recv : r.send) + off, host, n, vendor::kCudaMemcpyHostToDevice, r.stream);
    if (e == 0) e = rt_.api.StreamSynchronize(r.stream);
    return e == 0 ? Status::ok() : fail("copy to GPU: " + vendor::cuda_error_text(rt_, e));
  }

  Status read_output(int local, const CallArgs& a, bool in_place, void* host, std::size_t n) override {
    auto& r = ranks_[static_cast<std::size_t>(local)];
    std::size_t off = in_place ? a.counts.recv_inplace_offset * static_cast<std::size_t>(r.rank) * size_of(a.type) : 0;
    if (off + n > r.recv_bytes) return Status::internal("buffer read out of range");
    rt_.api.SetDevice(r.dev);
    int e = rt_.api.MemcpyAsync(host, r.recv + off, n, vendor::kCudaMemcpyDeviceToHost, r.stream);
    if (e == 0) e = rt_.api.StreamSynchronize(r.stream);
    return e == 0 ? Status::ok() : fail("copy from GPU: " + vendor::cuda_error_text(rt_, e));
  }

  Status start(const CallArgs& a, bool in_place) override {
    const auto& api = nc_.api;
    const std::size_t elt = size_of(a.type);
    const int t = nccl_type(a.type), op = static_cast<int>(a.op);
    const auto& k = a.counts;
    if (int e = api.GroupStart(); e != 0) return fail("ncclGroupStart: " + vendor::nccl_error_text(nc_, e));
    int e = 0;
    for (auto& r : ranks_) {
      rt_.api.SetDevice(r.dev);
      const auto g = static_cast<std::size_t>(r.rank);
      unsigned char* s = in_place ? r.recv + k.send_inplace_offset * g * elt : r.send;
      unsigned char* d = in_place ? r.recv + k.recv_inplace_offset * g * elt : r.recv;
      switch (a.coll) {
        case Collective::allreduce: e = api.AllReduce(s, d, k.param, t, op, r.comm, r.stream); break;
        case Collective::allgather: e = api.AllGather(s, d, k.param, t, r.comm, r.stream); break;
        case Collective::reducescatter: e = api.ReduceScatter(s, d, k.param, t, op, r.comm, r.stream); break;
        case Collective::broadcast: e = api.Broadcast(s, d, k.param, t, a.root, r.comm, r.stream); break;
        case Collective::reduce: e = api.Reduce(s, d, k.param, t, op, a.root, r.comm, r.stream); break;
        case Collective::alltoall:
          for (int p = 0; p < nranks_ && e == 0; ++p) {
            const std::size_t blk = static_cast<std::size_t>(p) * k.param * elt;
            e = api.Send(s + blk, k.param, t, p, r.comm, r.stream);
            if (e == 0) e = api.Recv(d + blk, k.param, t, p, r.comm, r.stream);
          }
          break;
        case Collective::sendrecv: {
          int to = (r.rank + 1) % nranks_, from = (r.rank - 1 + nranks_) % nranks_;
          e = api.Send(s, k.param, t, to, r.comm, r.stream);
          if (e == 0) e = api.Recv(d, k.param, t, from, r.comm, r.stream);
          break;
        }
      }
      if (e != 0) break;
    }
    int ge = api.GroupEnd();
    if (e != 0) return fail("nccl " + std::string(name_of(a.coll)) + ": " + vendor::nccl_error_text(nc_, e));
    if (ge != 0) return fail("ncclGroupEnd: " + vendor::nccl_error_text(nc_, ge));
    return Status::ok();
  }

  Status complete() override {
    for (auto& r : ranks_) {
      rt_.api.SetDevice(r.dev);
      if (int e = rt_.api.StreamSynchronize(r.stream); e != 0) return fail("cudaStreamSynchronize: " + vendor::cuda_error_text(rt_, e));
    }
    return Status::ok();
  }
  bool synchronous() const override { return false; }

 private:
  static Status fail(const std::string& m) { return Status(core::Exit::failures, m); }
  Status make_streams() {
    for (auto& r : ranks_) {
      if (int e = rt_.api.SetDevice(r.dev); e != 0) return fail("cudaSetDevice(" + std::to_string(r.dev) + "): " + vendor::cuda_error_text(rt_, e));
      if (int e = rt_.api.StreamCreateWithFlags(&r.stream, vendor::kCudaStreamNonBlocking); e != 0)
        return fail("cudaStreamCreate: " + vendor::cuda_error_text(rt_, e));
    }
    return Status::ok();
  }

  const vendor::CudartLoad& rt_;
  const vendor::NcclLoad& nc_;
  int nranks_ = 0, first_ = 0;
  std::vector<LocalRank> ranks_;
};

template <class Init>
core::Result<std::unique_ptr<Engine>> open_nccl(Init&& init) {
  const auto& rt = vendor::cudart();
  if (!rt.ok) return Status(core::Exit::failures, rt.detail);
  const auto& nc = vendor::nccl();
  if (!nc.ok) return Status(core::Exit::failures, nc.detail);
  auto e = std::make_unique<NcclEngine>(rt, nc);
  if (auto s = init(*e); !s) return s;
  return std::unique_ptr<Engine>(std::move(e));
}

}  // namespace

core::Result<std::unique_ptr<Engine>> nccl_engine(Harness& h, int ngpus) {
  return open_nccl([&](NcclEngine& e) { return e.init(h, ngpus); });
}

core::Result<std::unique_ptr<Engine>> nccl_engine_on(Harness& h, const std::vector<int>& devices) {
  return open_nccl([&](NcclEngine& e) { return e.init_on(h, devices); });
}

}  // namespace ncdx::measure
