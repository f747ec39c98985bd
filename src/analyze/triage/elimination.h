#pragma once
// The culprit by elimination in a two-rank job. When one rank's own line says its peer closed the
// connection (gloo pair.cc "Connection closed by peer", NCCL socket.cc "Connection closed by
// remote peer") it is a victim: another process went away first. In a job known to have exactly
// two ranks that other process can only be the other rank, so when that rank shows no failure of
// its own it is the one that left (an early exit, a crash whose log is not in the input). With
// more ranks the peer that left could be any of them: nothing is guessed there.
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "analyze/triage/model.h"
#include "core/finding.h"
#include "knowledge/signatures.h"

namespace ncdx::analyze {

// The job's declared number of ranks and where it was read ("NCCL nranks 2", "WORLD_SIZE=2"):
// the largest communicator a process reports (NCCL's init line "nranks N", ProcessGroupNCCL's
// "size: N"), the environment (WORLD_SIZE=N in an env dump, torchrun's "global_world_sizes=[…]").
// Empty when no source gives one, or when ranks at or above it are seen (then it was a
// sub-communicator's).
struct DeclaredWorld {
  int size = 0;
  std::string source;
};
std::optional<DeclaredWorld> declared_world(const ScanResult& scan, const std::map<int, ProcessFacts>& ranks,
                                            const std::vector<ProcessFacts>& unranked);

// The other rank of a two-rank job whose only lost-peer victim is `lost_peer` (exactly one rank),
// as the verdict's finding (triage.waited-for-rank, case "eliminated", with the victim's evidence),
// or nothing: world size not known to be 2, both ranks lost their peer, or the other rank printed
// a failure of its own or was stopped by the launcher while it waited.
std::optional<core::Finding> only_peer_left(const ScanResult& scan, const knowledge::SignatureSet& sigs,
                                            const std::map<int, ProcessFacts>& ranks,
                                            const std::vector<ProcessFacts>& unranked, const std::set<int>& lost_peer,
                                            const core::Finding& verdict);

}  // namespace ncdx::analyze
