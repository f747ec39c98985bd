#pragma once
// The files `ncdx tune` hands to NCCL: the tuner-plugin CSV and, only when one global setting wins
// everywhere, an env file.
//
// CSV: the grammar of NCCL's example tuner (NVIDIA/nccl plugins/tuner/example/plugin.c and
// nccl_tuner.conf @ v2.30.7-1; ext-tuner/example/ before 2.28) as libnccl-tuner-ncdx.so reads it
// (plugins/nccl-tuner/ncdx_tuner.c parse_rule):
//   collective,min_bytes,max_bytes,algorithm,protocol,channels,nNodes,nRanks[,numPipeOps[,regBuff]]
//   collective  broadcast reduce allgather reducescatter allreduce (ncclFunc_t order)
//   algorithm   tree ring collnet_direct collnet_chain nvls nvls_tree pat
//   protocol    ll ll128 simple
//   bytes       decimal, the bucket [min_bytes, max_bytes] inclusive (plugin.c: nBytes >= minBytes
//               && nBytes <= maxBytes), NCCL's nBytes (the total buffer for AllGather/ReduceScatter)
//   channels    -1 = NCCL's own count in our plugin, 1..1024 otherwise; NCCL's example writes
//               *nChannels = 1 before matching (plugin.c:361), so under the example -1 and every
//               op outside a rule run on ONE channel (shared/reference/abi.md §4.4)
//   nNodes/nRanks  -1 = any, else the communicator's
// Only lines that start with '#' in column 0 are comments for the example (plugin.c:136), and it
// reads lines of up to 255 bytes (MAX_LINE_LENGTH 256); ours 510. The writer keeps every line
// under 200 bytes and puts '#' in column 0.
//
// Env file: NAME=VALUE lines with the value verbatim, the form NCCL itself reads from
// NCCL_CONF_FILE (>= 2.23.4) or ~/.nccl.conf (src/misc/param.cc setEnvFile: split at the first
// '=', no quoting) and docker --env-file reads; not meant to be sourced by a shell (a per-function
// NCCL_ALGO value holds ';').
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "measure/collective/collective.h"

namespace ncdx::model::tune {

struct NcclTunerRule {
  measure::Collective coll = measure::Collective::allreduce;
  std::size_t min_bytes = 0, max_bytes = 0;  // inclusive
  std::string algo, proto;                   // CSV tokens ("nvls_tree", "ll128"); NCCL's spelling ("NVLSTree") is accepted
  int channels = -1;                         // -1: NCCL's count (libnccl-tuner-ncdx.so)
  int nnodes = -1, nranks = -1;              // -1: any communicator
};

// The CSV token of a collective; nullopt for alltoall/sendrecv (NCCL never asks a tuner for p2p).
std::optional<std::string_view> nccl_tuner_coll_token(measure::Collective c);
// The CSV token of an algorithm/protocol given as the CSV spells it or as NCCL does (ncclAlgoStr
// "Tree" "Ring" "CollNetDirect" "CollNetChain" "NVLS" "NVLSTree" "PAT"; ncclProtoStr "LL" "LL128"
// "Simple"), case-insensitive; nullopt when it is neither.
std::optional<std::string> nccl_tuner_algo_token(std::string_view algo);
std::optional<std::string> nccl_tuner_proto_token(std::string_view proto);

// Whether both readers (ours and NCCL's example) accept the rule: a tuned collective, known
// tokens, min <= max, channels -1 or 1..1024, nNodes/nRanks -1 or >= 1. usage() saying why.
core::Status check_nccl_tuner_rule(const NcclTunerRule& r);

// The CSV: the header comment (each line '#'-prefixed, wrapped), then one line per rule in order
// (the first matching usable rule wins in both plugins). A rule check_nccl_tuner_rule rejects is
// written as a comment saying why, so no reader ever applies it.
std::string render_nccl_tuner_csv(const std::vector<NcclTunerRule>& rules, const std::string& header_comment);

// Reads a CSV with libnccl-tuner-ncdx.so's grammar (8 to 10 fields; numPipeOps and regBuff must be
// -1 here, since ncdx never writes them). Error: bad_input "line N: why".
core::Result<std::vector<NcclTunerRule>> parse_nccl_tuner_csv(std::string_view text);

struct NcclEnvVar {
  std::string name, value;
};
// The env file: header comment, then NAME=VALUE per variable. A name that is not an NCCL_*
// identifier or a value with a newline is written as a comment saying why.
std::string render_nccl_env_file(const std::vector<NcclEnvVar>& vars, const std::string& header_comment);

}  // namespace ncdx::model::tune
