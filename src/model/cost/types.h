#pragma once
// The vocabulary of NCCL's cost model: collectives, algorithms, protocols, version families.
// Index orders follow NCCL's own arrays so tables read from NCCL's source and from NCCL's
// TUNING log lines map one to one (NVIDIA/nccl src/include/device.h @v2.27.7-1:
// NCCL_ALGO_TREE=0 ... NCCL_ALGO_PAT=6; NCCL_PROTO_LL=0, LL128=1, SIMPLE=2;
// ncclFunc Broadcast=0, Reduce=1, AllGather=2, ReduceScatter=3, AllReduce=4).
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ncdx::model::cost {

// NCCL's five modelled functions first (same order as ncclFunc_t), then the two collectives
// that NCCL runs as point-to-point (modelled by bandwidth only).
enum class Collective : int { Broadcast = 0, Reduce, AllGather, ReduceScatter, AllReduce, AllToAll, SendRecv };
inline constexpr int kNumNcclFuncs = 5;
inline constexpr int kNumCollectives = 7;

enum class Algo : int { Tree = 0, Ring, CollNetDirect, CollNetChain, Nvls, NvlsTree, Pat };
inline constexpr int kNumAlgos = 7;

enum class Proto : int { LL = 0, LL128, Simple };
inline constexpr int kNumProtos = 3;

// The three model generations of issue #15. Tables and formulas differ between them (see
// src/knowledge/data/nccl_tuning.yaml for the per-family constants and their source tags).
enum class Family : int { V2_14_18 = 0, V2_19_27, V2_28_plus };

std::string_view name(Collective c);   // "allreduce" (nccl-tests/ncdx spelling, lower case)
std::string_view nccl_name(Collective c);  // "AllReduce" (ncclFuncStr)
std::string_view name(Algo a);         // "Ring", "NVLSTree" (ncclAlgoStr)
std::string_view name(Proto p);        // "LL", "LL128", "Simple" (ncclProtoStr)
std::string_view name(Family f);       // "2.14-2.18", "2.19-2.27", "2.28+"
std::optional<Collective> parse_collective(std::string_view s);  // "allreduce", "all_reduce", "AllReduce", "all_reduce_perf"
std::optional<Algo> parse_algo(std::string_view s);   // case-insensitive ncclAlgoStr
std::optional<Proto> parse_proto(std::string_view s);

// An NCCL release, e.g. {2, 27, 7}. family() maps it onto the model generation.
struct NcclVersion {
  int major = 2, minor = 27, patch = 7;
  Family family() const;
  int code() const { return major * 10000 + minor * 100 + patch; }  // NCCL_VERSION_CODE (>= 2.9)
  std::string str() const;
  static std::optional<NcclVersion> parse(std::string_view s);  // "2.27.7", "v2.18.6-1", "2.26.2+cuda12.4", "2.28"
};

}  // namespace ncdx::model::cost
