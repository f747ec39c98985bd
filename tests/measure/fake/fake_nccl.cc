// A stand-in libnccl.so.2 (host memory, see fake_cudart.cc) for machines without a GPU: enough
// of the API for ncdx's NCCL code paths (measure/nccl_bench.cc, measure/collective/nccl_engine.cc).
// Communicators from ncclCommInitAll live in one process; calls between ncclGroupStart and
// ncclGroupEnd are queued and executed together at GroupEnd with NCCL's semantics (all-reduce,
// all-gather, reduce-scatter, broadcast, reduce, send/recv pairs), so a data check through the
// real dlopen path can pass or fail. Element types: int8, uint8, int32, uint32, int64, uint64,
// float, double; ops sum, prod, max, min. Its timings mean nothing, and it ignores NCCL_ALGO and
// the other tuning variables: every configuration `ncdx tune --backend nccl` forces measures
// the same here. With FAKE_NCCL_ENV_LOG=FILE each communicator creation appends the tuning
// variables it was started with to FILE, and whether NCCL_TUNER_PLUGIN dlopens with a
// ncclTunerPlugin_v4 symbol, so the tune tests can check that each trial's env reached it.
#include <dlfcn.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

struct Comm {
  int rank, nranks;
};
enum Kind { kAllReduce, kAllGather, kReduceScatter, kBroadcast, kReduce, kSend, kRecv };
struct Op {
  Kind kind;
  const void* s;
  void* r;
  size_t count;
  int type, op, root, peer;
  Comm* c;
};
std::vector<Op> pending;
int depth = 0;

size_t elt(int t) {
  switch (t) {
    case 0: case 1: return 1;
    case 2: case 3: case 7: return 4;
    case 4: case 5: case 8: return 8;
    default: return 0;
  }
}

template <class T>
void reduce_into(T* acc, const T* x, size_t n, int op) {
  for (size_t i = 0; i < n; ++i) {
    switch (op) {
      case 0: acc[i] = static_cast<T>(acc[i] + x[i]); break;
      case 1: acc[i] = static_cast<T>(acc[i] * x[i]); break;
      case 2: acc[i] = acc[i] > x[i] ? acc[i] : x[i]; break;
      case 3: acc[i] = acc[i] < x[i] ? acc[i] : x[i]; break;
    }
  }
}
void reduce_any(void* acc, const void* x, size_t n, int type, int op) {
  switch (type) {
    case 0: reduce_into(static_cast<int8_t*>(acc), static_cast<const int8_t*>(x), n, op); break;
    case 1: reduce_into(static_cast<uint8_t*>(acc), static_cast<const uint8_t*>(x), n, op); break;
    case 2: reduce_into(static_cast<int32_t*>(acc), static_cast<const int32_t*>(x), n, op); break;
    case 3: reduce_into(static_cast<uint32_t*>(acc), static_cast<const uint32_t*>(x), n, op); break;
    case 4: reduce_into(static_cast<int64_t*>(acc), static_cast<const int64_t*>(x), n, op); break;
    case 5: reduce_into(static_cast<uint64_t*>(acc), static_cast<const uint64_t*>(x), n, op); break;
    case 7: reduce_into(static_cast<float*>(acc), static_cast<const float*>(x), n, op); break;
    case 8: reduce_into(static_cast<double*>(acc), static_cast<const double*>(x), n, op); break;
  }
}

// Executes the queued calls: collectives match by kind across ranks (one per rank per group).
int execute() {
  std::vector<Op> ops;
  ops.swap(pending);
  // Snapshot every input first: in-place calls overwrite buffers other ranks still read.
  std::vector<std::vector<unsigned char>> in(ops.size());
  for (size_t i = 0; i < ops.size(); ++i) {
    const Op& o = ops[i];
    size_t n = o.count * elt(o.type);
    if (o.kind == kReduceScatter) n *= static_cast<size_t>(o.c->nranks);
    if (o.kind == kRecv || (o.kind == kBroadcast && o.c->rank != o.root)) n = 0;
    if (n) in[i].assign(static_cast<const unsigned char*>(o.s), static_cast<const unsigned char*>(o.s) + n);
  }
  for (size_t i = 0; i < ops.size(); ++i) {
    const Op& o = ops[i];
    const size_t e = elt(o.type), bytes = o.count * e;
    auto peers = [&](Kind k) {
      std::vector<size_t> idx;
      for (size_t j = 0; j < ops.size(); ++j)
        if (ops[j].kind == k) idx.push_back(j);
      return idx;
    };
    switch (o.kind) {
      case kAllReduce:
      case kReduce: {
        if (o.kind == kReduce && o.c->rank != o.root) break;
        auto p = peers(o.kind);
        std::vector<unsigned char> acc = in[p[0]];
        for (size_t k = 1; k < p.size(); ++k) reduce_any(acc.data(), in[p[k]].data(), o.count, o.type, o.op);
        std::memcpy(o.r, acc.data(), bytes);
        break;
      }
      case kAllGather:
        for (size_t j : peers(kAllGather))
          std::memcpy(static_cast<unsigned char*>(o.r) + static_cast<size_t>(ops[j].c->rank) * bytes, in[j].data(), bytes);
        break;
      case kReduceScatter: {
        auto p = peers(kReduceScatter);
        const size_t off = static_cast<size_t>(o.c->rank) * bytes;
        std::vector<unsigned char> acc(in[p[0]].begin() + static_cast<long>(off), in[p[0]].begin() + static_cast<long>(off + bytes));
        for (size_t k = 1; k < p.size(); ++k) reduce_any(acc.data(), in[p[k]].data() + off, o.count, o.type, o.op);
        std::memcpy(o.r, acc.data(), bytes);
        break;
      }
      case kBroadcast:
        for (size_t j : peers(kBroadcast))
          if (ops[j].c->rank == o.root) std::memcpy(o.r, in[j].data(), bytes);
        break;
      case kRecv:
        for (size_t j = 0; j < ops.size(); ++j)
          if (ops[j].kind == kSend && ops[j].c->rank == o.peer && ops[j].peer == o.c->rank && ops[j].count == o.count) {
            std::memcpy(o.r, in[j].data(), bytes);
            ops[j].peer = -1;  // matched once
            break;
          }
        break;
      case kSend: break;
    }
  }
  return 0;
}

int enqueue(const Op& o) {
  if (elt(o.type) == 0 || o.op < 0 || o.op > 3) return 4;  // ncclInvalidArgument
  pending.push_back(o);
  return depth == 0 ? execute() : 0;
}

// One line per communicator set: NAME=VALUE for each tuning variable that is set, then plugin=
// loaded|unloadable|none.
void log_env() {
  const char* path = std::getenv("FAKE_NCCL_ENV_LOG");
  if (!path) return;
  FILE* f = std::fopen(path, "a");
  if (!f) return;
  for (const char* k : {"NCCL_ALGO", "NCCL_PROTO", "NCCL_MIN_NCHANNELS", "NCCL_MAX_NCHANNELS", "NCCL_TUNER_PLUGIN", "NCDX_TUNER_FILE"})
    if (const char* v = std::getenv(k)) std::fprintf(f, "%s=%s ", k, v);
  const char* so = std::getenv("NCCL_TUNER_PLUGIN");
  const char* state = "none";
  if (so) {
    void* h = dlopen(so, RTLD_NOW | RTLD_LOCAL);
    state = h && dlsym(h, "ncclTunerPlugin_v4") ? "loaded" : "unloadable";
    if (h) dlclose(h);
  }
  std::fprintf(f, "plugin=%s\n", state);
  std::fclose(f);
}

}  // namespace

extern "C" {
int ncclGetVersion(int* v) { return *v = 23007, 0; }
int ncclCommInitAll(void** comms, int n, const int*) {
  log_env();
  for (int i = 0; i < n; ++i) comms[i] = new Comm{i, n};
  return 0;
}
struct UniqueId {
  char internal[128];
};
int ncclGetUniqueId(UniqueId* id) { return std::memset(id, 7, sizeof *id), 0; }
int ncclCommInitRank(void** comm, int n, UniqueId, int rank) {
  if (rank == 0) log_env();
  return *comm = new Comm{rank, n}, 0;
}
int ncclCommDestroy(void* c) { return delete static_cast<Comm*>(c), 0; }
int ncclGroupStart() { return ++depth, 0; }
int ncclGroupEnd() { return --depth == 0 ? execute() : 0; }
int ncclAllReduce(const void* s, void* r, size_t count, int type, int op, void* c, void*) {
  return enqueue({kAllReduce, s, r, count, type, op, 0, 0, static_cast<Comm*>(c)});
}
int ncclAllGather(const void* s, void* r, size_t count, int type, void* c, void*) {
  return enqueue({kAllGather, s, r, count, type, 0, 0, 0, static_cast<Comm*>(c)});
}
int ncclReduceScatter(const void* s, void* r, size_t count, int type, int op, void* c, void*) {
  return enqueue({kReduceScatter, s, r, count, type, op, 0, 0, static_cast<Comm*>(c)});
}
int ncclBroadcast(const void* s, void* r, size_t count, int type, int root, void* c, void*) {
  return enqueue({kBroadcast, s, r, count, type, 0, root, 0, static_cast<Comm*>(c)});
}
int ncclReduce(const void* s, void* r, size_t count, int type, int op, int root, void* c, void*) {
  return enqueue({kReduce, s, r, count, type, op, root, 0, static_cast<Comm*>(c)});
}
int ncclSend(const void* s, size_t count, int type, int peer, void* c, void*) {
  return enqueue({kSend, s, nullptr, count, type, 0, 0, peer, static_cast<Comm*>(c)});
}
int ncclRecv(void* r, size_t count, int type, int peer, void* c, void*) {
  return enqueue({kRecv, nullptr, r, count, type, 0, 0, peer, static_cast<Comm*>(c)});
}
const char* ncclGetErrorString(int) { return "fake"; }
}
