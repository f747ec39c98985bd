#pragma once
// Inferences for when no line names a cause: what the shape of the job still tells an engineer.
#include <optional>
#include <vector>

#include "analyze/triage/verdict.h"
#include "analyze/triage/model.h"

namespace ncdx::analyze {

// A process of a single-node NCCL job exited with an error (mpirun or torchrun says so) and no
// line carries the error itself. On one node NCCL moves data only through P2P (NVLink/PCIe) and
// SHM, and a failure right after NCCL set up its peers is most often P2P: peer mappings used up
// by another user of the GPUs (a display server), P2P blocked by ACS/IOMMU or not supported by
// the GPU model. The finding says it is an inference and gives the bisection that confirms it.
// The launcher's exit reports are the signatures with an `exit_report` in signatures.yaml.
std::optional<ScoredFinding> silent_single_node_exit(const std::vector<ScoredFinding>& found,
                                                     const ScanResult& scan, const knowledge::SignatureSet& sigs);

// No signature and no derived finding names a failure, but lines carry error evidence (error,
// failed, Traceback, a signal, core dumped ...; knowledge/data/error_tokens.yaml): the strongest
// such line is the verdict, its class from the token families on it, marked as inferred
// (confidence <= 0.5) with its lines shown. `none` stays for logs without error evidence.
std::optional<ScoredFinding> inferred_from_error_lines(const ScanResult& scan);

}  // namespace ncdx::analyze
