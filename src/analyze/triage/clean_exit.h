#pragma once
// A lost connection whose peer ended without failing. A rank that reads "Connection closed by
// peer" (an orderly close: pair.h orderly_close) lost a process that closed its sockets, i.e.
// exited. Whether that process failed is what the launcher says:
//  - srun prints a line for every task that exits with a non-zero code or a signal and nothing
//    for a task that exits 0 unless run verbose (SchedMD/slurm src/srun/launch.c _task_finish:
//    "Exited with exit code %d" by error(), "Completed" by verbose()). When every task srun
//    reports exited with a code, and those tasks are exactly the job's ranks that lost their
//    connection, the process that closed it is one srun did not report: it exited 0.
//  - torchrun's agent calls its exit barrier only after its worker group SUCCEEDED, every local
//    worker exited 0, and logs "Error waiting on exit barrier" when the store went away meanwhile
//    (torch/distributed/elastic/agent/server/api.py `_invoke_run` -> `_exit_barrier`, torch
//    2.15.0). A file with that line is a node whose workers all finished.
//  - torchrun's failure block lists every local worker that exited non-zero, the ones it stopped
//    included, never one that exited 0 (torch/distributed/elastic/multiprocessing/api.py
//    SubprocessContext._poll). When it lists exactly the ranks that lost their connection and each
//    names a loopback peer (same host, same agent), the peer is a worker the block left out.
// In each case the peer left the job while the others still ran a collective with it: an early exit
// (uneven data, a return before the last collective), the consequence of which the lost
// connection is. Class timeout-hang (the job's ranks disagree about how long it runs), not a
// network fault.
#include <map>
#include <optional>
#include <set>
#include <vector>

#include "analyze/triage/model.h"
#include "core/finding.h"
#include "knowledge/signatures.h"

namespace ncdx::analyze {

// The verdict for a lost-connection `verdict` (a network-socket symptom that names no rank) whose
// peer ended without failing, or nothing. `barrier_files`: exit_barrier_files() of the scan.
// Not when any lost-connection line is a reset or an I/O error (a middlebox or a cut link sends
// those while the peer lives), when a sample of such lines is cut, when a rank shows an error of its
// own or died of a signal, or when srun's report holds a signal or a cancelled step. The culprit
// rank is named only in a job declared to have two ranks (elimination.h declared_world) with one
// victim: the other rank; otherwise the peer's host as the victims name it.
std::optional<core::Finding> peer_left_cleanly(const ScanResult& scan, const knowledge::SignatureSet& sigs,
                                               const std::map<int, ProcessFacts>& ranks,
                                               const std::vector<ProcessFacts>& unranked,
                                               const std::set<std::size_t>& barrier_files,
                                               const core::Finding& verdict);

}  // namespace ncdx::analyze
