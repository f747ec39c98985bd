#pragma once
// Settings the user forced in the environment, read against the failure they explain.
//
// An IB setting the user forced that the failure points at is a configuration error (class
// config-invalid), not a fabric fault: an explicitly set wrong value.
//  - NCCL_IB_GID_INDEX set (NCCL misc/param.cc "NCCL_IB_GID_INDEX set by environment to %lld.", or
//    an env dump) and ibv_modify_qp failing with EINVAL (misc/ibvwrap.cc "Call to ibv_modify_qp
//    failed with %d %s, %s", 22 Invalid argument): the forced GID index is not valid for the port
//    or the peer. NCCL prints its hint ("... when the incorrect GID index is forced by
//    NCCL_IB_GID_INDEX", printIbModifyQpHint) after every EINVAL, forced or not, so the hint
//    alone is no evidence: the variable has to be set. And the EINVAL has to be seen on more
//    than one node (or on lines without a host): on one node alone it is as likely that node's
//    empty GID entry under a cluster-wide index, its own network-ib failure.
//  - NCCL_IB_HCA set (transport/net_ib/init.cc "NCCL_IB_HCA set to %s", or an env dump) and NCCL
//    then found no IB device ("NET/IB : No device found."): the filter matched no HCA. With a
//    network failure in the same log that is the verdict's cause; alone an observation (NCCL
//    carried on over sockets: slow, which triage.socket-fallback-on-ib reports).
#include <optional>
#include <vector>

#include "analyze/triage/model.h"
#include "analyze/triage/verdict.h"
#include "knowledge/signatures.h"

namespace ncdx::analyze {

// `all`: the findings so far (their scores place the new one just above the failure it explains).
std::optional<ScoredFinding> ib_env_invalid(const ScanResult& scan, const knowledge::SignatureSet& sigs,
                                            const std::vector<ScoredFinding>& all);

// vLLM's "Failed to load NCCL library from %s. ..." (vllm.nccl-load-failed; vLLM
// distributed/device_communicators/pynccl_wrapper.py, logger.error before re-raising the ctypes
// error) is a configuration error only when the library was chosen by VLLM_NCCL_SO_PATH (vLLM
// utils.py find_nccl_library logs "Found nccl from environment variable VLLM_NCCL_SO_PATH=%s", or
// an env dump shows it): the path the user set does not load. Without it vLLM loads the
// libnccl.so.2 torch brought, and the failure is that library's (missing, corrupt, built for
// another platform): the signature's own class. Changes `sf` in place.
void refine_by_forced_env(ScoredFinding& sf, const knowledge::Signature& sig, const TopologyFacts& topo);

}  // namespace ncdx::analyze
