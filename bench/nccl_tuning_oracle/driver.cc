// Oracle for `ncdx model` validation (a): runs NCCL's own host-side tuning code
// (src/graph/tuning.cc: ncclTopoTuneModel, ncclTopoGetAlgoTime) on synthetic graph inputs and
// prints the tables and the per-size pick as JSON lines. Built by build.sh against an NCCL
// source tree outside this repository; nothing of NCCL is copied here. Only the symbols
// tuning.cc and param.cc need from the rest of NCCL are defined below (logging, the NVSwitch
// count, the CPU type before 2.24, the name tables, the env-plugin hooks from 2.28.7, 2.29's
// slowest-NIC query), each with the behaviour the tuning code relies on. Builds against every
// tag from v2.18.1-1 to v2.30.7-1; older releases pass the graphs to ncclTopoTuneModel
// differently and are not supported.
//
// Input: one case per line on stdin, whitespace-separated key=value items:
//   case=ID nodes=N ranks=R cc=90 cpu=intel|amd|arm nvs=1 channels=C sizes=8,16,...
//   g.<algo>=nChannels,bwIntra,bwInter,typeIntra,typeInter,pattern,sameChannels,latencyInter
//   collnet=0|1 h.<algo>=H
// with <algo> one of NCCL's algorithm indices 0..NCCL_NUM_ALGORITHMS-1 and path types by name
// (NVL, PXB, ...; resolved with NCCL's own PATH_* constants). Graphs not given have 0 channels.
// collnet=1: a CollNet (SHARP) plugin is loaded and NCCL_COLLNET_ENABLE=1, its collectives
// support float sum and it has iallgather/ireducescatter (net v8+). h.<algo>: the number of
// distinct head GPUs over the graph's channels (graph.intra[c*localRanks], local ranks 0..H-1;
// the search's output that init.cc and coll_net.cc turn into collNetHeadsNum).
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "comm.h"
#include "core.h"
#if __has_include("device.h")
#include "device.h"
#else
#include "devcomm.h"   // before 2.19
#endif
#include "graph.h"
#include "topo.h"

// ---- The NCCL symbols tuning.cc links against, defined for this oracle. ----
// Logging: tuning.cc prints its tables at INFO level; ORACLE_DEBUG=1 shows them on stderr.
int ncclDebugLevel = -1;
uint64_t ncclDebugMask = ~0ull;   // 2.28+: INFO tests it inline (debug.h)
thread_local int ncclDebugNoWarn = 0;
static void oracle_log(ncclDebugLogLevel level, const char* where, int line, const char* fmt, va_list ap) {
  static const bool on = std::getenv("ORACLE_DEBUG") != nullptr;
  if (!on && level != NCCL_LOG_WARN) return;
  std::fprintf(stderr, "[nccl %s:%d] ", where ? where : "", line);
  std::vfprintf(stderr, fmt, ap);
  std::fputc('\n', stderr);
}
void ncclDebugLog(ncclDebugLogLevel level, unsigned long, const char* filefunc, int line, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  oracle_log(level, filefunc, line, fmt, ap);
  va_end(ap);
}
#if NCCL_VERSION_CODE >= 23000
// 2.30 logs through ncclDebugLogInternal (debug.h).
void ncclDebugLogInternal(ncclDebugLogLevel level, unsigned long, const char*, const char* func, int line,
                          const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  oracle_log(level, func, line, fmt, ap);
  va_end(ap);
}
#endif
#if NCCL_VERSION_CODE > 22803
// From 2.28.7 param.cc's ncclGetEnv first initialises the environment plugins (init.cc
// ncclInitEnv) and asks them; there are none here, the process environment is read as is.
ncclResult_t ncclInitEnv() { return ncclSuccess; }
const char* ncclEnvPluginGetEnv(const char* name) { return std::getenv(name); }
#endif
#if NCCL_VERSION_CODE >= 22900
void ncclOsSetEnv(const char* name, const char* value) { setenv(name, value, 0); }
#endif
#if NCCL_VERSION_CODE >= 23000
extern "C" bool ncclParamIsCacheDisabled(const char*) { return false; }  // param.cc caches as usual
#endif
#if NCCL_VERSION_CODE >= 22900 && NCCL_VERSION_CODE < 23000
// 2.29 tuning.cc records the slowest NIC for later stages (not the tables); topo.cc reads the
// topology. No NIC object here: FLT_MAX as topo.cc returns without NET nodes.
ncclResult_t ncclTopoGetMinNetBw(struct ncclTopoSystem*, float* bw) {
  *bw = 3.402823466e38f;
  return ncclSuccess;
}
#endif
// The NVSwitch count of the case (topo.cc counts NVS nodes of the topology).
static int g_nvs_count = 0;
ncclResult_t ncclTopoGetNvsCount(struct ncclTopoSystem*, int* nvsCount) {
  *nvsCount = g_nvs_count;
  return ncclSuccess;
}
// The CPU of the case: before 2.22 tuning.cc asks the topology (ncclTopoCpuType, topo.cc),
// from 2.24 tuning.cc reads comm->cpuArch/cpuVendor (2.22+), set below.
static int g_cpu_arch = NCCL_TOPO_CPU_ARCH_X86, g_cpu_vendor = NCCL_TOPO_CPU_VENDOR_INTEL;
#if NCCL_VERSION_CODE < 22400
ncclResult_t ncclTopoCpuType(struct ncclTopoSystem*, int* arch, int* vendor, int* model) {
  *arch = g_cpu_arch;
  *vendor = g_cpu_vendor;
  *model = 0;
  return ncclSuccess;
}
#endif
// Names as NCCL prints them (used by tuning.cc's NCCL_ALGO/NCCL_PROTO parser and INFO lines).
const char* ncclFuncStr[NCCL_NUM_FUNCTIONS] = {"Broadcast", "Reduce", "AllGather", "ReduceScatter", "AllReduce"};
// Algorithms were added over time: NVLS in 2.17, NVLSTree in 2.18, PAT in 2.23.
const char* ncclAlgoStr[NCCL_NUM_ALGORITHMS] = {"Tree", "Ring", "CollNetDirect", "CollNetChain"
#if NCCL_NUM_ALGORITHMS > 4
                                                , "NVLS"
#endif
#if NCCL_NUM_ALGORITHMS > 5
                                                , "NVLSTree"
#endif
#if NCCL_NUM_ALGORITHMS > 6
                                                , "PAT"
#endif
};
const char* ncclProtoStr[NCCL_NUM_PROTOCOLS] = {"LL", "LL128", "Simple"};

namespace {

int path_type(const std::string& s) {
  static const std::map<std::string, int> m = {
      {"LOC", PATH_LOC}, {"NVL", PATH_NVL}, {"NVB", PATH_NVB},
#ifdef PATH_C2C
      {"C2C", PATH_C2C},
#endif
      {"PIX", PATH_PIX}, {"PXB", PATH_PXB},
#ifdef PATH_P2C
      {"P2C", PATH_P2C},
#endif
      {"PXN", PATH_PXN}, {"PHB", PATH_PHB}, {"SYS", PATH_SYS},
#ifdef PATH_NET
      {"NET", PATH_NET},
#endif
      {"DIS", PATH_DIS}};
  auto it = m.find(s);
  if (it == m.end()) {
    std::fprintf(stderr, "driver: unknown path type %s\n", s.c_str());
    std::exit(65);
  }
  return it->second;
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, sep)) out.push_back(item);
  return out;
}

struct Case {
  std::string id;
  int nodes = 1, ranks = 1, cc = 90, nvs = 0, channels = 1, collnet = 0;
  int heads[NCCL_NUM_ALGORITHMS] = {};
  std::string cpu = "intel";
  std::vector<size_t> sizes;
  struct ncclTopoGraph graphs[NCCL_NUM_ALGORITHMS];
};

bool parse(const std::string& line, Case& c) {
  std::memset(c.graphs, 0, sizeof(c.graphs));
  std::stringstream ss(line);
  std::string item;
  bool any = false;
  while (ss >> item) {
    auto eq = item.find('=');
    if (eq == std::string::npos) continue;
    std::string k = item.substr(0, eq), v = item.substr(eq + 1);
    any = true;
    if (k == "case") c.id = v;
    else if (k == "nodes") c.nodes = std::atoi(v.c_str());
    else if (k == "ranks") c.ranks = std::atoi(v.c_str());
    else if (k == "cc") c.cc = std::atoi(v.c_str());
    else if (k == "nvs") c.nvs = std::atoi(v.c_str());
    else if (k == "channels") c.channels = std::atoi(v.c_str());
    else if (k == "cpu") c.cpu = v;
    else if (k == "collnet") c.collnet = std::atoi(v.c_str());
    else if (k.rfind("h.", 0) == 0) {
      int a = std::atoi(k.c_str() + 2);
      if (a >= 0 && a < NCCL_NUM_ALGORITHMS) c.heads[a] = std::atoi(v.c_str());
    }
    else if (k == "sizes") { for (auto& s : split(v, ',')) c.sizes.push_back(std::strtoull(s.c_str(), nullptr, 10)); }
    else if (k.rfind("g.", 0) == 0) {
      int a = std::atoi(k.c_str() + 2);
      auto f = split(v, ',');
      if (a >= NCCL_NUM_ALGORITHMS) continue;  // PAT (6) exists from 2.23; older releases have 6 algorithms
      if (a < 0 || f.size() != 8) { std::fprintf(stderr, "driver: bad graph %s\n", item.c_str()); std::exit(65); }
      auto& g = c.graphs[a];
      g.nChannels = std::atoi(f[0].c_str());
      g.bwIntra = std::atof(f[1].c_str());
      g.bwInter = std::atof(f[2].c_str());
      g.typeIntra = path_type(f[3]);
      g.typeInter = path_type(f[4]);
      g.pattern = std::atoi(f[5].c_str());
      g.sameChannels = std::atoi(f[6].c_str());
      g.latencyInter = std::atof(f[7].c_str());
    }
  }
  return any;
}

// ncclTopoGetAlgoTime as each release declares it (tuning.cc): on an ncclInfo until 2.21, with
// a Ring "backup" flag from 2.19 to 2.23, on (comm, coll, bytes) from 2.22.
ncclResult_t algo_time(struct ncclComm* comm, int coll, int a, int p, size_t bytes, float* t, bool* backup) {
#if NCCL_VERSION_CODE < 22200
  struct ncclInfo info;
  std::memset(&info, 0, sizeof(info));
  info.comm = comm;
  info.coll = static_cast<ncclFunc_t>(coll);
  info.nBytes = bytes;
#if NCCL_VERSION_CODE < 21900
  *backup = false;
  return ncclTopoGetAlgoTime(&info, a, p, 1, t);
#else
  return ncclTopoGetAlgoTime(&info, a, p, 1, t, backup);
#endif
#elif NCCL_VERSION_CODE < 22400
  return ncclTopoGetAlgoTime(comm, coll, a, p, bytes, 1, t, backup);
#else
  *backup = false;
  return ncclTopoGetAlgoTime(comm, coll, a, p, bytes, 1, t);
#endif
}

// The algorithms the cost loop of enqueue.cc leaves out for a float sum (collNetSupport: the
// plugin's support of float sum, assumed, and CollNet enabled; nvlsSupport: an NVLS graph and
// float sum, which NVLS supports):
//   CollNet* without collNetSupport           (v2.18.6-1 :1166, v2.27.7-1 :1765)
//   CollNetDirect beyond 8 local ranks, 2.23+ (v2.23.4-1 :1793, NCCL_MAX_DIRECT_ARITY+1)
//   CollNetChain beyond 8 local ranks, 2.28+  (v2.28.3-1 updateCollCostTable, v2.28.9-1 :1801)
//   NVLS across nodes without collNetSupport  (v2.18.6-1 :1168, v2.27.7-1 :1769)
//   NVLS AllGather/ReduceScatter across nodes, 2.19-2.26 (v2.19.4-1 :1187, v2.23.4-1 :1797),
//     also beyond NCCL_MAX_NVLS_ARITY ranks in 2.25-2.26 (v2.26.6-1 :1689)
//   NVLS/NVLSTree, but AllReduce, beyond NCCL_MAX_NVLS_ARITY local ranks, 2.27+ (v2.27.7-1 :1768)
bool skip_algo(const struct ncclComm* comm, int f, int a, int collnet) {
  const bool agrs = f == ncclFuncAllGather || f == ncclFuncReduceScatter;
  if ((a == NCCL_ALGO_COLLNET_DIRECT || a == NCCL_ALGO_COLLNET_CHAIN) && !collnet) return true;
#if NCCL_VERSION_CODE >= 22300
  if (a == NCCL_ALGO_COLLNET_DIRECT && comm->maxLocalRanks > NCCL_MAX_DIRECT_ARITY + 1) return true;
#endif
#if NCCL_VERSION_CODE >= 22803
  if (a == NCCL_ALGO_COLLNET_CHAIN && comm->maxLocalRanks > NCCL_MAX_DIRECT_ARITY + 1) return true;
#endif
#if NCCL_NUM_ALGORITHMS > 4
  if (a == NCCL_ALGO_NVLS && !collnet && comm->nNodes > 1) return true;
#if NCCL_VERSION_CODE >= 21900 && NCCL_VERSION_CODE < 22500
  if (a == NCCL_ALGO_NVLS && agrs && comm->nNodes > 1) return true;
#elif NCCL_VERSION_CODE >= 22500 && NCCL_VERSION_CODE < 22700
  if (a == NCCL_ALGO_NVLS && agrs && (comm->nNodes > 1 || comm->nRanks > NCCL_MAX_NVLS_ARITY)) return true;
#elif NCCL_VERSION_CODE >= 22700
  if ((a == NCCL_ALGO_NVLS || a == NCCL_ALGO_NVLS_TREE) && f != ncclFuncAllReduce && comm->localRanks > NCCL_MAX_NVLS_ARITY)
    return true;
#endif
#endif
  (void)agrs;
  return false;
}

// The graph CollNetDirect reads: before 2.22 init.cc searches one CollNet graph (pattern TREE,
// the ring's channels) for both CollNet algorithms (graphs[] = {tree, ring, collNet, collNet,
// ...}, init.cc:906 @v2.21.5-1), the CollNetChain input here; from 2.22 a COLLNET_DIRECT graph
// of its own (init.cc:696 @v2.22.3-1).
constexpr int kCollNetDirectGraph = NCCL_VERSION_CODE < 22200 ? NCCL_ALGO_COLLNET_CHAIN : NCCL_ALGO_COLLNET_DIRECT;

// JSON has no NaN/Inf (NCCL's arithmetic can make them, e.g. a 0-channel graph): null.
void num(const char* key, double v) {
  if (std::isfinite(v)) std::printf("\"%s\":%.9g", key, v);
  else std::printf("\"%s\":null", key);
}

// Stands in for the plugin's iallgather/ireducescatter: tuning only tests them for nullptr.
int unused_plugin_call() { std::abort(); }

}  // namespace

int main() {
  std::string line;
  while (std::getline(std::cin, line)) {
    Case c;
    if (!parse(line, c)) continue;
    g_nvs_count = c.nvs;
    // NCCL allocates the communicator zeroed (ncclCalloc in init.cc) and fills what tuning reads.
    auto* comm = static_cast<struct ncclComm*>(std::calloc(1, sizeof(struct ncclComm)));
    comm->rank = 0;
    comm->nRanks = c.ranks;
    comm->nNodes = c.nodes;
    comm->localRanks = c.ranks / c.nodes;
    comm->maxLocalRanks = comm->localRanks;
    comm->minCompCap = comm->maxCompCap = comm->compCap = c.cc;
    g_cpu_arch = c.cpu == "arm" ? NCCL_TOPO_CPU_ARCH_ARM : NCCL_TOPO_CPU_ARCH_X86;
    g_cpu_vendor = c.cpu == "amd" ? NCCL_TOPO_CPU_VENDOR_AMD : NCCL_TOPO_CPU_VENDOR_INTEL;
#if NCCL_VERSION_CODE >= 22200
    comm->cpuArch = g_cpu_arch;
    comm->cpuVendor = g_cpu_vendor;
#endif
    comm->nChannels = c.channels;
#if NCCL_VERSION_CODE >= 22600
    // init.cc: maxTreePattern is the largest tree pattern over the ranks (all ranks alike here).
    comm->maxTreePattern = c.graphs[NCCL_ALGO_TREE].pattern;
#endif
#if NCCL_VERSION_CODE >= 22200
    comm->netDeviceType = NCCL_NET_DEVICE_HOST;
#endif
    comm->nvlsSupport = c.graphs[NCCL_ALGO_NVLS].nChannels > 0;  // init.cc: no NVLS graph, no NVLS
    // CollNet. init.cc turns it off when the CollNet (chain) graph found no channel and below
    // NCCL_COLLNET_NODE_THRESHOLD (2) nodes (v2.18.6-1 :1003,1015-1019; v2.27.7-1 :1017,1028-1032).
    const int collnet = c.collnet && c.graphs[NCCL_ALGO_COLLNET_CHAIN].nChannels > 0 && c.nodes >= 2;
#if NCCL_VERSION_CODE >= 22700
    comm->config.collnetEnable = collnet;
#else
    comm->collNetSupport = collnet;
#endif
    // The rank -> node map tuning.cc walks from 2.27 (one node per localRanks ranks here).
    std::vector<int> rankToNode(c.ranks);
    for (int r = 0; r < c.ranks; ++r) rankToNode[r] = r / comm->localRanks;
    comm->rankToNode = rankToNode.data();
    using NodeRanks = std::remove_pointer_t<decltype(comm->nodeRanks)>;
    std::vector<NodeRanks> nodeRanks(c.nodes);
    for (auto& nr : nodeRanks) { std::memset(&nr, 0, sizeof(nr)); nr.localRanks = comm->localRanks; }
    comm->nodeRanks = nodeRanks.data();
    // The plugin's collectives (2.20+ tuning.cc asks for iallgather/ireducescatter); never called.
    using CollNet = std::remove_pointer_t<decltype(comm->ncclCollNet)>;
    static CollNet plugin;
    std::memset(&plugin, 0, sizeof(plugin));
#if NCCL_VERSION_CODE >= 22000
    plugin.iallgather = reinterpret_cast<decltype(plugin.iallgather)>(&unused_plugin_call);
    plugin.ireducescatter = reinterpret_cast<decltype(plugin.ireducescatter)>(&unused_plugin_call);
#endif
    comm->ncclCollNet = collnet ? &plugin : nullptr;
    // The head count (ncclCollNetSetup, before ncclTopoTuneModel in init.cc): the distinct heads
    // of the CollNet graph -- 2.20 keeps all channels' heads in collNetHeadsNum and the distinct
    // ones in collNetHeadsUniqueNum (init.cc:594-621 @v2.20.3-1), 2.21+ the distinct ones
    // (init.cc:642 @v2.21.5-1; coll_net.cc:1501 @v2.27.7-1); from 2.28 the NVLS heads (one per
    // NVLS channel, connect.cc connectNvls) when NVLS is supported (coll_net.cc:1492-1509 @v2.28.9-1).
    if (collnet) {
      const int direct = c.heads[kCollNetDirectGraph];
#if NCCL_VERSION_CODE >= 22000 && NCCL_VERSION_CODE < 22100
      comm->collNetHeadsNum = c.graphs[kCollNetDirectGraph].nChannels;
      comm->collNetHeadsUniqueNum = direct;
#elif NCCL_VERSION_CODE >= 22800
      comm->collNetHeadsNum = comm->nvlsSupport ? c.graphs[NCCL_ALGO_NVLS].nChannels : direct;
#else
      comm->collNetHeadsNum = direct;
#endif
#if NCCL_VERSION_CODE >= 23007
      // coll_net.cc:1676-1689,1730 @v2.30.7-1: CollNetChain only when its heads are CollNet
      // heads. Heads are local ranks 0..H-1 here, so the chain's set is inside the other's
      // exactly when it is not larger.
      comm->collNetChainSupport = c.heads[NCCL_ALGO_COLLNET_CHAIN] <= comm->collNetHeadsNum;
#endif
    }
#if NCCL_VERSION_CODE >= 22800
    // init.cc calls it right before ncclTopoTuneModel (a tuner plugin may then edit them; none here).
    if (ncclTopoInitTunerConstants(comm) != ncclSuccess) return 70;
#endif
    struct ncclTopoGraph* graphs[NCCL_NUM_ALGORITHMS];
    for (int a = 0; a < NCCL_NUM_ALGORITHMS; ++a) graphs[a] = &c.graphs[a];
    graphs[NCCL_ALGO_COLLNET_DIRECT] = &c.graphs[kCollNetDirectGraph];
    if (ncclTopoTuneModel(comm, c.cc, c.cc, graphs) != ncclSuccess) {
      std::fprintf(stderr, "driver: ncclTopoTuneModel failed for %s\n", c.id.c_str());
      return 70;
    }
    std::printf("{\"case\":\"%s\",\"nccl_version_code\":%d,\"nranks\":%d,\"nnodes\":%d,\"table\":[", c.id.c_str(),
                NCCL_VERSION_CODE, c.ranks, c.nodes);
    bool first = true;
    for (int f = 0; f < NCCL_NUM_FUNCTIONS; ++f)
      for (int a = 0; a < NCCL_NUM_ALGORITHMS; ++a)
        for (int p = 0; p < NCCL_NUM_PROTOCOLS; ++p) {
          std::printf("%s{\"coll\":\"%s\",\"algo\":\"%s\",\"proto\":\"%s\",", first ? "" : ",", ncclFuncStr[f],
                      ncclAlgoStr[a], ncclProtoStr[p]);
          num("lat_us", comm->latencies[f][a][p]);
          std::printf(",");
          num("bw_gbps", comm->bandwidths[f][a][p]);
          std::printf("}");
          first = false;
        }
    std::printf("],\"max_threads\":[");
    for (int a = 0; a < NCCL_NUM_ALGORITHMS; ++a)
      std::printf("%s[%d,%d,%d]", a ? "," : "", comm->maxThreads[a][0], comm->maxThreads[a][1], comm->maxThreads[a][2]);
    std::printf("],\"picks\":[");
    first = true;
    // The pick: enqueue.cc getAlgoInfo (v2.18.6-1 :1153-1185, v2.21.5-1 :1485-1530) or
    // updateCollCostTable + topoGetAlgoInfo (v2.23.4-1 :1780-1830, v2.27.7-1 :1753-1806), restated
    // because they are static there. The cost of every (algo, proto) is NCCL's own
    // ncclTopoGetAlgoTime with numPipeOps 1; algorithms are skipped as those functions do for a
    // float sum (skip_algo). The strict minimum over non-negative times wins (first index on
    // ties); 2.19-2.23 fall back to the best "backup" Ring cell (comm->ringbdw) when nothing else
    // is left.
    for (int f = 0; f < NCCL_NUM_FUNCTIONS; ++f)
      for (size_t bytes : c.sizes) {
        float best = 3600000000.0f, backupBest = 3600000000.0f;
        int ba = -1, bp = -1, ka = -1, kp = -1;
        for (int a = 0; a < NCCL_NUM_ALGORITHMS; ++a) {
          if (skip_algo(comm, f, a, collnet)) continue;
          for (int p = 0; p < NCCL_NUM_PROTOCOLS; ++p) {
            float t = -1;
            bool backup = false;
            if (algo_time(comm, f, a, p, bytes, &t, &backup) != ncclSuccess) return 70;
            if (!backup && t >= 0 && t < best) { best = t; ba = a; bp = p; }
            if (backup && t >= 0 && t < backupBest) { backupBest = t; ka = a; kp = p; }
          }
        }
        if (ba < 0 && ka >= 0) { ba = ka; bp = kp; best = backupBest; }
        std::printf("%s{\"coll\":\"%s\",\"bytes\":%zu,\"algo\":\"%s\",\"proto\":\"%s\",\"time_us\":%.9g}", first ? "" : ",",
                    ncclFuncStr[f], bytes, ba >= 0 ? ncclAlgoStr[ba] : "none", bp >= 0 ? ncclProtoStr[bp] : "none",
                    ba >= 0 ? best : -1.0f);
        first = false;
      }
    std::printf("]}\n");
    std::fflush(stdout);
    std::free(comm);
  }
  return 0;
}
