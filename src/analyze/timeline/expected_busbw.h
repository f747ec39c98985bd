#pragma once
// What `ncdx timeline --spec` compares measured busbw with: the busbw NCCL's cost model
// (model/cost/predict.h, the same as `ncdx model --spec`) predicts for the collective, its
// nccl-tests size and its group on that cluster. The analysis only sees the resulting function
// (TimelineOptions::expected_busbw), so it stays testable with any expectation.
#include <optional>

#include "analyze/timeline/result.h"
#include "core/result.h"
#include "model/cost/cluster_spec.h"
#include "model/cost/types.h"

namespace ncdx::analyze::timeline {

// The cluster a group of n ranks of `spec` runs on. A trace names a group's size, not its
// members, so the group is taken as packed onto the fewest nodes, as torch places consecutive
// ranks (tensor-parallel groups inside a node): n <= GPUs per node -> one node of n GPUs; a
// multiple of GPUs per node -> n / G whole nodes; anything else, or more ranks than the
// cluster has, has no expectation. n < 1 means the whole cluster.
std::optional<model::cost::ClusterSpec> group_spec(const model::cost::ClusterSpec& spec, int n);

// Sets o.expected_busbw and o.expectation. Builds the model for the whole cluster once to check
// the spec (its errors come back as they do for `ncdx model`); groups get theirs when first seen.
core::Status set_expectation(TimelineOptions& o, const model::cost::ClusterSpec& spec, const model::cost::NcclVersion& version);

}  // namespace ncdx::analyze::timeline
