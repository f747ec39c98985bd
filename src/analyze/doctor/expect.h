// Preflight gates (`doctor --expect-gpus N --expect-nics N --expect-driver V --expect-nccl V`):
// the node must look like the fleet says it does. A node that lost a GPU off the bus, a NIC, or
// runs another driver or NCCL passes every per-device check and still breaks the job; as with
// `dcgmi diag`, a deviation is a FAIL. Each gate runs only when its flag is given.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "analyze/doctor/check.h"
#include "probe/inventory.h"

namespace ncdx::analyze {

struct Expectations {
  std::optional<int> gpus;            // GPUs on the PCI bus (and, when NVML answers, that NVML sees)
  std::optional<int> nics;            // RDMA devices (/sys/class/infiniband)
  std::optional<std::string> driver;  // "550.54.15", or a prefix at a dot: "550" matches 550.54.15
  std::optional<std::string> nccl;    // a libnccl of this version on the machine ("2.21.5", or "2.21")
  bool any() const { return gpus || nics || driver || nccl; }
};

// One outcome per given expectation, in the order above (ids expect.gpus, expect.nics, ...).
std::vector<CheckOutcome> expectation_checks(const probe::Inventory& inv, const Expectations& e);

// True when `version` equals `want` or starts with it at a dot boundary ("550" ≤ "550.54.15").
bool version_matches(const std::string& version, const std::string& want);

}  // namespace ncdx::analyze
