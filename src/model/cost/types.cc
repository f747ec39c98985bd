#include "model/cost/types.h"

#include <cctype>

#include "core/semver.h"

namespace ncdx::model::cost {
namespace {

std::string squash(std::string_view s) {  // lower case, no '_' '-' ' '
  std::string out;
  for (char c : s) {
    if (c == '_' || c == '-' || c == ' ') continue;
    out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  }
  return out;
}

constexpr std::array<std::string_view, kNumCollectives> kCollNames = {
    "broadcast", "reduce", "allgather", "reducescatter", "allreduce", "alltoall", "sendrecv"};
constexpr std::array<std::string_view, kNumCollectives> kNcclNames = {
    "Broadcast", "Reduce", "AllGather", "ReduceScatter", "AllReduce", "AllToAll", "SendRecv"};
// ncclAlgoStr / ncclProtoStr (src/enqueue.cc, src/init.cc @v2.27.7-1).
constexpr std::array<std::string_view, kNumAlgos> kAlgoNames = {
    "Tree", "Ring", "CollNetDirect", "CollNetChain", "NVLS", "NVLSTree", "PAT"};
constexpr std::array<std::string_view, kNumProtos> kProtoNames = {"LL", "LL128", "Simple"};

}  // namespace

std::string_view name(Collective c) { return kCollNames[static_cast<int>(c)]; }
std::string_view nccl_name(Collective c) { return kNcclNames[static_cast<int>(c)]; }
std::string_view name(Algo a) { return kAlgoNames[static_cast<int>(a)]; }
std::string_view name(Proto p) { return kProtoNames[static_cast<int>(p)]; }
std::string_view name(Family f) {
  switch (f) {
    case Family::V2_14_18: return "2.14-2.18";
    case Family::V2_19_27: return "2.19-2.27";
    case Family::V2_28_plus: return "2.28+";
  }
  return "?";
}

std::optional<Collective> parse_collective(std::string_view s) {
  std::string k = squash(s);
  if (k.size() > 4 && k.ends_with("perf")) k.resize(k.size() - 4);  // nccl-tests binary names
  for (int i = 0; i < kNumCollectives; ++i)
    if (k == kCollNames[i]) return static_cast<Collective>(i);
  if (k == "bcast") return Collective::Broadcast;
  if (k == "ag") return Collective::AllGather;
  if (k == "rs") return Collective::ReduceScatter;
  if (k == "ar") return Collective::AllReduce;
  if (k == "a2a") return Collective::AllToAll;
  return std::nullopt;
}

std::optional<Algo> parse_algo(std::string_view s) {
  std::string k = squash(s);
  for (int i = 0; i < kNumAlgos; ++i)
    if (k == squash(kAlgoNames[i])) return static_cast<Algo>(i);
  return std::nullopt;
}

std::optional<Proto> parse_proto(std::string_view s) {
  std::string k = squash(s);
  for (int i = 0; i < kNumProtos; ++i)
    if (k == squash(kProtoNames[i])) return static_cast<Proto>(i);
  return std::nullopt;
}

Family NcclVersion::family() const {
  if (major < 2 || (major == 2 && minor <= 18)) return Family::V2_14_18;
  if (major == 2 && minor <= 27) return Family::V2_19_27;
  return Family::V2_28_plus;
}

std::string NcclVersion::str() const {
  return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
}

std::optional<NcclVersion> NcclVersion::parse(std::string_view s) {
  auto v = core::Version::parse(core::canonical_nccl_version(s));
  if (!v || v->parts < 2 || v->major != 2) return std::nullopt;
  return NcclVersion{v->major, v->minor, v->patch};
}

}  // namespace ncdx::model::cost
