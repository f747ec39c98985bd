/* libnccl-tuner-ncdx.so: NCCL's tuner plugin for the tables `ncdx tune` measures.
 *
 * NCCL loads it with NCCL_TUNER_PLUGIN=ncdx (abi.md §4.1) and calls getCollInfo for every
 * collective with its own cost table. The plugin reads NCDX_TUNER_FILE once per communicator:
 * the CSV rules of NCCL's example tuner (abi.md §4.5; plugins/tuner/example/README.md @ v2.30.7-1)
 *   collective,min_bytes,max_bytes,algorithm,protocol,channels,nNodes,nRanks[,numPipeOps[,regBuff]]
 * and, for a collective whose size falls in a measured bucket, sets that [algo][proto] entry to 0
 * so NCCL picks it. What it promises NCCL (and the harness test checks):
 *  - entries NCCL marked NCCL_ALGO_PROTO_IGNORE (-1) are never made usable: a rule whose entry is
 *    ignored is skipped and the next matching rule is tried, as in the example;
 *  - outside every rule the table and *nChannels are left untouched (NCCL's own choice);
 *    channels -1 leaves *nChannels at 0 = NCCL's count (the example writes 1: abi.md §4.4 pitfall);
 *  - a missing, unreadable or corrupt file, overlong lines and bad fields are logged and skipped:
 *    every entry point returns ncclSuccess, because NCCL wraps them in NCCLCHECK (abi.md §4.4);
 *  - table bounds come from numAlgo/numProto (6 algorithms in 2.22, 7 from 2.23);
 *  - the model constants passed to v5/v6 init are not modified.
 * Exports ncclTunerPlugin_v6 ... _v2 (NCCL 2.21 to 2.30+). Plain C, no allocation after init. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ncdx_tuner_abi.h"

#define NCDX_EXPORT __attribute__((visibility("default")))
#define LOG_WARN 2
#define LOG_INFO 3
#define LOG_TUNING 0x40
#define MAX_RULES 4096
#define LINE_MAX_LEN 512

_Static_assert(sizeof(ncdxTuner_v2) == 32, "v2 table is 4 pointers");
_Static_assert(sizeof(ncdxTuner_v5) == 32, "v5 table is 4 pointers");
_Static_assert(sizeof(ncdxTuner_v6) == 40, "v6 table is 5 pointers");
_Static_assert(sizeof(ncdxTunerConstants_v5) == 1152, "constants are 1152 bytes");
_Static_assert(sizeof(ncdxNvlDomainInfo_v5) == 12, "domain info is 12 bytes");

typedef struct {
  int coll, algo, proto, channels, nnodes, nranks, pipeops, regbuff;
  unsigned long long min_bytes, max_bytes;
} Rule;

typedef struct {
  size_t nranks, nnodes;
  ncdxLogger log;
  int nrules;
  Rule rules[MAX_RULES];
} Context;

static const char* const kColls[] = {"broadcast", "reduce", "allgather", "reducescatter", "allreduce"};
static const char* const kAlgos[] = {"tree", "ring", "collnet_direct", "collnet_chain", "nvls", "nvls_tree", "pat"};
static const char* const kProtos[] = {"ll", "ll128", "simple"};

static int lookup(const char* s, const char* const* names, int n) {
  for (int i = 0; i < n; ++i)
    if (strcmp(s, names[i]) == 0) return i;
  return -1;
}

static char* trim(char* s) {
  while (*s == ' ' || *s == '\t') ++s;
  char* e = s + strlen(s);
  while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r' || e[-1] == '\n')) *--e = 0;
  return s;
}

/* A decimal integer that fits; -1 allowed where wildcards are. */
static int parse_ll(const char* s, long long lo, long long hi, long long* out) {
  if (!*s) return 0;
  char* end = NULL;
  errno = 0;
  long long v = strtoll(s, &end, 10);
  if (errno || *end || v < lo || v > hi) return 0;
  *out = v;
  return 1;
}

/* Parses one rule line; 0 with a reason when the line is not a rule. */
static int parse_rule(char* line, Rule* r, const char** why) {
  char* f[11];
  int n = 0;
  for (char* p = line; n < 11;) {
    f[n++] = p;
    char* c = strchr(p, ',');
    if (!c) break;
    *c = 0;
    p = c + 1;
  }
  if (n < 8 || n > 10) return *why = "expected 8 to 10 comma-separated fields", 0;
  for (int i = 0; i < n; ++i) f[i] = trim(f[i]);
  long long v;
  if ((r->coll = lookup(f[0], kColls, 5)) < 0) return *why = "unknown collective (broadcast reduce allgather reducescatter allreduce)", 0;
  if (!parse_ll(f[1], 0, LLONG_MAX, &v)) return *why = "min_bytes is not a size", 0;
  r->min_bytes = (unsigned long long)v;
  if (!parse_ll(f[2], 0, LLONG_MAX, &v)) return *why = "max_bytes is not a size", 0;
  r->max_bytes = (unsigned long long)v;
  if (r->max_bytes < r->min_bytes) return *why = "max_bytes below min_bytes", 0;
  if ((r->algo = lookup(f[3], kAlgos, 7)) < 0) return *why = "unknown algorithm (tree ring collnet_direct collnet_chain nvls nvls_tree pat)", 0;
  if ((r->proto = lookup(f[4], kProtos, 3)) < 0) return *why = "unknown protocol (ll ll128 simple)", 0;
  if (!parse_ll(f[5], -1, 1024, &v) || v == 0) return *why = "channels must be -1 or 1..1024", 0;
  r->channels = (int)v;
  if (!parse_ll(f[6], -1, INT_MAX, &v)) return *why = "nNodes must be -1 or a count", 0;
  r->nnodes = (int)v;
  if (!parse_ll(f[7], -1, INT_MAX, &v)) return *why = "nRanks must be -1 or a count", 0;
  r->nranks = (int)v;
  r->pipeops = -1;
  r->regbuff = -1;
  if (n > 8) {
    if (!parse_ll(f[8], -1, INT_MAX, &v)) return *why = "numPipeOps must be -1 or a count", 0;
    r->pipeops = (int)v;
  }
  if (n > 9) {
    if (!parse_ll(f[9], -1, 1, &v)) return *why = "regBuff must be -1, 0 or 1", 0;
    r->regbuff = (int)v;
  }
  return 1;
}

static void load_rules(Context* c) {
  const char* path = getenv("NCDX_TUNER_FILE");
  if (!path || !*path) {
    if (c->log) c->log(LOG_INFO, LOG_TUNING, __FILE__, __LINE__, "ncdx tuner: NCDX_TUNER_FILE not set, NCCL's own choices apply");
    return;
  }
  FILE* fp = fopen(path, "r");
  if (!fp) {
    if (c->log) c->log(LOG_WARN, LOG_TUNING, __FILE__, __LINE__, "ncdx tuner: cannot open %s (%s), NCCL's own choices apply", path, strerror(errno));
    return;
  }
  char line[LINE_MAX_LEN];
  int lineno = 0, bad = 0;
  while (fgets(line, sizeof line, fp)) {
    ++lineno;
    size_t len = strlen(line);
    if (len == sizeof line - 1 && line[len - 1] != '\n') {
      int ch;
      while ((ch = fgetc(fp)) != EOF && ch != '\n') {
      }
      ++bad;
      if (c->log) c->log(LOG_WARN, LOG_TUNING, __FILE__, __LINE__, "ncdx tuner: %s:%d: line longer than %d bytes, skipped", path, lineno, LINE_MAX_LEN - 2);
      continue;
    }
    char* s = trim(line);
    if (!*s || *s == '#') continue;
    if (c->nrules >= MAX_RULES) {
      if (c->log) c->log(LOG_WARN, LOG_TUNING, __FILE__, __LINE__, "ncdx tuner: %s: more than %d rules, the rest ignored", path, MAX_RULES);
      break;
    }
    const char* why = "";
    if (parse_rule(s, &c->rules[c->nrules], &why)) {
      ++c->nrules;
    } else {
      ++bad;
      if (c->log) c->log(LOG_WARN, LOG_TUNING, __FILE__, __LINE__, "ncdx tuner: %s:%d: %s, line skipped", path, lineno, why);
    }
  }
  fclose(fp);
  if (c->log) c->log(LOG_INFO, LOG_TUNING, __FILE__, __LINE__, "ncdx tuner: %d rules from %s (%d lines skipped) for %zu ranks on %zu nodes",
                     c->nrules, path, bad, c->nranks, c->nnodes);
}

static int rule_applies(const Context* c, const Rule* r, int coll, size_t nBytes, int numPipeOps, int regBuff) {
  return r->coll == coll && nBytes >= r->min_bytes && nBytes <= r->max_bytes &&
         (r->nnodes == -1 || (size_t)r->nnodes == c->nnodes) && (r->nranks == -1 || (size_t)r->nranks == c->nranks) &&
         (r->pipeops == -1 || r->pipeops == numPipeOps) && (r->regbuff == -1 || regBuff < 0 || r->regbuff == regBuff);
}

static ncdxNcclResult make_context(void** context, size_t nRanks, size_t nNodes, ncdxLogger log) {
  if (!context) return 0;
  Context* c = (Context*)calloc(1, sizeof(Context));
  *context = c;
  if (!c) {
    if (log) log(LOG_WARN, LOG_TUNING, __FILE__, __LINE__, "ncdx tuner: out of memory, NCCL's own choices apply");
    return 0;
  }
  c->nranks = nRanks;
  c->nnodes = nNodes;
  c->log = log;
  load_rules(c);
  return 0;
}

/* The cost-table form (v3+). The table is float[numAlgo][numProto] cast to float** (abi.md §4.4). */
static ncdxNcclResult get_coll_info_table(void* context, ncdxNcclFunc collType, size_t nBytes, int numPipeOps,
                                          float** collCostTable, int numAlgo, int numProto, int regBuff, int* nChannels) {
  Context* c = (Context*)context;
  if (!c || !collCostTable || numAlgo <= 0 || numProto <= 0) return 0;
  float* table = (float*)collCostTable;
  for (int i = 0; i < c->nrules; ++i) {
    const Rule* r = &c->rules[i];
    if (!rule_applies(c, r, collType, nBytes, numPipeOps, regBuff)) continue;
    if (r->algo >= numAlgo || r->proto >= numProto) continue;
    float* cell = &table[r->algo * numProto + r->proto];
    if (*cell == NCDX_ALGO_PROTO_IGNORE) continue; /* NCCL forbids it here: try the next rule */
    *cell = 0.0f;
    if (r->channels > 0 && nChannels) *nChannels = r->channels;
    if (c->log)
      c->log(LOG_INFO, LOG_TUNING, __FILE__, __LINE__, "ncdx tuner: %s %zu B -> %s/%s channels %d (rule %d)", kColls[collType],
             nBytes, kAlgos[r->algo], kProtos[r->proto], r->channels, i + 1);
    return 0;
  }
  return 0;
}

static ncdxNcclResult v6_init(void** context, uint64_t commId, size_t nRanks, size_t nNodes, ncdxLogger log,
                              ncdxNvlDomainInfo_v5* nvl, ncdxTunerConstants_v5* constants) {
  (void)commId, (void)nvl, (void)constants;
  return make_context(context, nRanks, nNodes, log);
}
static ncdxNcclResult v2_init(size_t nRanks, size_t nNodes, ncdxLogger log, void** context) {
  return make_context(context, nRanks, nNodes, log);
}
static ncdxNcclResult finalize(void* context) {
  free(context);
  return 0;
}
static ncdxNcclResult v3_get(void* context, ncdxNcclFunc collType, size_t nBytes, int numPipeOps, float** table,
                             int numAlgo, int numProto, int* nChannels) {
  return get_coll_info_table(context, collType, nBytes, numPipeOps, table, numAlgo, numProto, -1, nChannels);
}
/* v2 (NCCL 2.21): no cost table; NCCL says only whether CollNet and NVLS are possible. */
static ncdxNcclResult v2_get(void* context, ncdxNcclFunc collType, size_t nBytes, int collNetSupport, int nvlsSupport,
                             int numPipeOps, int* algorithm, int* protocol, int* nChannels) {
  Context* c = (Context*)context;
  if (!c || !algorithm || !protocol) return 0;
  for (int i = 0; i < c->nrules; ++i) {
    const Rule* r = &c->rules[i];
    if (!rule_applies(c, r, collType, nBytes, numPipeOps, -1)) continue;
    if ((r->algo == NCDX_ALGO_COLLNET_DIRECT || r->algo == NCDX_ALGO_COLLNET_CHAIN) && !collNetSupport) continue;
    if ((r->algo == NCDX_ALGO_NVLS || r->algo == NCDX_ALGO_NVLS_TREE) && !nvlsSupport) continue;
    if (r->algo == NCDX_ALGO_PAT) continue; /* not an algorithm of 2.21 */
    *algorithm = r->algo;
    *protocol = r->proto;
    if (r->channels > 0 && nChannels) *nChannels = r->channels;
    return 0;
  }
  return 0;
}
/* v6: NCCL's chunk size stays (NULL would do the same; a function keeps the table complete). */
static ncdxNcclResult v6_chunk(void* context, ncdxNcclFunc collType, size_t nBytes, int algo, int proto, int nChannels,
                               size_t* chunkSize) {
  (void)context, (void)collType, (void)nBytes, (void)algo, (void)proto, (void)nChannels, (void)chunkSize;
  return 0;
}

NCDX_EXPORT const ncdxTuner_v6 ncclTunerPlugin_v6 = {"ncdx", v6_init, get_coll_info_table, finalize, v6_chunk};
NCDX_EXPORT const ncdxTuner_v5 ncclTunerPlugin_v5 = {"ncdx", v6_init, get_coll_info_table, finalize};
NCDX_EXPORT const ncdxTuner_v4 ncclTunerPlugin_v4 = {"ncdx", v2_init, get_coll_info_table, finalize};
NCDX_EXPORT const ncdxTuner_v3 ncclTunerPlugin_v3 = {"ncdx", v2_init, v3_get, finalize};
NCDX_EXPORT const ncdxTuner_v2 ncclTunerPlugin_v2 = {"ncdx", v2_init, v2_get, finalize};
