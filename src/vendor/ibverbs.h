#pragma once
// The ibverbs gateway (libibverbs.so.1, override NCDX_IBVERBS_LIB): the functions and types an RC
// queue pair needs for the cluster's RDMA matrix (measure/network/rdma_link.h). We declare the
// few types ourselves, laid out as rdma-core's <infiniband/verbs.h> lays them out on LP64
// (rdma-core 44, libibverbs/verbs.h; shared/reference/abi.md §7.2 for the symbol versions), and
// pin each with static_assert; tests/unit/vendor/ibverbs_layout_test.cc compares every offset
// we use with the real header when it is installed. Only the fields we touch are named; the
// rest is padding of the header's size.
//
// ibv_post_send, ibv_post_recv and ibv_poll_cq are static inline functions in verbs.h that call
// through the context's ops table (struct ibv_context_ops): dlsym cannot see them, so they are
// called here through the same slots, as the header's inlines (and NCCL's ibvwrap) do.
#include <cstddef>
#include <cstdint>
#include <string>

namespace ncdx::vendor::ibv {

struct Device;
struct Pd;
struct CompChannel;

struct ContextOps {  // struct ibv_context_ops: 32 function pointers
  void* slot[32];
};
inline constexpr int kOpsPollCq = 11, kOpsPostSend = 25, kOpsPostRecv = 26;

struct Context {  // struct ibv_context (328 bytes); we read device and ops only
  Device* device;
  ContextOps ops;
  unsigned char rest_[328 - 8 - 256];
};
static_assert(sizeof(Context) == 328 && offsetof(Context, ops) == 8);

struct Cq {  // struct ibv_cq (128 bytes)
  Context* context;
  unsigned char rest_[120];
};
static_assert(sizeof(Cq) == 128);

struct Qp {  // struct ibv_qp (160 bytes)
  Context* context;
  unsigned char head_[44];
  std::uint32_t qp_num;  // @52
  unsigned char rest_[104];
};
static_assert(sizeof(Qp) == 160 && offsetof(Qp, qp_num) == 52);

struct Mr {  // struct ibv_mr (48 bytes)
  Context* context;
  Pd* pd;
  void* addr;
  std::size_t length;
  std::uint32_t handle, lkey, rkey;
};
static_assert(sizeof(Mr) == 48 && offsetof(Mr, rkey) == 40);

union Gid {  // union ibv_gid; its 64-bit half makes every struct holding it 8-byte aligned
  std::uint8_t raw[16];
  struct {
    std::uint64_t subnet_prefix, interface_id;
  } global;
};
static_assert(sizeof(Gid) == 16 && alignof(Gid) == 8);

struct Sge {  // struct ibv_sge
  std::uint64_t addr;
  std::uint32_t length, lkey;
};
static_assert(sizeof(Sge) == 16);

struct SendWr {  // struct ibv_send_wr (128 bytes)
  std::uint64_t wr_id;
  SendWr* next;
  Sge* sg_list;
  int num_sge;
  int opcode;               // enum ibv_wr_opcode
  unsigned send_flags;
  std::uint32_t imm_data;   // union { imm_data; invalidate_rkey }
  std::uint64_t remote_addr;  // wr.rdma.remote_addr @40
  std::uint32_t rkey;         // wr.rdma.rkey @48
  unsigned char rest_[128 - 52];
};
static_assert(sizeof(SendWr) == 128 && offsetof(SendWr, remote_addr) == 40 && offsetof(SendWr, rkey) == 48);

struct RecvWr {  // struct ibv_recv_wr (32 bytes)
  std::uint64_t wr_id;
  RecvWr* next;
  Sge* sg_list;
  int num_sge;
};
static_assert(sizeof(RecvWr) == 32);

struct Wc {  // struct ibv_wc (48 bytes)
  std::uint64_t wr_id;
  int status;  // enum ibv_wc_status: 0 = success
  int opcode;  // enum ibv_wc_opcode
  std::uint32_t vendor_err, byte_len;
  unsigned char rest_[24];
};
static_assert(sizeof(Wc) == 48);

struct QpCap {  // struct ibv_qp_cap
  std::uint32_t max_send_wr, max_recv_wr, max_send_sge, max_recv_sge, max_inline_data;
};
static_assert(sizeof(QpCap) == 20);

struct QpInitAttr {  // struct ibv_qp_init_attr (64 bytes)
  void* qp_context;
  Cq* send_cq;
  Cq* recv_cq;
  void* srq;
  QpCap cap;      // @32
  int qp_type;    // @52: enum ibv_qp_type
  int sq_sig_all; // @56
};
static_assert(sizeof(QpInitAttr) == 64 && offsetof(QpInitAttr, qp_type) == 52);

struct GlobalRoute {  // struct ibv_global_route (24 bytes)
  Gid dgid;
  std::uint32_t flow_label;
  std::uint8_t sgid_index, hop_limit, traffic_class;
};
static_assert(sizeof(GlobalRoute) == 24);

struct AhAttr {  // struct ibv_ah_attr (32 bytes)
  GlobalRoute grh;
  std::uint16_t dlid;
  std::uint8_t sl, src_path_bits, static_rate, is_global, port_num;
};
static_assert(sizeof(AhAttr) == 32 && offsetof(AhAttr, port_num) == 30);

struct QpAttr {  // struct ibv_qp_attr (144 bytes)
  int qp_state;        // @0 enum ibv_qp_state
  int cur_qp_state;
  int path_mtu;        // @8 enum ibv_mtu
  int path_mig_state;
  std::uint32_t qkey, rq_psn, sq_psn, dest_qp_num;  // @16..28
  unsigned qp_access_flags;                          // @32
  QpCap cap;                                         // @36
  AhAttr ah_attr;                                    // @56
  AhAttr alt_ah_attr;                                // @88
  std::uint16_t pkey_index, alt_pkey_index;          // @120
  std::uint8_t en_sqd_async_notify, sq_draining, max_rd_atomic, max_dest_rd_atomic;  // @124
  std::uint8_t min_rnr_timer, port_num, timeout, retry_cnt, rnr_retry, alt_port_num, alt_timeout;  // @128
  std::uint32_t rate_limit;                          // @136
};
static_assert(sizeof(QpAttr) == 144 && offsetof(QpAttr, ah_attr) == 56 && offsetof(QpAttr, timeout) == 130 &&
              offsetof(QpAttr, rate_limit) == 136);

// The compat port attributes the exported ibv_query_port fills: 48 bytes (abi.md §7.2); sized
// to the newest 56 so a provider writing more never writes past it.
struct PortAttr {
  int state, max_mtu, active_mtu, gid_tbl_len;
  std::uint32_t port_cap_flags, max_msg_sz, bad_pkey_cntr, qkey_viol_cntr;
  std::uint16_t pkey_tbl_len, lid, sm_lid;  // @32, @34, @36
  std::uint8_t lmc, max_vl_num, sm_sl, subnet_timeout, init_type_reply, active_width, active_speed, phys_state,
      link_layer, flags;  // link_layer @46
  unsigned char rest_[8];
};
static_assert(sizeof(PortAttr) == 56 && offsetof(PortAttr, lid) == 34 && offsetof(PortAttr, link_layer) == 46);

// Enumerators of verbs.h we use.
inline constexpr int kQpsInit = 1, kQpsRtr = 2, kQpsRts = 3;
inline constexpr int kQptRc = 2;
inline constexpr int kWrRdmaWrite = 0, kWrSend = 2;
inline constexpr unsigned kSendSignaled = 2, kSendInline = 8;
inline constexpr int kAccessLocalWrite = 1, kAccessRemoteWrite = 2;
inline constexpr int kWcSuccess = 0;
inline constexpr int kPortActive = 4;
inline constexpr int kLinkLayerEthernet = 2;  // 0 unspecified and 1 InfiniBand are both IB
inline constexpr int kMtu256 = 1, kMtu4096 = 5;  // enum ibv_mtu: 256 << (n - 1) bytes
// enum ibv_port_flags in PortAttr::flags: every address vector of the port needs a GRH, even
// by LID in one subnet (rdma-core libibverbs/man/ibv_query_port.3:58 and ibv_modify_qp.3:177
// @v44.0; providers/mlx5/verbs.c:3181@v44.0 refuses an address handle without it, EINVAL).
inline constexpr unsigned kQpfGrhRequired = 1;
// enum ibv_qp_attr_mask
inline constexpr int kQpState = 1 << 0, kQpAccessFlags = 1 << 3, kQpPkeyIndex = 1 << 4, kQpPort = 1 << 5,
                     kQpAv = 1 << 7, kQpPathMtu = 1 << 8, kQpTimeout = 1 << 9, kQpRetryCnt = 1 << 10,
                     kQpRnrRetry = 1 << 11, kQpRqPsn = 1 << 12, kQpMaxQpRdAtomic = 1 << 13,
                     kQpMinRnrTimer = 1 << 15, kQpSqPsn = 1 << 16, kQpMaxDestRdAtomic = 1 << 17,
                     kQpDestQpn = 1 << 20;

// Every function resolved by dlsym, which returns the default version IBVERBS_1.1 of each.
struct Api {
  Device** (*get_device_list)(int*) = nullptr;
  void (*free_device_list)(Device**) = nullptr;
  const char* (*get_device_name)(Device*) = nullptr;
  Context* (*open_device)(Device*) = nullptr;
  int (*close_device)(Context*) = nullptr;
  int (*query_port)(Context*, std::uint8_t, PortAttr*) = nullptr;
  int (*query_gid)(Context*, std::uint8_t, int, Gid*) = nullptr;
  Pd* (*alloc_pd)(Context*) = nullptr;
  int (*dealloc_pd)(Pd*) = nullptr;
  Mr* (*reg_mr)(Pd*, void*, std::size_t, int) = nullptr;
  int (*dereg_mr)(Mr*) = nullptr;
  Cq* (*create_cq)(Context*, int, void*, CompChannel*, int) = nullptr;
  int (*destroy_cq)(Cq*) = nullptr;
  Qp* (*create_qp)(Pd*, QpInitAttr*) = nullptr;
  int (*modify_qp)(Qp*, QpAttr*, int) = nullptr;
  int (*destroy_qp)(Qp*) = nullptr;
  const char* (*wc_status_str)(int) = nullptr;
  int (*fork_init)() = nullptr;
};

struct Load {
  bool ok = false;
  std::string state = "absent";  // loaded, absent, symbol_missing
  std::string detail;            // why not, for anything but loaded
  std::string library;
  Api api;
};

// Loads once, keeps the library loaded for the life of the process.
const Load& verbs();

// The verbs.h inlines, through the context's ops table.
int post_send(Qp* qp, SendWr* wr, SendWr** bad);
int post_recv(Qp* qp, RecvWr* wr, RecvWr** bad);
int poll_cq(Cq* cq, int n, Wc* wc);

}  // namespace ncdx::vendor::ibv
