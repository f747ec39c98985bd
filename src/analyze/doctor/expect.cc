#include "analyze/doctor/expect.h"

#include <set>

#include "knowledge/doctor_fixes.h"

namespace ncdx::analyze {
namespace {

// The registry rows of the gates (docs: they exist only with their flag, so they are not in the
// always-on registry of doctor/registry.cc).
const CheckDef kGpus{"expect.gpus", "system", "GPU count as expected (--expect-gpus)", "quick", "with --expect-gpus",
                     "a GPU that fell off the bus (XID 79) or failed to enumerate leaves the node with fewer GPUs; "
                     "the job's world size no longer fits",
                     nullptr};
const CheckDef kNics{"expect.nics", "infiniband", "RDMA NIC count as expected (--expect-nics)", "quick",
                     "with --expect-nics",
                     "a missing HCA makes NCCL fall back to fewer rails or to sockets (NET/Socket) without failing",
                     nullptr};
const CheckDef kDriver{"expect.driver", "software", "NVIDIA driver version as expected (--expect-driver)", "quick",
                       "with --expect-driver",
                       "nodes of one job on different drivers differ in CUDA/NVLink/fabric-manager behaviour",
                       nullptr};
const CheckDef kNccl{"expect.nccl", "software", "NCCL version as expected (--expect-nccl)", "quick",
                     "with --expect-nccl",
                     "ranks on different NCCL versions can hang or fail at init (NCCL checks the version across ranks "
                     "from 2.23)",
                     nullptr};

}  // namespace

bool version_matches(const std::string& version, const std::string& want) {
  if (want.empty() || version.size() < want.size() || version.compare(0, want.size(), want) != 0) return false;
  return version.size() == want.size() || version[want.size()] == '.' || version[want.size()] == '-';
}

std::vector<CheckOutcome> expectation_checks(const probe::Inventory& inv, const Expectations& e) {
  std::vector<CheckOutcome> out;
  if (e.gpus) {
    int pci = static_cast<int>(inv.pci_gpus.size());
    std::optional<int> nvml = inv.nvml.device_count;
    std::string seen = std::to_string(pci) + " NVIDIA GPU(s) on PCI" +
                       (nvml ? ", " + std::to_string(*nvml) + " seen by NVML" : std::string(", NVML not read"));
    bool ok = pci == *e.gpus && (!nvml || *nvml == *e.gpus);
    out.push_back({&kGpus, ok ? pass(seen)
                              : fail(seen + "; expected " + std::to_string(*e.gpus),
                                     knowledge::doctor_fix("expect.gpus.fail"))});
  }
  if (e.nics) {
    int n = static_cast<int>(inv.ib.size());
    std::string seen = std::to_string(n) + " RDMA device(s) in /sys/class/infiniband";
    out.push_back({&kNics, n == *e.nics ? pass(seen)
                                        : fail(seen + "; expected " + std::to_string(*e.nics),
                                               knowledge::doctor_fix("expect.nics.fail"))});
  }
  if (e.driver) {
    std::optional<std::string> v = inv.nvml.driver_version ? inv.nvml.driver_version : inv.os.driver_version;
    if (!v) {
      out.push_back({&kDriver, fail("no NVIDIA driver version found (NVML and /proc/driver/nvidia/version)",
                                    knowledge::doctor_fix("expect.driver.missing", {{"driver", *e.driver}}))});
    } else {
      out.push_back({&kDriver, version_matches(*v, *e.driver)
                                   ? pass("driver " + *v)
                                   : fail("driver " + *v + "; expected " + *e.driver,
                                          knowledge::doctor_fix("expect.driver.fail", {{"driver", *e.driver}}))});
    }
  }
  if (e.nccl) {
    std::set<std::string> versions;
    for (const auto& lib : inv.nccl_libs)
      if (lib.version) versions.insert(*lib.version);
    std::string list;
    for (const auto& v : versions) list += (list.empty() ? "" : ", ") + v;
    bool found = false;
    for (const auto& v : versions) found |= version_matches(v, *e.nccl);
    std::string seen = versions.empty() ? std::string("no libnccl with a known version found") : "libnccl " + list;
    out.push_back({&kNccl, found ? pass(seen)
                                 : fail(seen + "; expected " + *e.nccl,
                                        knowledge::doctor_fix("expect.nccl.fail", {{"nccl", *e.nccl}}))});
  }
  return out;
}

}  // namespace ncdx::analyze
