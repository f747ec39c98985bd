#include "analyze/env/recommend.h"

#include "core/strings.h"

namespace ncdx::analyze {
namespace {

bool older(const std::optional<Version>& v, const char* than) { return v && *v < core::V(than); }

// Flight Recorder: current PyTorch defaults are on, older ones off (pytorch/pytorch ProcessGroupNCCL.hpp). The
// TORCH_NCCL_* spellings are read by every release with Flight Recorder (current ones read them as
// aliases of TORCH_FR_*; the release of that rename is not pinned by our sources).
void flight_recorder(std::vector<EnvRec>& out, const std::optional<Version>& torch) {
  if (older(torch, "2.2.0")) {
    out.push_back({"", "", "PyTorch < 2.2 has no TORCH_NCCL_* settings; upgrade for Flight Recorder dumps",
                   "pytorch/pytorch torch/csrc/distributed/c10d/Utils.hpp (TORCH_ prefix since 2.2, PR #114077)"});
    return;
  }
  out.push_back({"TORCH_NCCL_TRACE_BUFFER_SIZE", "2000",
                 "keep a Flight Recorder ring buffer for hang forensics (older PyTorch defaults to 0 = off)",
                 "pytorch/pytorch torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp, FlightRecorder.hpp"});
  out.push_back({"TORCH_NCCL_DUMP_ON_TIMEOUT", "1", "write one Flight Recorder dump per rank when the watchdog fires",
                 "pytorch/pytorch torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp/.cpp"});
}

}  // namespace

std::string scale_tier(int total) {
  if (total <= 8) return "1-8 GPUs";
  if (total <= 30) return "9-30 GPUs";
  return "31+ GPUs";
}

namespace {
bool is_intra(const std::string& f) { return f == "nvswitch" || f == "nvlink" || f == "pcie"; }
}  // namespace

std::optional<std::string> intra_fabric_of(const probe::TopoMatrix& m) {
  const std::size_t n = m.gpus.size();
  if (n == 0) return std::nullopt;
  if (n == 1) return std::string("pcie");  // nothing to connect; PCIe to the host
  std::size_t nv = 0, known = 0, pairs = 0;
  for (std::size_t a = 0; a < n; ++a)
    for (std::size_t b = a + 1; b < n; ++b) {
      ++pairs;
      const auto& l = m.gpu_gpu(a, b);
      known += l.known();
      nv += l.is_nvlink();
    }
  if (known == 0) return std::nullopt;
  // Eight or more GPUs with NVLink between every pair need NVSwitch (HGX/DGX boards).
  if (nv == pairs && n >= 8) return std::string("nvswitch");
  if (nv > 0) return std::string("nvlink");
  return known == pairs ? std::optional<std::string>("pcie") : std::nullopt;
}

ClusterShape shape_of(const RecommendInput& in) {
  ClusterShape s;
  s.nodes = in.nodes;
  s.gpus_per_node = in.gpus_per_node;
  const auto& f = in.fabric;
  if (is_intra(f)) s.intra = f;
  else if (in.nodes > 1) s.inter = f;
  if (in.intra) s.intra = in.intra;
  return s;
}

core::Result<std::vector<EnvRec>> recommend_env(const RecommendInput& in) {
  bool known = false;
  for (const auto& f : fabrics()) known |= f == in.fabric;
  if (!known) return core::Status::usage("--fabric must be one of " + core::join(fabrics(), "|") + ", got '" + in.fabric + "'");
  if (in.nodes < 1 || in.gpus_per_node < 1) return core::Status::usage("--nodes and --gpus-per-node must be >= 1");
  const int total = in.nodes * in.gpus_per_node;
  const bool multi = in.nodes > 1;
  std::vector<EnvRec> out;
  out.push_back({"NCCL_DEBUG", "WARN",
                 "print NCCL's WARN lines (the text PyTorch shows after 'Last error') without INFO volume",
                 "NVIDIA/nccl src/debug.cc (WARN lines, ncclGetLastError)"});
  flight_recorder(out, in.torch);

  const std::string& f = in.fabric;
  const std::string intra = in.intra ? *in.intra : is_intra(f) ? f : "";
  if (intra == "nvswitch") {
    out.push_back({"", "", "leave NCCL_NVLS_ENABLE (auto since 2.18.1) and NCCL_CUMEM_ENABLE at their defaults: NVLS needs cuMem",
                   "NVIDIA/nccl src/transport/nvls.cc (default 2 since v2.18.1-1)"});
  } else if (intra == "nvlink") {
    out.push_back({"", "", "do not set NCCL_P2P_DISABLE: it turns NVLink off (P2P level LOC)", "NVIDIA/nccl src/graph/paths.cc"});
  } else if (intra == "pcie") {
    out.push_back({"", "", "only if the GPUs lack peer access (p2pBandwidthLatencyTest fails): NCCL_P2P_DISABLE=1",
                   "corpus skyrl-pr-108, pytorch-1637"});
  }
  if (multi && (f == "ib" || f == "roce")) {
    out.push_back({"", "", "if some HCAs are not on the compute fabric, list the good ones: NCCL_IB_HCA=mlx5_0,mlx5_1,...",
                   "nccl_env_vars.tsv NCCL_IB_HCA"});
    if (f == "roce") {
      if (older(in.nccl, "2.21.5"))
        out.push_back({"NCCL_IB_GID_INDEX", "3",
                       "RoCE v2 GID of the routable IPv4 address is usually index 3 (check show_gids); NCCL < 2.21.5 "
                       "defaults to 0",
                       "NVIDIA/nccl v2.21.5-1 (GID index default -1); corpus pytorch-81628, nccl-769"});
      else
        out.push_back({"", "", "leave NCCL_IB_GID_INDEX unset: NCCL >= 2.21.5 picks the RoCE GID itself",
                       "NVIDIA/nccl v2.21.5-1 (GID index default -1); corpus nccl-769"});
    }
    if (total > 30 && older(in.nccl, "2.23.4"))
      out.push_back({"NCCL_IB_TIMEOUT", "20", "NCCL's own default from 2.23.4 on (18 before): a longer IB queue-pair timeout before retries",
                     "NVIDIA/nccl v2.23.4-1 (NCCL_IB_TIMEOUT default 20)"});
  }
  if (multi && f == "efa")
    out.push_back({"", "", "EFA needs the aws-ofi-nccl net plugin; NCCL_DEBUG=INFO must show 'Using network AWS Libfabric'",
                   "NCCL INFO line 'Using network %s'"});
  if (multi && f == "socket") {
    out.push_back({"", "", "set NCCL_SOCKET_IFNAME to the routable inter-node interface by name (e.g. =bond0), not an exclusion list",
                   "corpus nccl-697, marin-7018, open-r1-multimodal-7"});
    if (total > 8 && !older(in.nccl, "2.4.8")) {
      out.push_back({"NCCL_SOCKET_NTHREADS", "4",
                     "generic NICs get 0 helper threads by default; threads x sockets carry the socket transport",
                     "NVIDIA/nccl src/transport/net_socket.cc"});
      out.push_back({"NCCL_NSOCKS_PERTHREAD", "4", "4 x 4 = 16 sockets per peer, within NCCL's limit of 64",
                     "NVIDIA/nccl src/transport/net_socket.cc"});
    }
  }
  if (total > 30 && !older(in.nccl, "2.24.3"))
    out.push_back({"", "", "on a hang, query the job with ncclras (NCCL_RAS_ENABLE is on by default from 2.24.3)",
                   "nccl_env_vars.tsv NCCL_RAS_ENABLE"});
  return out;
}

core::Result<std::vector<EnvRec>> debug_env(const DebugInput& in) {
  std::vector<EnvRec> out;
  out.push_back({"NCCL_DEBUG", "INFO", "init, topology, transport and ENV lines from every rank", "NVIDIA/nccl src/debug.cc"});
  std::vector<std::string> subsys = in.subsys;
  if (subsys.empty()) {
    // NCCL's own default set for the version (NVIDIA/nccl src/debug.cc), plus NET for transport errors.
    if (older(in.nccl, "2.16.5")) subsys = {"INIT", "ENV", "NET"};
    else if (older(in.nccl, "2.23.4")) subsys = {"INIT", "ENV", "NET"};
    else subsys = {"INIT", "BOOTSTRAP", "ENV", "NET"};
  }
  std::string joined = core::join(subsys, ",");
  // Refuse subsystem names this NCCL would silently skip.
  EnvLintInput probe;
  probe.env["NCCL_DEBUG_SUBSYS"] = joined;
  probe.nccl = in.nccl;
  probe.production = false;
  for (const auto& r : lint_env(probe))
    if (r.status != core::Outcome::pass) return core::Status::usage("--subsys: " + r.risk + " (" + r.why + ")");
  out.push_back({"NCCL_DEBUG_SUBSYS", joined, "subsystems to log; add GRAPH,TUNING to see ring/tree choices",
                 "nccl_env_vars.tsv NCCL_DEBUG_SUBSYS"});
  out.push_back({"NCCL_DEBUG_FILE", in.log_dir + "/nccl.%h.%p.log", "one file per process (%h host, %p pid)",
                 "nccl_env_vars.tsv NCCL_DEBUG_FILE"});
  if (!older(in.nccl, "2.26.2") && in.nccl)
    out.push_back({"NCCL_DEBUG_TIMESTAMP_LEVELS", "WARN,INFO", "timestamp INFO lines too (default: WARN only)",
                   "NVIDIA/nccl src/debug.cc (2.26+)"});
  out.push_back({"TORCH_DISTRIBUTED_DEBUG", "DETAIL", "collective checks, desync debug and dump-on-timeout",
                 "pytorch/pytorch torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp/.cpp"});
  if (older(in.torch, "2.2.0")) {
    out.push_back({"", "", "PyTorch < 2.2: Flight Recorder settings are not available", "pytorch/pytorch torch/csrc/distributed/c10d/Utils.hpp (TORCH_ prefix since 2.2, PR #114077)"});
    return out;
  }
  out.push_back({"TORCH_NCCL_TRACE_BUFFER_SIZE", "2000", "Flight Recorder ring buffer (0 = off in older PyTorch)",
                 "pytorch/pytorch torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp, FlightRecorder.hpp"});
  out.push_back({"TORCH_NCCL_DUMP_ON_TIMEOUT", "1", "dump the buffer on a watchdog timeout", "pytorch/pytorch torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp/.cpp"});
  out.push_back({"TORCH_NCCL_DEBUG_INFO_TEMP_FILE", in.log_dir + "/nccl_trace_rank_",
                 "dump prefix; each rank writes <prefix><rank> (TORCH_FR_DUMP_TEMP_FILE in current PyTorch reads the same)",
                 "pytorch/pytorch torch/csrc/distributed/c10d/FlightRecorder.hpp"});
  out.push_back({"TORCH_NCCL_ENABLE_TIMING", "1", "per-collective durations (duration_ms) in the dump",
                 "pytorch/pytorch torch/csrc/distributed/c10d/FlightRecorder.hpp"});
  return out;
}

}  // namespace ncdx::analyze
