#pragma once
// The waiting side's own timeout names its reporter, not the cause (issue #10: "verdict on a
// victim never above the real culprit"). A recv/send timeout, the watchdog's collective timeout, a
// store wait (signatures with `waits_for: peer`) says that the process that printed it waited for
// another one; when the rest of the job gives no other rank to blame (cascade.h could name nobody:
// the rank waited for printed nothing, or is not in the input at all), the verdict keeps its class
// but names no rank: the waiters are the victims, the culprit is the process they waited for.
//
// The reporter stays the culprit where the input shows that it is:
//  - it has a fault of its own: a signature of role `cause` on its lines (an exception, an OOM, a
//    CUDA error before the timeout), a crash signal from the launcher (not the SIGABRT its own
//    watchdog sends after the timeout), or a stuck watchdog (its own process hung);
//  - the waiters' own last operations differ (their timed-out SeqNums are not all the same): one
//    of them is behind, a finding of its own (derived.cc) that this rule leaves alone;
//  - every rank of the job waited: the job's stated size (WORLD_SIZE, torchrun's rendezvous, every
//    rank's NCCL nranks) or, unstated, the ranks the input shows (job_ranks, two or more): the one
//    waited for is then among them (both ranks of a two-rank job that entered different
//    collectives), and a job stated to be one process waited for nothing but itself. One rank
//    shown and no size stated is no whole job: a waiting process has a peer, and that peer printed
//    nothing the scan could tie to a rank. (An input that shows ranks 0-2 waiting cannot tell a
//    three-rank job from a four-rank one whose rank 3 printed nothing: they stay named.)
//  - another analysis already named ranks for its own reasons (the derived timeout cascade).
#include <map>
#include <vector>

#include "analyze/triage/model.h"
#include "analyze/triage/verdict.h"
#include "knowledge/signatures.h"

namespace ncdx::analyze {

// Applies the rule to the chosen verdict `v` (all.front() before it was copied out): may clear its
// culprit ranks (and the waiters' own hosts; a host the line names as the peer stays), set the
// culprit component to the peer waited for, and say so in the summary.
void unname_waiters(core::Finding& v, const std::vector<ScoredFinding>& all, const ScanResult& scan,
                    const knowledge::SignatureSet& sigs, const std::map<int, ProcessFacts>& ranks,
                    const std::vector<ProcessFacts>& unranked);

// A waiting verdict (`waits_for: peer`) whose peers `kubectl get pods` shows never started
// (k8s.pod-not-started: Pending, ContainerCreating, an image pull): those pods are what the others
// waited for; they replace the waiters as the culprit.
void name_unstarted_pods(core::Finding& v, const ScanResult& scan, const knowledge::SignatureSet& sigs);

// The store-based barrier of init_process_group/new_group says how many of the ranks joined
// ("world_size=16, num_workers_joined=15"). The ranks that did not are absent from its waiters; when
// the input shows exactly that many other ranks past the barrier (each printing a failure of its
// own later, e.g. the next collective's timeout: it never called new_group), they are the culprit.
void name_barrier_absentees(core::Finding& v, const ScanResult& scan, const knowledge::SignatureSet& sigs,
                            const std::map<int, ProcessFacts>& ranks);

}  // namespace ncdx::analyze
