#pragma once
// The verdict from a catalogued message (knowledge/message_catalogue.h): when no signature or
// derived finding names a cause, a line that carries one of NCCL's, PyTorch's, vLLM's or CUDA's
// own texts names it, with the row's source file, line and version range as its citation.
#include <optional>
#include <set>
#include <vector>

#include "analyze/triage/model.h"
#include "analyze/triage/verdict.h"
#include "knowledge/signatures.h"

namespace ncdx::analyze {

// `found`: the findings so far. None when one of them (severity >= warn) names a cause, i.e. has a
// class other than `other` and does not come from a catch-all signature (an unclassified NCCL WARN,
// a bare exception: their class is inferred from words, the catalogue knows the message). The line
// chosen: the earliest failure-class one, a network-socket or timeout text set aside when another
// rank crashed first (the victims of a dead rank print "Connection closed by peer"); a generic
// wrapper row (class `other`: "NCCL error in:", ncclSystemError) only when nothing else is there.
// The input files in which torchrun's agent logged "Error waiting on exit barrier" (signature
// torch.elastic.exit-barrier-error): it does so only after that node's workers all exited 0
// (torch/distributed/elastic/agent/server/api.py _invoke_run) and does not raise it.
std::set<std::size_t> exit_barrier_files(const ScanResult& scan, const knowledge::SignatureSet& sigs);

// `barrier_files`: exit_barrier_files() of the same scan (correlate computes it once for both uses).
std::optional<ScoredFinding> catalogued_verdict(const std::vector<ScoredFinding>& found, const ScanResult& scan,
                                                const knowledge::SignatureSet& sigs,
                                                const std::set<std::size_t>& barrier_files);

}  // namespace ncdx::analyze
