#include "vendor/nccl_api.h"

#include "vendor/dynlib.h"

namespace ncdx::vendor {

const NcclLoad& nccl() {
  static const NcclLoad load = [] {
    NcclLoad r;
    auto* lib = &keep_loaded(DynLib::open({"libnccl.so.2"}, {}, "NCDX_NCCL_LIB"));
    if (!lib->loaded()) {
      r.state = "absent";
      r.detail = "no NCCL (libnccl.so.2 not loadable: " + lib->error() + ")";
      return r;
    }
    r.library = lib->path();
    auto& a = r.api;
    a.GetVersion = lib->fn<decltype(a.GetVersion)>("ncclGetVersion");
    a.CommInitAll = lib->fn<decltype(a.CommInitAll)>("ncclCommInitAll");
    a.CommDestroy = lib->fn<decltype(a.CommDestroy)>("ncclCommDestroy");
    a.GroupStart = lib->fn<decltype(a.GroupStart)>("ncclGroupStart");
    a.GroupEnd = lib->fn<decltype(a.GroupEnd)>("ncclGroupEnd");
    a.AllReduce = lib->fn<decltype(a.AllReduce)>("ncclAllReduce");
    a.GetErrorString = lib->fn<decltype(a.GetErrorString)>("ncclGetErrorString");
    a.GetUniqueId = lib->fn<decltype(a.GetUniqueId)>("ncclGetUniqueId");
    a.CommInitRank = lib->fn<decltype(a.CommInitRank)>("ncclCommInitRank");
    a.AllGather = lib->fn<decltype(a.AllGather)>("ncclAllGather");
    a.ReduceScatter = lib->fn<decltype(a.ReduceScatter)>("ncclReduceScatter");
    a.Broadcast = lib->fn<decltype(a.Broadcast)>("ncclBroadcast");
    a.Reduce = lib->fn<decltype(a.Reduce)>("ncclReduce");
    a.Send = lib->fn<decltype(a.Send)>("ncclSend");
    a.Recv = lib->fn<decltype(a.Recv)>("ncclRecv");
    if (!lib->missing().empty()) {
      r.state = "symbol_missing";
      r.detail = r.library + " lacks " + lib->missing().front();
      return r;
    }
    r.state = "loaded";
    r.ok = true;
    return r;
  }();
  return load;
}

std::string nccl_error_text(const NcclLoad& n, ncclResult r) {
  std::string s = "NCCL error " + std::to_string(r);
  if (n.api.GetErrorString)
    if (const char* t = n.api.GetErrorString(r)) s += " (" + std::string(t) + ")";
  return s;
}

}  // namespace ncdx::vendor
