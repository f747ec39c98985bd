#pragma once
// The cluster spec of `ncdx model --from FILE` (issue #15: the model's inputs include "a doctor
// snapshot or cluster report"): a doctor report (`ncdx doctor --json`, one node: its
// "inventory") or a cluster report (`ncdx doctor --cluster --json`: each node's "snapshot"), each
// node with as many ranks as NVML saw GPUs, derived exactly as `doctor --cluster --nccl` derives
// the spec it judges its all-reduce against (spec_from_snapshots, nccl_check.h).
#include <string>
#include <string_view>

#include "analyze/cluster/nccl_check.h"
#include "core/result.h"

namespace ncdx::analyze {

// bad_input (name: what was expected) when the text is not one of the two reports; a report
// whose spec cannot be derived (no NVML GPU names, unknown GPU, no link speed) comes back with
// `why_not` set and no spec.
core::Result<DerivedSpec> spec_from_report(std::string_view text, const std::string& name);

}  // namespace ncdx::analyze
