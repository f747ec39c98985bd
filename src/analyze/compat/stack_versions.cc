#include "analyze/compat/stack_versions.h"

#include "analyze/compat/compat.h"
#include "probe/package_versions.h"

namespace ncdx::analyze {

DetectedVersions detect_versions(const core::FileSystem& fs) {
  CompatInput ci;
  ci.detected = probe::detect_stack(fs, {});
  auto rep = check_compat(ci);
  DetectedVersions out;
  for (const auto& c : rep.components) {
    DetectedVersion* slot = c.name == "nccl" ? &out.nccl : c.name == "torch" ? &out.torch : c.name == "verl" ? &out.verl : nullptr;
    if (!slot || slot->version || !c.version) continue;
    if (auto v = core::Version::parse(*c.version)) {
      slot->version = v;
      slot->source = c.source;
    }
  }
  return out;
}

}  // namespace ncdx::analyze
