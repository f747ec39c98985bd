#pragma once
// A fixture machine of tests/data/machines (rooted sysfs/procfs tree + nvml.json) probed through
// the real probes, with the fake NVML library loaded by the real dlopen path (NCDX_NVML_LIB).
#include <cstdlib>
#include <filesystem>
#include <string>

#include "probe/machine_probe.h"
#include "support/test_paths.h"

namespace ncdx::testing {

inline probe::Inventory probe_fixture(const std::string& name) {
  const auto dir = std::filesystem::path(NCDX_TEST_DATA) / "machines" / name;
  setenv("NCDX_NVML_LIB", NCDX_FAKE_NVML, 1);
  setenv("NCDX_FAKE_NVML_JSON", (dir / "nvml.json").c_str(), 1);
  return probe::probe_machine(core::FileSystem(dir), {});
}

}  // namespace ncdx::testing
