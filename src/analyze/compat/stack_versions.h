#pragma once
// The NCCL, PyTorch and verl versions a job on this machine (or a replayed root) would load, found
// the way `ncdx compat` finds them. Used by `env lint` and `audit` when no version flag is given,
// so version-gated rules judge the library the job will actually load.
#include <optional>
#include <string>

#include "core/fs.h"
#include "core/semver.h"

namespace ncdx::analyze {

struct DetectedVersion {
  std::optional<core::Version> version;
  std::string source;  // where it was found ("" when not found)
};

struct DetectedVersions {
  DetectedVersion nccl, torch, verl;
};

DetectedVersions detect_versions(const core::FileSystem& fs);

}  // namespace ncdx::analyze
