// Oracle for `ncdx model` validation (a): runs NCCL's own host-side tuning code
// (src/graph/tuning.cc: ncclTopoTuneModel, ncclTopoGetAlgoTime) on synthetic graph inputs and
// prints the tables and the per-size pick as JSON lines. Built by build.sh against an NCCL
// source tree outside this repository; nothing of NCCL is copied here. Only the symbols
// tuning.cc needs from the rest of NCCL are defined below (logging, the NVSwitch count, the
// name tables), each with the behaviour the tuning code relies on.
//
// Input: one case per line on stdin, whitespace-separated key=value items:
//   case=ID nodes=N ranks=R cc=90 cpu=intel|amd|arm nvs=1 channels=C sizes=8,16,...
//   g.<algo>=nChannels,bwIntra,bwInter,typeIntra,typeInter,pattern,sameChannels,latencyInter
// with <algo> one of NCCL's algorithm indices 0..NCCL_NUM_ALGORITHMS-1 and path types by name
// (NVL, PXB, ...; resolved with NCCL's own PATH_* constants). Graphs not given have 0 channels.
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "comm.h"
#include "core.h"
#include "device.h"
#include "graph.h"
#include "topo.h"

// ---- The NCCL symbols tuning.cc links against, defined for this oracle. ----
// Logging: tuning.cc prints its tables at INFO level; ORACLE_DEBUG=1 shows them on stderr.
int ncclDebugLevel = -1;
thread_local int ncclDebugNoWarn = 0;
void ncclDebugLog(ncclDebugLogLevel level, unsigned long flags, const char* filefunc, int line, const char* fmt, ...) {
  (void)flags;
  static const bool on = std::getenv("ORACLE_DEBUG") != nullptr;
  if (!on && level != NCCL_LOG_WARN) return;
  va_list ap;
  va_start(ap, fmt);
  std::fprintf(stderr, "[nccl %s:%d] ", filefunc, line);
  std::vfprintf(stderr, fmt, ap);
  std::fputc('\n', stderr);
  va_end(ap);
}
// The NVSwitch count of the case (topo.cc counts NVS nodes of the topology).
static int g_nvs_count = 0;
ncclResult_t ncclTopoGetNvsCount(struct ncclTopoSystem*, int* nvsCount) {
  *nvsCount = g_nvs_count;
  return ncclSuccess;
}
// Names as NCCL prints them (used by tuning.cc's NCCL_ALGO/NCCL_PROTO parser and INFO lines).
const char* ncclFuncStr[NCCL_NUM_FUNCTIONS] = {"Broadcast", "Reduce", "AllGather", "ReduceScatter", "AllReduce"};
const char* ncclAlgoStr[NCCL_NUM_ALGORITHMS] = {"Tree", "Ring", "CollNetDirect", "CollNetChain", "NVLS", "NVLSTree"
#if NCCL_NUM_ALGORITHMS > 6
                                                ,
                                                "PAT"
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
      {"PXN", PATH_PXN}, {"PHB", PATH_PHB}, {"SYS", PATH_SYS}, {"NET", PATH_NET}, {"DIS", PATH_DIS}};
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
  int nodes = 1, ranks = 1, cc = 90, nvs = 0, channels = 1;
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
    else if (k == "sizes") { for (auto& s : split(v, ',')) c.sizes.push_back(std::strtoull(s.c_str(), nullptr, 10)); }
    else if (k.rfind("g.", 0) == 0) {
      int a = std::atoi(k.c_str() + 2);
      auto f = split(v, ',');
      if (a < 0 || a >= NCCL_NUM_ALGORITHMS || f.size() != 8) { std::fprintf(stderr, "driver: bad graph %s\n", item.c_str()); std::exit(65); }
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
    comm->cpuArch = c.cpu == "arm" ? NCCL_TOPO_CPU_ARCH_ARM : NCCL_TOPO_CPU_ARCH_X86;
    comm->cpuVendor = c.cpu == "amd" ? NCCL_TOPO_CPU_VENDOR_AMD : NCCL_TOPO_CPU_VENDOR_INTEL;
    comm->nChannels = c.channels;
    // init.cc: maxTreePattern is the largest tree pattern over the ranks (all ranks alike here).
    comm->maxTreePattern = c.graphs[NCCL_ALGO_TREE].pattern;
#if NCCL_VERSION_CODE >= 21900
    comm->netDeviceType = NCCL_NET_DEVICE_HOST;
#endif
    comm->config.collnetEnable = 0;   // no CollNet plugin in these cases
    comm->nvlsSupport = c.graphs[NCCL_ALGO_NVLS].nChannels > 0;  // init.cc: no NVLS graph, no NVLS
    struct ncclTopoGraph* graphs[NCCL_NUM_ALGORITHMS];
    for (int a = 0; a < NCCL_NUM_ALGORITHMS; ++a) graphs[a] = &c.graphs[a];
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
          std::printf("%s{\"coll\":\"%s\",\"algo\":\"%s\",\"proto\":\"%s\",\"lat_us\":%.9g,\"bw_gbps\":%.9g}", first ? "" : ",",
                      ncclFuncStr[f], ncclAlgoStr[a], ncclProtoStr[p], comm->latencies[f][a][p], comm->bandwidths[f][a][p]);
          first = false;
        }
    std::printf("],\"max_threads\":[");
    for (int a = 0; a < NCCL_NUM_ALGORITHMS; ++a)
      std::printf("%s[%d,%d,%d]", a ? "," : "", comm->maxThreads[a][0], comm->maxThreads[a][1], comm->maxThreads[a][2]);
    std::printf("],\"picks\":[");
    first = true;
    // The pick: enqueue.cc updateCollCostTable + topoGetAlgoInfo (v2.27.7-1 src/enqueue.cc:1753-1806),
    // restated because both are static there: the cost of every (algo, proto) is NCCL's own
    // ncclTopoGetAlgoTime with numPipeOps 1; algorithms are skipped as updateCollCostTable does
    // (CollNet without support, NVLS/NVLSTree without nvlsSupport or, except AllReduce, more
    // local ranks than NCCL_MAX_NVLS_ARITY, NVLS across nodes without CollNet); the strict
    // minimum over non-negative times wins (first index on ties). No tuner plugin, sum op.
    for (int f = 0; f < NCCL_NUM_FUNCTIONS; ++f)
      for (size_t bytes : c.sizes) {
        float best = 3600000000.0f;
        int ba = -1, bp = -1;
        for (int a = 0; a < NCCL_NUM_ALGORITHMS; ++a) {
          if (a == NCCL_ALGO_COLLNET_DIRECT || a == NCCL_ALGO_COLLNET_CHAIN) continue;
          if ((a == NCCL_ALGO_NVLS || a == NCCL_ALGO_NVLS_TREE) &&
              (!comm->nvlsSupport || (f != ncclFuncAllReduce && comm->localRanks > NCCL_MAX_NVLS_ARITY)))
            continue;
          if (a == NCCL_ALGO_NVLS && comm->nNodes > 1) continue;
          for (int p = 0; p < NCCL_NUM_PROTOCOLS; ++p) {
            float t = -1;
            if (ncclTopoGetAlgoTime(comm, f, a, p, bytes, 1, &t) != ncclSuccess) return 70;
            if (t >= 0 && t < best) { best = t; ba = a; bp = p; }
          }
        }
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
