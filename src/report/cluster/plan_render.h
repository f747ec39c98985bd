#pragma once
// Reporters for `ncdx doctor --plan N` (schema ncdx.cluster-plan/1,
// docs/schema/cluster-plan.schema.json). Every number comes from analyze::ClusterPlan.
#include <nlohmann/json.hpp>

#include <string>

#include "analyze/cluster/cluster_plan.h"

namespace ncdx::report {

nlohmann::json render_plan_json(const analyze::ClusterPlan& plan, bool timestamps);
std::string render_plan_text(const analyze::ClusterPlan& plan);

}  // namespace ncdx::report
