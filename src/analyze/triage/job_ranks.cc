// Which ranks a job has and where they ran, as far as the input shows (job_ranks.h).
#include "analyze/triage/job_ranks.h"

namespace ncdx::analyze {

std::string rank_words(const std::set<int>& s) {
  std::string out = s.size() == 1 ? "rank " : "ranks ";
  std::size_t n = 0;
  for (int r : s) {
    if (n++) out += ",";
    if (n > 16) {
      out += "…";
      break;
    }
    out += std::to_string(r);
  }
  return out;
}

namespace {

// A Kubeflow PyTorchJob names its pods <job>-<replica type>-<index> and gives the Master replica
// node rank 0 (workers index + 1; kubeflow/training-operator pkg/controller.v1/pytorch envvar.go
// and the common genPodName): global rank 0 runs in the one "-master-0" pod of the log.
std::optional<std::string> pytorchjob_master_pod(const ScanResult& scan) {
  const auto& pods = scan.topology.master_pods;
  if (pods.size() != 1) return std::nullopt;
  return *pods.begin();
}

}  // namespace

std::vector<std::string> hosts_of(const std::set<int>& rs, const ScanResult& scan,
                                  const std::map<int, ProcessFacts>& ranks, bool all_known) {
  std::set<std::string> hs;
  for (int r : rs) {
    std::optional<std::string> h;
    if (auto it = ranks.find(r); it != ranks.end() && it->second.host) h = it->second.host;
    else if (auto e = scan.exits.find(r); e != scan.exits.end() && e->second.host) h = e->second.host;
    if (h && *h == "localhost") h.reset();  // torchrun's name for its own node: says nothing about which node
    if (!h && r == 0) h = pytorchjob_master_pod(scan);
    if (h) hs.insert(*h);
    else if (all_known) return {};
  }
  return {hs.begin(), hs.end()};
}

std::set<int> job_ranks(const ScanResult& scan, const std::map<int, ProcessFacts>& ranks) {
  // Only ranks the input shows: a rank that printed a line, one the launcher reported on, one a
  // signature named. No dense fill from nranks or the highest rank: an excerpt of ranks 3 and 7
  // says nothing about ranks 0-2 (they may be on another node, in another file, or the NCCL
  // nranks may be a sub-communicator's), and a rank made up that way would read as "silent" and
  // be blamed for the others' timeouts.
  std::set<int> w;
  for (const auto& [r, p] : ranks) w.insert(r);
  for (const auto& [r, e] : scan.exits) w.insert(r);
  for (const auto& h : scan.hits) w.insert(h.ranks.begin(), h.ranks.end());
  // With the launcher's exit report in the input (torchrun's failure block, mpirun's or srun's
  // exit lines) the input is that launcher's whole job, and torchrun, mpirun and srun number a
  // job's ranks 0..N-1: a rank below the highest one seen exists even when it printed nothing the
  // scanner could attribute (torchrun lists only the ranks that failed, and a rank that exited 0
  // early or hung prints no prefix on a plain console).
  if (!scan.exits.empty() && !w.empty())
    for (int r = 0; r < *w.rbegin() && r < 100000; ++r) w.insert(r);
  return w;
}

}  // namespace ncdx::analyze
