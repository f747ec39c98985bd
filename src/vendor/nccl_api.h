#pragma once
// The NCCL functions of the local all-reduce benchmark, resolved from libnccl.so.2 by dlopen
// (plain names, libnccl.so.2 has no symbol versioning; ncclCommInitAll is in NVIDIA/nccl
// src/nccl.h.in of every version >= 2.14). Loaded once and kept loaded.
#include <cstddef>
#include <string>

namespace ncdx::vendor {

using ncclResult = int;
using ncclCommPtr = void*;
inline constexpr int kNcclFloat32 = 7;  // ncclDataType_t
inline constexpr int kNcclSum = 0;      // ncclRedOp_t
// ncclUniqueId: 128 opaque bytes, passed by value (src/nccl.h.in).
struct NcclUniqueId {
  char internal[128];
};

struct NcclApi {
  ncclResult (*GetVersion)(int*) = nullptr;
  ncclResult (*CommInitAll)(ncclCommPtr*, int, const int*) = nullptr;
  ncclResult (*CommDestroy)(ncclCommPtr) = nullptr;
  ncclResult (*GroupStart)() = nullptr;
  ncclResult (*GroupEnd)() = nullptr;
  ncclResult (*AllReduce)(const void*, void*, std::size_t, int, int, ncclCommPtr, void*) = nullptr;
  const char* (*GetErrorString)(ncclResult) = nullptr;
  // The rest of the collectives `ncdx bench --backend nccl` measures, and multi-process init.
  // All exist from 2.14 on (src/nccl.h.in); alltoall is grouped Send/Recv, as nccl-tests does.
  ncclResult (*GetUniqueId)(NcclUniqueId*) = nullptr;
  ncclResult (*CommInitRank)(ncclCommPtr*, int, NcclUniqueId, int) = nullptr;
  ncclResult (*AllGather)(const void*, void*, std::size_t, int, ncclCommPtr, void*) = nullptr;
  ncclResult (*ReduceScatter)(const void*, void*, std::size_t, int, int, ncclCommPtr, void*) = nullptr;
  ncclResult (*Broadcast)(const void*, void*, std::size_t, int, int, ncclCommPtr, void*) = nullptr;
  ncclResult (*Reduce)(const void*, void*, std::size_t, int, int, int, ncclCommPtr, void*) = nullptr;
  ncclResult (*Send)(const void*, std::size_t, int, int, ncclCommPtr, void*) = nullptr;
  ncclResult (*Recv)(void*, std::size_t, int, int, ncclCommPtr, void*) = nullptr;
};

struct NcclLoad {
  bool ok = false;
  std::string state, detail, library;
  NcclApi api;
};

// NCDX_NCCL_LIB overrides the path; then libnccl.so.2.
const NcclLoad& nccl();
std::string nccl_error_text(const NcclLoad& n, ncclResult r);

}  // namespace ncdx::vendor
