#include "vendor/ibverbs.h"

#include "vendor/dynlib.h"

namespace ncdx::vendor::ibv {

const Load& verbs() {
  static const Load load = [] {
    Load r;
    // The versioned soname only: libibverbs.so is the -dev package's symlink (abi.md §0).
    auto* lib = &keep_loaded(DynLib::open({"libibverbs.so.1"}, {}, "NCDX_IBVERBS_LIB"));
    if (!lib->loaded()) {
      r.detail = "no libibverbs (libibverbs.so.1 not loadable: " + lib->error() + ")";
      return r;
    }
    r.library = lib->path();
    auto& a = r.api;
#define NCDX_IBV(field, name) a.field = lib->fn<decltype(a.field)>(name)
    NCDX_IBV(get_device_list, "ibv_get_device_list");
    NCDX_IBV(free_device_list, "ibv_free_device_list");
    NCDX_IBV(get_device_name, "ibv_get_device_name");
    NCDX_IBV(open_device, "ibv_open_device");
    NCDX_IBV(close_device, "ibv_close_device");
    NCDX_IBV(query_port, "ibv_query_port");
    NCDX_IBV(query_gid, "ibv_query_gid");
    NCDX_IBV(alloc_pd, "ibv_alloc_pd");
    NCDX_IBV(dealloc_pd, "ibv_dealloc_pd");
    NCDX_IBV(reg_mr, "ibv_reg_mr");
    NCDX_IBV(dereg_mr, "ibv_dereg_mr");
    NCDX_IBV(create_cq, "ibv_create_cq");
    NCDX_IBV(destroy_cq, "ibv_destroy_cq");
    NCDX_IBV(create_qp, "ibv_create_qp");
    NCDX_IBV(modify_qp, "ibv_modify_qp");
    NCDX_IBV(destroy_qp, "ibv_destroy_qp");
    NCDX_IBV(wc_status_str, "ibv_wc_status_str");
    NCDX_IBV(fork_init, "ibv_fork_init");
#undef NCDX_IBV
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

namespace {
template <class F>
F op(Context* ctx, int slot) {
  return reinterpret_cast<F>(ctx->ops.slot[slot]);
}
}  // namespace

int post_send(Qp* qp, SendWr* wr, SendWr** bad) {
  return op<int (*)(Qp*, SendWr*, SendWr**)>(qp->context, kOpsPostSend)(qp, wr, bad);
}

int post_recv(Qp* qp, RecvWr* wr, RecvWr** bad) {
  return op<int (*)(Qp*, RecvWr*, RecvWr**)>(qp->context, kOpsPostRecv)(qp, wr, bad);
}

int poll_cq(Cq* cq, int n, Wc* wc) { return op<int (*)(Cq*, int, Wc*)>(cq->context, kOpsPollCq)(cq, n, wc); }

}  // namespace ncdx::vendor::ibv
