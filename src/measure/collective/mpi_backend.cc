// The MPI backend: MPI_COMM_WORLD as the harness, and MPI's own collectives as the measured
// engine (host memory). Under Open MPI the collective algorithm is coll_tuned's decision, which
// `ncdx tune --backend mpi` overrides through MCA parameters or a dynamic-rules file.
// Compiled to a usage error when the build has no MPI (NCDX_WITH_MPI).
#include "measure/collective/backend.h"

#ifdef NCDX_WITH_MPI
// The C API only: without this Open MPI's mpi.h pulls in its C++ bindings, whose symbols live in
// libmpi_cxx, which MPI::MPI_C does not link.
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>

#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#endif

namespace ncdx::measure {

#ifndef NCDX_WITH_MPI

bool mpi_built() { return false; }
core::Result<std::unique_ptr<Harness>> mpi_harness() {
  return core::Status::usage("this ncdx was built without MPI (NCDX_WITH_MPI=OFF or no MPI found at build time)");
}
core::Result<std::unique_ptr<Engine>> mpi_engine() { return mpi_harness().status(); }

#else

namespace {

using core::Status;

// MPI is initialised once per process and finalised at exit, unless somebody else (cluster
// mode) initialised it first; then it is theirs to finalise.
bool ensure_mpi() {
  int inited = 0, finalized = 0;
  MPI_Initialized(&inited);
  MPI_Finalized(&finalized);
  if (finalized) return false;
  if (!inited) {
    int provided = 0;
    if (MPI_Init_thread(nullptr, nullptr, MPI_THREAD_SINGLE, &provided) != MPI_SUCCESS) return false;
    std::atexit([] {
      int fin = 0;
      MPI_Finalized(&fin);
      if (!fin) MPI_Finalize();
    });
  }
  return true;
}

double wtime_us() {
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

class MpiHarness final : public Harness {
 public:
  MpiHarness() {
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
  }
  int rank() const override { return rank_; }
  int size() const override { return size_; }
  void barrier() override { MPI_Barrier(MPI_COMM_WORLD); }
  double sum(double v) override { return reduce(v, MPI_SUM); }
  double min(double v) override { return reduce(v, MPI_MIN); }
  double max(double v) override { return reduce(v, MPI_MAX); }
  double bcast0(double v) override {
    MPI_Bcast(&v, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    return v;
  }
  std::vector<double> gather0(const std::vector<double>& mine) override {
    std::vector<double> all(rank_ == 0 ? mine.size() * static_cast<std::size_t>(size_) : 0);
    MPI_Gather(mine.data(), static_cast<int>(mine.size()), MPI_DOUBLE, all.data(), static_cast<int>(mine.size()),
               MPI_DOUBLE, 0, MPI_COMM_WORLD);
    return all;
  }
  std::vector<std::string> gather0(const std::string& mine) override {
    int len = static_cast<int>(mine.size());
    std::vector<int> lens(static_cast<std::size_t>(size_)), displs(static_cast<std::size_t>(size_));
    MPI_Gather(&len, 1, MPI_INT, lens.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
    int total = 0;
    for (int i = 0; i < size_; ++i) {
      displs[static_cast<std::size_t>(i)] = total;
      total += lens[static_cast<std::size_t>(i)];
    }
    std::string all(rank_ == 0 ? static_cast<std::size_t>(total) : 0, '\0');
    MPI_Gatherv(mine.data(), len, MPI_CHAR, all.data(), lens.data(), displs.data(), MPI_CHAR, 0, MPI_COMM_WORLD);
    std::vector<std::string> out;
    if (rank_ == 0)
      for (int i = 0; i < size_; ++i)
        out.push_back(all.substr(static_cast<std::size_t>(displs[static_cast<std::size_t>(i)]),
                                 static_cast<std::size_t>(lens[static_cast<std::size_t>(i)])));
    return out;
  }
  void bcast_bytes(void* data, std::size_t n) override {
    MPI_Bcast(data, static_cast<int>(n), MPI_BYTE, 0, MPI_COMM_WORLD);
  }
  // Rank 0 answers each rank's pings in turn; the offset is the midpoint estimate of the
  // round trip that was fastest (Cristian's algorithm), which bounds its error by half that RTT.
  // Ranks on rank 0's host share its CLOCK_MONOTONIC (steady_clock): their offset is exactly 0,
  // which matters when ranks are oversubscribed and a round trip can take milliseconds.
  double clock_offset_us() override {
    constexpr int kPings = 8;
    double offset = 0;
    char host[256] = {0}, root_host[256] = {0};
    gethostname(host, sizeof host - 1);
    std::memcpy(root_host, host, sizeof host);
    MPI_Bcast(root_host, sizeof root_host, MPI_CHAR, 0, MPI_COMM_WORLD);
    int need = std::strcmp(host, root_host) != 0;
    std::vector<int> needs(static_cast<std::size_t>(size_));
    MPI_Gather(&need, 1, MPI_INT, needs.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
    for (int peer = 1; peer < size_; ++peer) {
      if (rank_ == 0 && !needs[static_cast<std::size_t>(peer)]) continue;
      if (rank_ == peer && !need) continue;
      if (rank_ == 0) {
        for (int i = 0; i < kPings; ++i) {
          double dummy;
          MPI_Recv(&dummy, 1, MPI_DOUBLE, peer, 77, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
          double t = wtime_us();
          MPI_Send(&t, 1, MPI_DOUBLE, peer, 78, MPI_COMM_WORLD);
        }
      } else if (rank_ == peer) {
        double best_rtt = 1e300;
        for (int i = 0; i < kPings; ++i) {
          double t0 = wtime_us(), t_root = 0;
          MPI_Send(&t0, 1, MPI_DOUBLE, 0, 77, MPI_COMM_WORLD);
          MPI_Recv(&t_root, 1, MPI_DOUBLE, 0, 78, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
          double t1 = wtime_us();
          if (t1 - t0 < best_rtt) {
            best_rtt = t1 - t0;
            offset = (t0 + t1) / 2 - t_root;
          }
        }
      }
    }
    return offset;
  }
  std::string launcher() const override { return "mpi"; }

 private:
  double reduce(double v, MPI_Op op) {
    double out = 0;
    MPI_Allreduce(&v, &out, 1, MPI_DOUBLE, op, MPI_COMM_WORLD);
    return out;
  }
  int rank_ = 0, size_ = 1;
};

MPI_Datatype mpi_type(DataType t) {
  switch (t) {
    case DataType::int8: return MPI_INT8_T;
    case DataType::uint8: return MPI_UINT8_T;
    case DataType::int32: return MPI_INT32_T;
    case DataType::uint32: return MPI_UINT32_T;
    case DataType::int64: return MPI_INT64_T;
    case DataType::uint64: return MPI_UINT64_T;
    case DataType::float32: return MPI_FLOAT;
    case DataType::float64: return MPI_DOUBLE;
    default: return MPI_DATATYPE_NULL;
  }
}
MPI_Op mpi_op(RedOp o) {
  switch (o) {
    case RedOp::sum: return MPI_SUM;
    case RedOp::prod: return MPI_PROD;
    case RedOp::max: return MPI_MAX;
    case RedOp::min: return MPI_MIN;
    default: return MPI_OP_NULL;
  }
}

class MpiEngine final : public Engine {
 public:
  MpiEngine() {
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
    char v[MPI_MAX_LIBRARY_VERSION_STRING] = {0};
    int len = 0;
    MPI_Get_library_version(v, &len);
    lib_.assign(v, static_cast<std::size_t>(len));
    if (auto nl = lib_.find_first_of("\n,"); nl != std::string::npos) lib_.resize(nl);
  }
  std::string name() const override { return "mpi"; }
  std::string library() const override { return lib_; }
  int nranks() const override { return size_; }
  int local_count() const override { return 1; }
  int first_rank() const override { return rank_; }
  std::vector<Device> devices() const override { return {Device{-1, "cpu", "host memory"}}; }
  std::string unsupported(DataType t, RedOp o) const override {
    if (mpi_type(t) == MPI_DATATYPE_NULL)
      return "type " + std::string(name_of(t)) + " has no MPI datatype (use float, double or an integer type)";
    if (mpi_op(o) == MPI_OP_NULL) return "op " + std::string(name_of(o)) + " has no MPI equivalent (use sum, prod, max, min)";
    return {};
  }
  Status setup(std::size_t send_bytes, std::size_t recv_bytes) override {
    try {
      if (send_.size() < send_bytes) send_.assign(send_bytes, 0);
      if (recv_.size() < recv_bytes) recv_.assign(recv_bytes, 0);
    } catch (const std::bad_alloc&) {
      return Status(core::Exit::failures, "cannot allocate " + std::to_string(send_bytes + recv_bytes) + " bytes of buffers");
    }
    return Status::ok();
  }
  Status write(int, bool recv_buffer, std::size_t off, const void* host, std::size_t n) override {
    auto& b = recv_buffer ? recv_ : send_;
    if (off + n > b.size()) return Status::internal("buffer write out of range");
    if (n) std::memcpy(b.data() + off, host, n);
    return Status::ok();
  }
  Status read_output(int, const CallArgs& a, bool in_place, void* host, std::size_t n) override {
    // MPI leaves every output at the start of the receive buffer (reduce_scatter's MPI_IN_PLACE
    // included), except an out-of-place broadcast, whose root keeps its data in the send buffer.
    const auto& b = (!in_place && a.coll == Collective::broadcast && rank_ == a.root) ? send_ : recv_;
    if (n > b.size()) return Status::internal("buffer read out of range");
    if (n) std::memcpy(host, b.data(), n);
    return Status::ok();
  }
  Status start(const CallArgs& a, bool in_place) override {
    MPI_Datatype t = mpi_type(a.type);
    MPI_Op op = mpi_op(a.op);
    const auto& k = a.counts;
    const int pc = static_cast<int>(k.param);
    void* s = send_.data();
    void* r = recv_.data();
    const std::size_t elt = size_of(a.type);
    int rc = MPI_SUCCESS;
    switch (a.coll) {
      case Collective::allreduce:
        rc = MPI_Allreduce(in_place ? MPI_IN_PLACE : s, r, pc, t, op, MPI_COMM_WORLD);
        break;
      case Collective::allgather:
        rc = MPI_Allgather(in_place ? MPI_IN_PLACE : s, pc, t, r, pc, t, MPI_COMM_WORLD);
        break;
      case Collective::reducescatter:
        rc = MPI_Reduce_scatter_block(in_place ? MPI_IN_PLACE : s, r, pc, t, op, MPI_COMM_WORLD);
        break;
      case Collective::broadcast:
        rc = MPI_Bcast(!in_place && rank_ == a.root ? s : r, pc, t, a.root, MPI_COMM_WORLD);
        break;
      case Collective::reduce:
        if (in_place)
          rc = MPI_Reduce(rank_ == a.root ? MPI_IN_PLACE : r, r, pc, t, op, a.root, MPI_COMM_WORLD);
        else
          rc = MPI_Reduce(s, r, pc, t, op, a.root, MPI_COMM_WORLD);
        break;
      case Collective::alltoall:
        rc = MPI_Alltoall(in_place ? MPI_IN_PLACE : s, pc, t, r, pc, t, MPI_COMM_WORLD);
        break;
      case Collective::sendrecv: {
        int to = (rank_ + 1) % size_, from = (rank_ - 1 + size_) % size_;
        if (in_place)
          rc = MPI_Sendrecv_replace(r, pc, t, to, 5, from, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        else
          rc = MPI_Sendrecv(s, pc, t, to, 5, r, pc, t, from, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        break;
      }
    }
    (void)elt;
    if (rc != MPI_SUCCESS) {
      char msg[MPI_MAX_ERROR_STRING] = {0};
      int len = 0;
      MPI_Error_string(rc, msg, &len);
      return Status(core::Exit::failures, std::string("MPI ") + std::string(name_of(a.coll)) + " failed: " + msg);
    }
    return Status::ok();
  }
  Status complete() override { return Status::ok(); }
  bool synchronous() const override { return true; }

 private:
  int rank_ = 0, size_ = 1;
  std::string lib_;
  std::vector<unsigned char> send_, recv_;
};

}  // namespace

bool mpi_built() { return true; }

core::Result<std::unique_ptr<Harness>> mpi_harness() {
  if (!ensure_mpi()) return Status(core::Exit::failures, "MPI_Init failed");
  return std::unique_ptr<Harness>(std::make_unique<MpiHarness>());
}

core::Result<std::unique_ptr<Engine>> mpi_engine() {
  if (!ensure_mpi()) return Status(core::Exit::failures, "MPI_Init failed");
  return std::unique_ptr<Engine>(std::make_unique<MpiEngine>());
}

#endif

}  // namespace ncdx::measure
