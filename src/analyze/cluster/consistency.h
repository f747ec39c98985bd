#pragma once
// Cross-node consistency (issue #14): for each fact that must agree across the nodes of a job
// (versions, NCCL env, GPUs, NICs, MTU, /dev/shm, memlock, kernel, clock, hostnames), group the
// nodes by value and name the nodes that deviate from the majority. Pure functions of the
// gathered snapshots, so they run the same live under MPI and on saved reports.
#include <optional>
#include <string>
#include <vector>

#include "analyze/doctor/check.h"
#include "probe/inventory.h"

namespace ncdx::analyze {

struct NodeSnapshot {
  std::string host;
  int rank = 0;
  probe::Inventory inventory;
  std::optional<double> clock_offset_us;  // vs rank 0; null = unknown
};

struct ValueGroup {
  std::string value;               // "(unknown)" when the node could not tell
  std::vector<std::string> hosts;  // sorted
};

struct ConsistencyResult {
  std::string id;     // "versions.nccl", "env.NCCL_IB_HCA", ...
  std::string title;  // one line
  core::Outcome status = core::Outcome::pass;
  std::optional<std::string> majority;   // the majority value; null when there is none (a tie)
  std::vector<ValueGroup> groups;        // biggest first
  std::vector<std::string> deviating;    // hosts not in the majority (all minority groups)
  std::string evidence;
  std::string fix;
};

// One rule: a value per node; how bad a deviation is.
struct ConsistencyRule {
  const char* id;
  const char* title;
  core::Outcome on_deviation;  // warn or fail
  std::optional<std::string> (*value)(const NodeSnapshot&);
};  // its fix: knowledge::doctor_fix("cluster." + id) (data/doctor_fixes.yaml)

const std::vector<ConsistencyRule>& consistency_rules();

// Groups values and names the minority. Exposed for tests: `values[i]` belongs to `hosts[i]`.
ConsistencyResult judge_values(const std::string& id, const std::string& title, core::Outcome on_deviation,
                               const std::vector<std::string>& hosts,
                               const std::vector<std::optional<std::string>>& values, const std::string& fix);

// Every rule, one result per NCCL_* variable seen on any node, hostname uniqueness, clock skew.
std::vector<ConsistencyResult> check_consistency(const std::vector<NodeSnapshot>& nodes);

// Short hostname (up to the first dot; a node label "host@slurmnode" counts as "host").
std::string short_host(const std::string& host);

}  // namespace ncdx::analyze
