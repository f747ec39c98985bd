/* The NCCL tuner-plugin ABI, declared by us from the layouts in shared/reference/abi.md §4 and
 * NCCL's own headers (NVIDIA/nccl v2.30.7-1 src/include/plugin/tuner/tuner_v2.h ... tuner_v6.h,
 * v2.21.5-1 / v2.22.3-1 / v2.24.3-1 / v2.28.3-1 ext-tuner headers): every table is a struct of
 * pointer-sized members, in this order. Only what the plugin needs; sizes are static_asserted
 * in ncdx_tuner.c. */
#ifndef NCDX_TUNER_ABI_H_
#define NCDX_TUNER_ABI_H_

#include <stddef.h>
#include <stdint.h>

typedef int ncdxNcclResult; /* ncclResult_t: ncclSuccess = 0 */
typedef int ncdxNcclFunc;   /* ncclFunc_t: Broadcast 0, Reduce 1, AllGather 2, ReduceScatter 3, AllReduce 4 */

/* ncclDebugLogger_t: (level, subsystem flags, file, line, fmt, ...). WARN 2, INFO 3; TUNING 0x40. */
typedef void (*ncdxLogger)(int level, unsigned long flags, const char* file, int line, const char* fmt, ...);

enum { NCDX_ALGO_TREE = 0, NCDX_ALGO_RING, NCDX_ALGO_COLLNET_DIRECT, NCDX_ALGO_COLLNET_CHAIN, NCDX_ALGO_NVLS,
       NCDX_ALGO_NVLS_TREE, NCDX_ALGO_PAT, NCDX_NUM_ALGOS_MAX };
enum { NCDX_PROTO_LL = 0, NCDX_PROTO_LL128, NCDX_PROTO_SIMPLE, NCDX_NUM_PROTOS_MAX };
#define NCDX_ALGO_PROTO_IGNORE (-1.0f)

typedef struct {
  int nNvlDomains, minRanksPerNvlDomain, maxRanksPerNvlDomain;
} ncdxNvlDomainInfo_v5;

/* 1152 bytes of doubles (abi.md §4.3); in/out, we never change them. */
typedef struct {
  double baseLatencies[7][3];
  double hwLatencies[3][7][3];
  double llMaxBws[4][3];
  double perChMaxRingLL128Bws[4][3];
  double perChMaxTreeLL128Bws[4][3];
  double perChMaxTreeBws[4][3];
  double perChMaxNVLSTreeBws[4][3];
} ncdxTunerConstants_v5;

typedef struct {
  const char* name;
  ncdxNcclResult (*init)(size_t nRanks, size_t nNodes, ncdxLogger logFunction, void** context);
  ncdxNcclResult (*getCollInfo)(void* context, ncdxNcclFunc collType, size_t nBytes, int collNetSupport,
                                int nvlsSupport, int numPipeOps, int* algorithm, int* protocol, int* nChannels);
  ncdxNcclResult (*destroy)(void* context);
} ncdxTuner_v2;

typedef struct {
  const char* name;
  ncdxNcclResult (*init)(size_t nRanks, size_t nNodes, ncdxLogger logFunction, void** context);
  ncdxNcclResult (*getCollInfo)(void* context, ncdxNcclFunc collType, size_t nBytes, int numPipeOps,
                                float** collCostTable, int numAlgo, int numProto, int* nChannels);
  ncdxNcclResult (*destroy)(void* context);
} ncdxTuner_v3;

typedef struct {
  const char* name;
  ncdxNcclResult (*init)(size_t nRanks, size_t nNodes, ncdxLogger logFunction, void** context);
  ncdxNcclResult (*getCollInfo)(void* context, ncdxNcclFunc collType, size_t nBytes, int numPipeOps,
                                float** collCostTable, int numAlgo, int numProto, int regBuff, int* nChannels);
  ncdxNcclResult (*destroy)(void* context);
} ncdxTuner_v4;

typedef struct {
  const char* name;
  ncdxNcclResult (*init)(void** context, uint64_t commId, size_t nRanks, size_t nNodes, ncdxLogger logFunction,
                         ncdxNvlDomainInfo_v5* nvlDomainInfo, ncdxTunerConstants_v5* constants);
  ncdxNcclResult (*getCollInfo)(void* context, ncdxNcclFunc collType, size_t nBytes, int numPipeOps,
                                float** collCostTable, int numAlgo, int numProto, int regBuff, int* nChannels);
  ncdxNcclResult (*finalize)(void* context);
} ncdxTuner_v5;

typedef struct {
  const char* name;
  ncdxNcclResult (*init)(void** context, uint64_t commId, size_t nRanks, size_t nNodes, ncdxLogger logFunction,
                         ncdxNvlDomainInfo_v5* nvlDomainInfo, ncdxTunerConstants_v5* constants);
  ncdxNcclResult (*getCollInfo)(void* context, ncdxNcclFunc collType, size_t nBytes, int numPipeOps,
                                float** collCostTable, int numAlgo, int numProto, int regBuff, int* nChannels);
  ncdxNcclResult (*finalize)(void* context);
  ncdxNcclResult (*getChunkSize)(void* context, ncdxNcclFunc collType, size_t nBytes, int algo, int proto,
                                 int nChannels, size_t* chunkSize);
} ncdxTuner_v6;

#endif
