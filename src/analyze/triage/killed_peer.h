#pragma once
// A process killed for memory, and its peers' network errors (issue #10 §2, cause vs cascade).
// When the kernel's OOM killer or a container's memory limit ends one process of a collective job
// (host.oom-killer: "Out of memory: Killed process", kubectl's "Reason: OOMKilled", Slurm's
// oom_kill event), its queue pairs and sockets vanish: the peers' HCAs exhaust their retries
// (IBV_WC_RETRY_EXC_ERR), their sockets close, NCCL reports ncclRemoteError. Those errors are the
// louder lines, often on the host that prints the job's log, but a network fault does not make the
// kernel kill a process for memory: the kill is the cause, the network errors its cascade.
#include <vector>

#include "analyze/triage/verdict.h"

namespace ncdx::analyze {

// Ranks every network-class finding (network-ib, network-socket) below the strongest
// process-killed-for-memory finding (class oom, severity critical) of the same job, and says why in
// its summary. Nothing changes without such a kill.
void rank_kill_above_peer_errors(std::vector<ScoredFinding>& all);

}  // namespace ncdx::analyze
